import Foundation
import JSON
import Testing

/// jansson-style fixture directories: `valid/<case>/{input,output}` and `invalid/<case>/{input,error}`.
/// Each valid case also runs with its insignificant white space stripped.
struct FixtureTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func cases(_ suite: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(suite).path)) ?? []
    return names.sorted()
  }

  static func read(_ suite: String, _ name: String, _ file: String) throws -> [UInt8] {
    Array(
      try Data(contentsOf: root.appendingPathComponent(suite).appendingPathComponent(name).appendingPathComponent(file))
    )
  }

  static func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test func fixturesArePresent() {
    #expect(Self.cases("valid").count >= 10)
    #expect(Self.cases("invalid").count >= 10)
  }

  @Test(arguments: cases("valid"))
  func validCase(_ name: String) throws {
    let input = try Self.read("valid", name, "input")
    let expected = Self.text(try Self.read("valid", name, "output"))
    let value = try JSONValue.parse(bytes: input)
    #expect(Self.text(value.serialized()) == expected, "\(name)")
    // Serialising is a fixed point: what we write reads back as the same value.
    #expect(try JSONValue.parse(bytes: value.serialized()) == value)
  }

  @Test(arguments: cases("valid"))
  func validCaseStripped(_ name: String) throws {
    let input = try Self.read("valid", name, "input")
    let expected = Self.text(try Self.read("valid", name, "output"))
    let value = try JSONValue.parse(bytes: Self.stripWhitespace(input))
    #expect(Self.text(value.serialized()) == expected, "\(name)")
  }

  @Test(arguments: cases("invalid"))
  func invalidCase(_ name: String) throws {
    let input = try Self.read("invalid", name, "input")
    let expected = Self.text(try Self.read("invalid", name, "error"))
    #expect(throws: JSONError.self) { try JSONValue.parse(bytes: input) }
    do {
      _ = try JSONValue.parse(bytes: input)
    } catch {
      #expect(error.kind.rawValue == expected, "\(name): \(error)")
    }
  }

  /// Removes white space outside strings, as jansson's own suite does for its stripped runs.
  static func stripWhitespace(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        out.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
        out.append(byte)
      } else if ![0x20, 0x09, 0x0A, 0x0D].contains(byte) {
        out.append(byte)
      }
    }
    return out
  }
}
