import InboxApp
import InboxCore
import JSON
import LintReport
import Testing

@testable import InboxLint

/// A payload of many findings (hundreds of language keys, hundreds of buttons that break the
/// schema), minified and pretty: every finding sits where the text, written here with each value's
/// offset noted, says it does, counted from the file's start.
struct ManyFindingsTests {
  /// A JSON text written piece by piece, with the offset of each value it is asked to note.
  private struct Writer {
    var bytes: [UInt8] = []
    var noted: [String: Int] = [:]
    let pretty: Bool

    mutating func add(_ text: String) { bytes += Array(text.utf8) }
    mutating func note(_ name: String) { noted[name] = bytes.count }
    mutating func newline() { if pretty { add("\r\n  ") } }
  }

  private static let count = 300

  /// A send request whose title has `count` languages and whose body has `count` others, and whose
  /// `count` buttons each have an integer title.
  private static func payload(pretty: Bool) -> Writer {
    var writer = Writer(pretty: pretty)
    let gap = pretty ? " " : ""
    writer.add("{")
    writer.newline()
    writer.add("\"send_date\":\(gap)\"now\",")
    writer.newline()
    writer.add("\"inbox_days\":\(gap)3,")
    for field in ["ios_title", "content"] {
      writer.newline()
      writer.add("\"\(field)\":\(gap)")
      writer.note(field)
      writer.add("{")
      for index in 0..<count {
        writer.newline()
        writer.add("\"en-\(field.prefix(1))\(index)\":\(gap)\"Text é😀 \(index)\"\(index + 1 < count ? "," : "")")
      }
      writer.add("},")
    }
    writer.newline()
    writer.add("\"data\":\(gap){\"displayType\":\(gap)\"classic\",\(gap)\"buttons\":\(gap)[")
    for index in 0..<count {
      writer.newline()
      writer.note("button \(index)")
      writer.add("{\"title\":\(gap)")
      writer.note("title \(index)")
      writer.add("\(index),\(gap)\"url\":\(gap)\"x\"}\(index + 1 < count ? "," : "")")
    }
    writer.add("]}}")
    return writer
  }

  /// The offset in `writer`'s text of the value a finding with `rule` at `tokens` (from the
  /// payload) is about.
  private static func offset(_ rule: String, _ tokens: [String], in writer: Writer) -> Int? {
    let name: String? =
      switch rule {
      case "missingLanguage": tokens.last
      case "schema": tokens.count >= 2 ? "title \(tokens[tokens.count - 2])" : nil
      case "buttonDropped": tokens.last.map { "button \($0)" }
      default: nil
      }
    return name.flatMap { writer.noted[$0] }
  }

  @Test(arguments: [false, true])
  func everyFindingOfALargePayloadSitsAtItsValue(pretty: Bool) throws {
    let writer = Self.payload(pretty: pretty)
    let input = LintInput.parse("many.json", writer.bytes)
    let (_, subjects) = LintedFile.verdicts(
      try input.value.get(), in: input, conditions: LintConditions(now: 1_790_000_000))
    let findings = subjects.flatMap(\.findings)
    #expect(findings.filter { $0.ruleId == "missingLanguage" }.count == 2 * Self.count)
    #expect(findings.filter { $0.ruleId == "buttonDropped" }.count == Self.count)
    #expect(findings.contains { $0.ruleId == "schema" })
    for finding in findings {
      let place = "\(finding.ruleId) at \(finding.pointer?.description ?? "")"
      let offset = try #require(Self.offset(finding.ruleId, finding.pointer?.tokens ?? [], in: writer), "\(place)")
      #expect(finding.position == SourcePosition(offset: offset, in: writer.bytes), "\(place)")
    }
  }

  /// The payload second in a list, read a payload at a time: its findings are placed in the file.
  @Test func theSamePayloadListedIsPlacedInTheFile() throws {
    let writer = Self.payload(pretty: true)
    let head = Array("[\n".utf8) + writer.bytes + Array(",\n".utf8)
    let bytes = head + writer.bytes + Array("\n]\n".utf8)
    let listed = try #require(ListedPayloads(file: "many.json", text: SourceText(bytes)))
    let second = try #require(listed.lint(1, attributes: Attributes(), now: 1_790_000_000, options: .init()))
    let findings = second.subjects.flatMap(\.findings)
    #expect(findings.count > 3 * Self.count)
    for finding in findings {
      let tokens = Array((finding.pointer?.tokens ?? []).dropFirst())  // past the payload's index
      let place = "\(finding.ruleId) at \(finding.pointer?.description ?? "")"
      let offset = try #require(Self.offset(finding.ruleId, tokens, in: writer), "\(place)")
      #expect(finding.position == SourcePosition(offset: head.count + offset, in: bytes), "\(place)")
    }
  }
}
