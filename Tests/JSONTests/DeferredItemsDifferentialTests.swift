import InboxTestSupport
import JSON
import Testing

/// Reading a reply's list one item at a time (each item parsed as it is read) accepts and refuses
/// exactly the texts reading the whole text does, and reads the same values: replies mutated at random, a byte at a time. The one
/// difference: a raw NUL byte, which jansson lets pass after a number, is refused anywhere.
struct DeferredItemsDifferentialTests {
  static let base = Array(
    #"{"status_code":200,"response":{"messages":[{"inbox_id":"a","n":[1,{"x":"\u00e9"}]},7,"s",[],{}],"deleted":["d"],"next":"n"},"base_url":"u"}"#
      .utf8)
  static let pieces: [[UInt8]] = [
    "{", "}", "[", "]", ",", ":", "\"", "\\", " ", "\n", "1", "a", "\"messages\"", "\"response\"", "null", "\u{0}",
  ].map { Array($0.utf8) }

  /// `base` with 1 to 3 random edits: a byte deleted, a piece inserted, or a span repeated.
  static func mutated(_ random: inout SplitMix64) -> [UInt8] {
    var text = base
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let at = Int.random(in: 0..<text.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: text.remove(at: at)
      case 1: text.insert(contentsOf: pieces.randomElement(using: &random) ?? [], at: at)
      default:
        let end = min(text.count, at + Int.random(in: 1...12, using: &random))
        text.insert(contentsOf: text[at..<end], at: end)
      }
    }
    return text
  }

  @Test(arguments: 0..<4)
  func mutatedRepliesReadAlike(batch: Int) throws {
    let seed = UInt64(0xD1FF + batch)
    var random = SplitMix64(seed: seed)
    for round in 0..<2_500 {
      let text = Self.mutated(&random)
      let whole = Result { () throws(JSONError) in try JSONValue.parse(bytes: text) }
      // Items are parsed when read: reading them all is part of the deferred read.
      let deferred = Result { () throws(JSONError) -> (JSONValue, [JSONValue]?) in
        let (rest, items) = try JSONValue.parse(bytes: text, deferringItemsAt: ["response", "messages"])
        return (rest, try items?.values())
      }
      let shown = text.map { $0 < 0x20 || $0 > 0x7E ? "\\x" + String($0, radix: 16) : String(UnicodeScalar($0)) }
      let context = "seed \(seed) round \(round): \(shown.joined())"
      switch (whole, deferred) {
      case (.success(let value), .success(let (rest, items))):
        guard let items else {
          #expect(rest == value, "\(context)")
          continue
        }
        #expect(items == value["response"]?["messages"]?.arrayValue, "\(context)")
        guard case .object(var top) = value, case .object(var response)? = top["response"] else {
          Issue.record("a list outside an object: \(context)")
          continue
        }
        response["messages"] = nil
        top["response"] = .object(response)
        #expect(rest == .object(top), "\(context)")
      case (.failure, .failure): continue
      case (.success, .failure) where text.contains(0): continue
      default: Issue.record("one reader refused what the other read: \(context) \(whole) \(deferred)")
      }
    }
  }
}
