import InboxCore
import JSON
import Testing

/// Feed-wide host switches: decoding with precise errors, merging partial objects, encoding back.
@Suite struct AttributesTests {
  /// A full object decodes member by member; kinds match case-insensitively.
  @Test func decodesEveryMember() throws {
    let attributes = try Attributes(json: [
      "forceCellKind": "Carousel", "platform": "ios", "walletPasses": false, "unreadFirst": true, "other": 1,
    ])
    #expect(
      attributes == Attributes(forceCellKind: .carousel, platform: "ios", walletPasses: false, unreadFirst: true))
  }

  /// An empty object gives the defaults: nothing forced, no platform, passes unknown, unreadFirst off, no unsafe scheme
  /// allowed, automatic read on disappear on (InboxKit's default).
  @Test func emptyObjectGivesDefaults() throws {
    #expect(try Attributes(json: [:]) == Attributes())
    #expect(
      Attributes().json
        == [
          "forceCellKind": nil, "platform": nil, "walletPasses": nil, "unreadFirst": false, "allowedSchemes": [],
          "automaticReadOnDisappear": true, "swipeToDelete": true, "pullToRefresh": true,
          "locale": nil,
        ])
  }

  struct BadRow: Sendable, CustomTestStringConvertible {
    var json: JSONValue
    var path: String
    var reason: String
    var testDescription: String { path + ": " + reason }
  }

  static let badRows: [BadRow] = [
    BadRow(json: [1], path: "attributes", reason: "expected an object, got array"),
    BadRow(json: "ios", path: "attributes", reason: "expected an object, got string"),
    BadRow(
      json: ["forceCellKind": "grid"], path: "attributes.forceCellKind",
      reason: "unknown kind \"grid\"; expected one of banner, captioned, classic, carousel, video, wallet or null"),
    BadRow(
      json: ["forceCellKind": 3], path: "attributes.forceCellKind", reason: "expected a kind name or null, got integer"),
    BadRow(json: ["platform": 5], path: "attributes.platform", reason: "expected a string or null, got integer"),
    BadRow(
      json: ["walletPasses": "yes"], path: "attributes.walletPasses", reason: "expected a boolean or null, got string"),
    BadRow(
      json: ["walletPasses": 1], path: "attributes.walletPasses", reason: "expected a boolean or null, got integer"),
    BadRow(json: ["unreadFirst": "true"], path: "attributes.unreadFirst", reason: "expected a boolean, got string"),
    BadRow(
      json: ["automaticReadOnDisappear": 0], path: "attributes.automaticReadOnDisappear",
      reason: "expected a boolean, got integer"),
    BadRow(json: ["swipeToDelete": "no"], path: "attributes.swipeToDelete", reason: "expected a boolean, got string"),
    BadRow(json: ["pullToRefresh": 0], path: "attributes.pullToRefresh", reason: "expected a boolean, got integer"),
  ]

  /// The screen's switches: on by default (as in InboxKit), turned off and back on by null, each on
  /// its own, and carried by a feed page as `gestures`.
  @Test func swipeToDeleteAndPullToRefreshAreSwitches() throws {
    let off = try Attributes().merging(["swipeToDelete": false])
    #expect(!off.swipeToDelete && off.pullToRefresh && off.json["swipeToDelete"] == false)
    #expect(off.gesturesJSON == ["swipeToDelete": false, "pullToRefresh": true, "automaticReadOnDisappear": true])
    let bothOff = try off.merging(["pullToRefresh": false])
    #expect(!bothOff.swipeToDelete && !bothOff.pullToRefresh)
    let reset = try bothOff.merging(["swipeToDelete": .null, "pullToRefresh": .null])
    #expect(reset.swipeToDelete && reset.pullToRefresh)
  }

  /// Wrong types and unknown kinds throw with the member's path and a reason naming what was expected.
  @Test(arguments: badRows)
  func refuses(_ row: BadRow) {
    #expect(throws: AttributesError(path: row.path, reason: row.reason)) { try Attributes(json: row.json) }
  }

  /// Merging applies only the given members, null resets a member, and a failed merge changes nothing.
  @Test func mergesPartialObjects() throws {
    let base = Attributes(forceCellKind: .video, platform: "ios", walletPasses: true, unreadFirst: true)
    #expect(
      try base.merging(["platform": "android"])
        == Attributes(
          forceCellKind: .video, platform: "android", walletPasses: true, unreadFirst: true))
    #expect(
      try base.merging(["forceCellKind": nil, "walletPasses": nil, "unreadFirst": nil])
        == Attributes(
          platform: "ios"))
    #expect(try base.merging([:]) == base)
    #expect(throws: AttributesError.self) { try base.merging(["platform": "linux", "forceCellKind": "nope"]) }
  }

  /// Encoding then decoding gives the same attributes, forced kind in its canonical spelling.
  @Test func roundTrips() throws {
    let attributes = Attributes(forceCellKind: .wallet, platform: "macCatalyst", walletPasses: nil, unreadFirst: false)
    #expect(attributes.json["forceCellKind"] == "wallet")
    #expect(try Attributes(json: attributes.json) == attributes)
  }

  /// Wallet capability: walletPasses when set, else the platform (iOS, iPadOS, Mac Catalyst).
  @Test(
    arguments: [
      (nil, nil, false), ("ios", nil, true), ("iOS", nil, true), ("ipados", nil, true), ("macCatalyst", nil, true),
      ("android", nil, false), ("macos", nil, false), ("linux", true, true), (nil, true, true), ("ios", false, false),
    ] as [(String?, Bool?, Bool)])
  func walletCapability(platform: String?, walletPasses: Bool?, expected: Bool) {
    #expect(Attributes(platform: platform, walletPasses: walletPasses).canAddWalletPasses == expected)
  }
}
