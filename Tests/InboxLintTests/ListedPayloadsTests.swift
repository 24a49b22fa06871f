import InboxApp
import InboxCore
import JSON
import LintReport
import Testing

@testable import InboxLint

/// A file's payload list linted a payload at a time says what linting the file whole says: the same
/// verdicts, the same findings at the same lines and columns, whatever the layout.
struct ListedPayloadsTests {
  static let payloads = [
    #"{"content": "Hi", "data": {"displayType": "carousel"}}"#,
    #"{"ios_title": 7, "content": "Sale", "platforms": [1, 3], "data": {"displayType": "wallet", "wallet": "http://x"}}"#,
    #"{"content": {"en": "Hi", "de": "Hallo"}, "ios_title": {"en": "T"}, "data": {"buttons": [{"title": "Go", "url": "javascript:x"}]}}"#,
    #"{"inbox_id": "m1", "u": {"displayType": 5}}"#,
    #""not a payload""#,
  ]

  /// The payloads as an array (minified, pretty, CR LF, after a byte order mark) or a request.
  static let layouts: [[UInt8]] = [
    Array(("[" + payloads.joined(separator: ",") + "]").utf8),
    Array(("[\n  " + payloads.joined(separator: ",\n  ") + "\n]\n").utf8),
    Array(("[\r\n" + payloads.joined(separator: ",\r\n") + "\r\n]").utf8),
    [0xEF, 0xBB, 0xBF] + Array(("[" + payloads.joined(separator: ",\n") + "]").utf8),
    Array((#"{"request": {"application": "A-B", "notifications": ["# + padded.joined(separator: ",\n") + "]}}").utf8),
  ]

  /// A notification's id is derived from its canonical bytes written from the parser's tree, and
  /// is the id resolving its Swift value derives (`StableID`).
  @Test func theIdsDerivedAreThoseOfTheWholeFile() throws {
    let notifications = [
      #"{"inbox_days": 3, "ios_title": "A", "content": "x", "data": {"b": 1, "a": [1.0, "é\u0000"]}}"#,
      #"{"content": {"en": "Hi", "de": "Hallo"}, "inbox_days": 1, "platforms": [1, 3]}"#,
      #"{"inbox_image": "https://e.com/i.png", "content": "\"q\"", "inbox_days": 2}"#,
    ]
    let text = SourceText(Array(("[" + notifications.joined(separator: ",\n") + "]").utf8))
    let listed = try #require(ListedPayloads(file: "f.json", text: text))
    let ids = (0..<listed.count).flatMap {
      listed.lint($0, attributes: Attributes(), now: 1_790_000_000, options: .init())?.reports.map(\.card?.id) ?? []
    }
    let whole = try LintInput.parse("f.json", text).value.get()
    let expected = PayloadLint.lint(whole, now: 1_790_000_000).map(\.card?.id)
    #expect(ids == expected)
    #expect(ids.count == 4 && ids.allSatisfy { $0?.hasPrefix("sr-") == true })
  }

  /// A large file's lines are indexed while its items are found, on two cores: the same text and
  /// list as reading them one after the other.
  @Test func aLargeFileIsReadAsASmallOneIs() throws {
    let bytes = Array(("[" + Self.padded.joined(separator: ",\n") + "]").utf8)
    #expect(bytes.count >= ListedPayloads.largeObject)
    let (text, listed, _) = ListedPayloads.read(file: "f.json", bytes: bytes)
    let read = try #require(listed)
    let alone = try #require(ListedPayloads(file: "f.json", text: SourceText(bytes)))
    #expect(text.bytes == bytes && read.count == alone.count && read.count == Self.padded.count)
    let last = read.count - 1
    #expect(text.position(atOffset: bytes.count - 1) == SourceText(bytes).position(atOffset: bytes.count - 1))
    let options = PayloadLint.Options()
    #expect(
      read.lint(last, attributes: Attributes(), now: 1, options: options)?.subjects.map(\.findings)
        == alone.lint(last, attributes: Attributes(), now: 1, options: options)?.subjects.map(\.findings))
  }

  /// A large notification, which lists nothing, comes back parsed once: the value the whole file's
  /// parse gives, so lint need not parse it again.
  @Test func aLargeNotificationIsParsedOnce() throws {
    let languages = (0..<20_000).map { #""en-\#($0)": "Offer \#($0)""# }.joined(separator: ", ")
    let bytes = Array(#"{"send_date": "now", "ios_title": {\#(languages)}, "content": "Today"}"#.utf8)
    #expect(bytes.count >= ListedPayloads.largeObject)
    let (_, listed, whole) = ListedPayloads.read(file: "f.json", bytes: bytes)
    #expect(listed == nil)
    let parsed = try LintInput.parse("f.json", bytes).value.get()
    #expect(try #require(whole) == parsed)
  }

  /// The payloads again and again, to make a request large enough to be read a payload at a time.
  static let padded = Array(repeating: payloads, count: ListedPayloads.largeObject / 300).flatMap { $0 }

  @Test(arguments: layouts.indices)
  func eachPayloadLintedAloneIsLintedAsInTheWholeFile(layout: Int) throws {
    let text = SourceText(Self.layouts[layout])
    let listed = try #require(ListedPayloads(file: "f.json", text: text))
    #expect(listed.count == Self.payloads.count || listed.count == Self.padded.count)
    let whole = try LintInput.parse("f.json", text).value.get()
    let reports = PayloadLint.lint(whole, now: 1_790_000_000)
    let places = PayloadPlaces(text, reports: reports)
    let expected = reports.map {
      LintFindings.subject($0, in: "f.json", places: places, payload: $0.pointer.value(in: whole) ?? whole)
    }
    let linted = (0..<listed.count).compactMap {
      listed.lint($0, attributes: Attributes(), now: 1_790_000_000, options: .init())
    }
    #expect(linted.count == listed.count)
    #expect(Self.document(linted.flatMap(\.subjects)) == Self.document(expected))
    #expect(linted.flatMap(\.reports).map(\.verdictLabel) == reports.map(\.verdictLabel))

    #expect(expected.flatMap(\.findings).count >= 5)
  }

  /// The subjects as the json format writes them: names, summaries, findings and their positions.
  static func document(_ subjects: [Report.Subject]) -> JSONValue {
    ReportFormat.json(Report(tool: Report.Tool(name: "lint", version: "1"), rules: [], subjects: subjects))
  }

  @Test func aPayloadThatIsNotJSONIsNotLinted() throws {
    let listed = try #require(
      ListedPayloads(file: "f.json", text: SourceText(Array(#"[{"content": "a"}, {"a":1,}]"#.utf8))))
    #expect(listed.lint(0, attributes: Attributes(), now: 0, options: .init()) != nil)
    #expect(listed.lint(1, attributes: Attributes(), now: 0, options: .init()) == nil)
  }

  @Test(arguments: [
    #"[{"content": "a"} {"content": "b"}]"#, #"[{"content": "a"}] x"#, #"{"content": "a"}"#, "5", "[1,]",
  ])
  func aFileThatBreaksOutsideItsPayloadsOrListsNoneIsReadWhole(text: String) {
    #expect(ListedPayloads(file: "f.json", text: SourceText(Array(text.utf8))) == nil)
  }
}
