import InboxTestSupport
import JSON
import Testing

/// An item's canonical bytes written from the parser's tree are those written from its Swift
/// value: lint derives a notification's id from the first, resolve from the second.
struct CanonicalBytesTests {
  static let texts = [
    #"{"b":1,"a":{"d":[1.0,-0.0,1e300,12345678901234567],"c":"\u0000\"\\\n\u001f/é😀"},"":null}"#,
    #"[true,false,null,{"z":{},"y":[],"x":0.1}]"#,
    #"{"ios_title":{"en":"30% off","de":"30% Rabatt"},"platforms":[1,3],"data":{"displayType":"wallet"}}"#,
    #""just a string""#, "-12.5e-3", "42",
  ]

  @Test(arguments: texts)
  func theParsersTreeWritesTheSwiftValuesBytes(text: String) throws {
    let list = Array("[\(text),\(text)]".utf8)
    let (_, items) = try JSONValue.parse(bytes: list, deferringItemsAt: [])
    let read = try #require(items)
    for index in 0..<read.count {
      let item = try read.item(at: index)
      #expect(item.serializedSortingKeys() == (try item.value()).serializedSortingKeys())
    }
  }

  @Test func randomValuesWriteAlike() throws {
    let seed: UInt64 = 0xCA70
    var random = SplitMix64(seed: seed)
    for round in 0..<500 {
      let value = Self.value(&random, depth: 0)
      let (_, items) = try JSONValue.parse(bytes: Array("[\(value.jsonString)]".utf8), deferringItemsAt: [])
      let item = try #require(items).item(at: 0)
      #expect(
        item.serializedSortingKeys() == value.serializedSortingKeys(),
        "seed \(seed) round \(round): \(value.jsonString)")
    }
  }

  /// A value of every kind, objects with keys in no order, strings with escapes and non-ASCII.
  static func value(_ random: inout SplitMix64, depth: Int) -> JSONValue {
    let strings = ["a", "B", "", "é", "\u{0}", "\"q\"", "\\", "\n\t", "😀", "10", "b"]
    // jansson reads no NUL in a key.
    let keys = strings.filter { $0 != "\u{0}" }
    switch Int.random(in: 0..<(depth < 3 ? 8 : 5), using: &random) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &random))
    case 2: return .int(Int64.random(in: Int64.min...Int64.max, using: &random))
    case 3: return .double(Double.random(in: -1e6...1e6, using: &random))
    case 4: return .string(strings.randomElement(using: &random)!)
    case 5: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
    default:
      var object = JSONObject()
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        object[keys.randomElement(using: &random)!] = value(&random, depth: depth + 1)
      }
      return .object(object)
    }
  }
}
