import JSON
import Synchronization
import Testing

/// A long reply read with a cancel token: the parse and the items' reading stop when it is set, and
/// a reply read to the end is what reading it without one gives; bytes given up are emptied.
struct CancellableReadingTests {
  /// `{"response": {"messages": [...]}}` of `count` items, about 60 bytes each.
  func reply(_ count: Int) -> [UInt8] {
    let items = (0..<count).map { #"{"inbox_id":"m\#($0)","text":"body \#($0)","l":[true,null]}"# }
    return Array(#"{"status_code":200,"response":{"messages":[\#(items.joined(separator: ","))]}}"#.utf8)
  }

  @Test func aCancelDuringTheParseStopsIt() {
    let asked = Atomic<Int>(0)
    var bytes = reply(50_000)
    #expect {
      _ = try JSONValue.parse(consuming: &bytes, itemTextsAt: ["response", "messages"]) {
        asked.add(1, ordering: .relaxed).newValue > 2
      }
    } throws: { ($0 as? JSONError)?.kind == .cancelled }
    #expect(asked.load(ordering: .relaxed) == 3, "asked between chunks, and not again once cancelled")
  }

  @Test func aCancelWhileTheItemsAreReadStopsThem() {
    // Too short to be asked during the parse (every 256 KiB): only the items' reading asks.
    var bytes = reply(3_000)
    #expect(bytes.count < 256 * 1024)
    #expect {
      _ = try JSONValue.parse(consuming: &bytes, itemTextsAt: ["response", "messages"]) { true }
    } throws: { ($0 as? JSONError)?.kind == .cancelled }
  }

  @Test func aReadNeverCancelledGivesWhatAPlainReadGives() throws {
    let original = reply(20_000)
    var bytes = original
    let (value, texts) = try JSONValue.parse(consuming: &bytes, itemTextsAt: ["response", "messages"]) { false }
    #expect(bytes.isEmpty, "given up once parsed")
    let (plain, plainTexts) = try JSONValue.parse(bytes: original, itemTextsAt: ["response", "messages"])
    #expect(value == plain)
    #expect(texts == plainTexts)
  }

  @Test func aSyntaxErrorIsStillOne() {
    var bytes = Array(#"{"response":{"messages":[1,2,"#.utf8)
    #expect {
      _ = try JSONValue.parse(consuming: &bytes, itemTextsAt: ["response", "messages"]) { false }
    } throws: { ($0 as? JSONError)?.kind == .syntax }
  }
}
