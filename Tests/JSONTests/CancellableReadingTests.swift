import JSON
import Synchronization
import Testing

/// A long reply read with a cancel token: the reading stops when it is set, between items of the
/// list, and a reply read to the end is what reading it without one gives.
struct CancellableReadingTests {
  /// `{"response": {"messages": [...]}}` of `count` items, about 60 bytes each.
  func reply(_ count: Int) -> [UInt8] {
    let items = (0..<count).map { #"{"inbox_id":"m\#($0)","text":"body \#($0)","l":[true,null]}"# }
    return Array(#"{"status_code":200,"response":{"messages":[\#(items.joined(separator: ","))]}}"#.utf8)
  }

  @Test func aCancelDuringTheReadStopsIt() {
    let asked = Atomic<Int>(0)
    #expect {
      _ = try JSONValue.parse(bytes: reply(50_000), deferringItemsAt: ["response", "messages"]) {
        asked.add(1, ordering: .relaxed).newValue > 2
      }
    } throws: { ($0 as? JSONError)?.kind == .cancelled }
    #expect(asked.load(ordering: .relaxed) == 3, "asked between items, and not again once cancelled")
  }

  @Test func aReadNeverCancelledGivesWhatAPlainReadGives() throws {
    let bytes = reply(20_000)
    let (_, items) = try JSONValue.parse(bytes: bytes, deferringItemsAt: ["response", "messages"]) { false }
    #expect(try items?.values() == JSONValue.parse(bytes: bytes)["response"]?["messages"]?.arrayValue)
  }
}
