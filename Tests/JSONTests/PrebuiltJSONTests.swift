import Testing

@testable import JSON

/// A prebuilt value writes exactly as the value it was made from, and reads as it.
struct PrebuiltJSONTests {
  let card: JSONValue = [
    "id": "a", "title": "Hé \"quoted\"\n", "read": false, "sentAt": .null, "buttons": [["title": "Go", "n": 3]],
  ]

  @Test func writesAsItsValueInsideOtherValues() {
    let built = JSONValue.prebuilt(PrebuiltJSON(card))
    #expect(built.jsonString == card.jsonString)
    let page: JSONValue = ["items": [built, built], "next": .null]
    let plain: JSONValue = ["items": [card, card], "next": .null]
    #expect(page.serialized() == plain.serialized())
  }

  @Test func readsAsItsValue() {
    let built = JSONValue.prebuilt(PrebuiltJSON(card))
    #expect(built["title"]?.stringValue == "Hé \"quoted\"\n")
    #expect(built.objectValue?.count == 5 && built.typeName == "object" && built.plain == card)
  }
}
