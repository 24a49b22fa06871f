import Testing

@testable import InboxCore

/// FNV-1a against the published test vectors: avatar colours and derived ids depend on these values
/// never changing.
struct StableHashTests {
  @Test(arguments: [("", 0x811C_9DC5 as UInt32), ("a", 0xE40C_292C), ("foobar", 0xBF9C_F968)])
  func fnv1a32(_ text: String, _ expected: UInt32) {
    #expect(StableHash.fnv1a32(text.utf8) == expected)
  }

  @Test(arguments: [
    ("", 0xCBF2_9CE4_8422_2325 as UInt64), ("a", 0xAF63_DC4C_8601_EC8C), ("foobar", 0x8594_4171_F739_67E8),
  ])
  func fnv1a64(_ text: String, _ expected: UInt64) {
    #expect(StableHash.fnv1a64(text.utf8) == expected)
  }

  @Test func hex16PadsToSixteenDigits() {
    #expect(StableHash.hex16(0xAB) == "00000000000000ab")
    #expect(StableHash.hex16(.max) == "ffffffffffffffff")
  }
}
