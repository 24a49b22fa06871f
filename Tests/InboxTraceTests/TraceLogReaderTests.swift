import Foundation
import JSON
import Testing

@testable import InboxTrace

/// The trace pulled one entry at a time: the same entries, line numbers and gaps however the
/// file's reads fall, and the same refusals, as the push form (`TraceLog.read`) built on it.
struct TraceLogReaderTests {
  /// A file holding `text`, removed by the caller.
  static func file(_ text: String) throws -> String {
    let path = NSTemporaryDirectory() + "trace-reader-\(UUID().uuidString).trace"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// An entry as text, so two lists of entries compare.
  static func describe(_ entry: TraceLog.Entry) -> String {
    switch entry {
    case .record(let record):
      "\(record.line) \(record.direction.rawValue) \(record.time) \(record.isText) \(record.frame.jsonString)"
    case .gap(let gap): "\(gap.line) gap \(gap.isDrop) \(gap.reason)"
    }
  }

  static func pulled(_ path: String, chunkSize: Int = 64 * 1024) throws -> [String] {
    var reader = try TraceLog.Reader(path: path, chunkSize: chunkSize)
    var entries: [String] = []
    while let entry = try reader.next() { entries.append(describe(entry)) }
    #expect(try reader.next().map(describe) == nil)
    return entries
  }

  static func pushed(_ path: String) throws -> [String] {
    var entries: [String] = []
    try TraceLog.read(path) { entry in
      entries.append(describe(entry))
      return true
    }
    return entries
  }

  static let trace = """
    {"t":1,"dir":"in","frame":{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}}

    not json
    {"t":2,"dropped":3}
      \t
    {"t":3,"dir":"sideways","frame":{}}
    {"t":4,"dir":"in","unparsed":{"prefix":"{\\"jsonrpc","sha256":"00"}}
    {"t":5,"dir":"out","frame":{"jsonrpc":"2.0","id":1,"result":"pong"}}
    """

  @Test func everyEntryComesWithItsLineHoweverTheReadsFall() throws {
    let path = try Self.file(Self.trace)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let expected = [
      #"1 in 1 false {"jsonrpc":"2.0","id":1,"method":"rpc.ping"}"#,
      "3 gap false not a trace record: the line is not JSON",
      "4 gap true 3 frames were dropped here (the trace fell behind)",
      "6 gap false not a trace record: it needs t, dir (in or out) and frame",
      #"7 in 4 true "{\"jsonrpc""#,
      // The last line has no LF: it is still a record.
      #"8 out 5 false {"jsonrpc":"2.0","id":1,"result":"pong"}"#,
    ]
    #expect(try Self.pulled(path) == expected)
    #expect(try Self.pushed(path) == expected)
    for chunkSize in 1...24 {
      #expect(try Self.pulled(path, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
    }
  }

  @Test func aLineLongerThanManyReadsIsOneRecord() throws {
    let padding = String(repeating: "x", count: 300 * 1024)
    let text = """
      {"t":1,"dir":"in","frame":{"jsonrpc":"2.0","method":"n","params":{"pad":"\(padding)"}}}
      {"t":2,"dir":"in","frame":{"jsonrpc":"2.0","method":"m"}}

      """
    let path = try Self.file(text)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var reader = try TraceLog.Reader(path: path)
    guard case .record(let long)? = try reader.next() else {
      Issue.record("the long line is not a record")
      return
    }
    #expect(long.line == 1 && long.frame["params"]?["pad"]?.stringValue == padding)
    guard case .record(let next)? = try reader.next() else {
      Issue.record("the line after the long one is not a record")
      return
    }
    #expect(next.line == 2 && next.frame["method"]?.stringValue == "m")
    #expect(try reader.next().map(Self.describe) == nil)
  }

  @Test func whatIsNotARegularFileIsRefusedAsThePushFormRefusesIt() throws {
    let directory = NSTemporaryDirectory() + "trace-reader-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fifo = directory + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    for (path, message) in [
      (directory, "\(directory) is not a regular file (a directory)"),
      (fifo, "\(fifo) is not a regular file (a FIFO)"),
    ] {
      #expect(throws: (any Error).self) { _ = try TraceLog.Reader(path: path) }
      do {
        _ = try TraceLog.Reader(path: path)
      } catch {
        #expect(error.message == message)
      }
      do {
        try TraceLog.read(path) { _ in true }
        Issue.record("\(path) was read")
      } catch {
        #expect(error.message == message)
      }
    }
    do {
      _ = try TraceLog.Reader(path: directory + "/missing")
      Issue.record("a missing file was opened")
    } catch {
      #expect(error.message.hasPrefix("cannot open \(directory)/missing"))
    }
  }
}
