import JSON

/// A platform a createMessage notification is sent to, by the Messages API's code in `platforms`
/// (`"platforms": [1, 3]`: iOS and Android), with the name a host gives `attributes.platform`.
///
/// | code | platform | name |
/// | --- | --- | --- |
/// | 1 | iOS | `ios` |
/// | 3 | Android | `android` |
/// | 7 | macOS | `macos` |
/// | 8 | Windows | `windows` |
/// | 9 | Amazon | `amazon` |
/// | 10 | Safari | `safari` |
/// | 11 | Chrome | `chrome` |
/// | 12 | Firefox | `firefox` |
/// | 17 | Huawei | `huawei` |
///
/// Only iOS can add Apple Wallet passes (`Attributes.walletPlatforms`). A code outside the table
/// (email, SMS and other channels without an inbox) warns and is skipped.
public struct TargetPlatform: Sendable, Hashable {
  public var code: Int
  public var name: String

  public static let table: [TargetPlatform] = [
    (1, "ios"), (3, "android"), (7, "macos"), (8, "windows"), (9, "amazon"), (10, "safari"), (11, "chrome"),
    (12, "firefox"), (17, "huawei"),
  ].map { TargetPlatform(code: $0.0, name: $0.1) }

  public init(code: Int, name: String) {
    self.code = code
    self.name = name
  }

  /// The platform of a Messages API code, nil outside the table.
  public init?(code: Int) {
    guard let found = Self.table.first(where: { $0.code == code }) else { return nil }
    self = found
  }

  /// The platforms of a notification's `platforms` member, in the order written, each once; nil
  /// when the member is absent or null. Anything but a known code warns (at `platforms[i]`) and is
  /// skipped.
  static func read(_ value: JSONValue?, _ diagnostics: inout Diagnostics) -> [TargetPlatform]? {
    guard let value, value != .null else { return nil }
    guard let items = value.arrayValue else {
      diagnostics.warn(
        .invalidField, "platforms is \(InboxMessage.describe(value)), not an array of platform codes; ignored",
        at: ["platforms"])
      return nil
    }
    var platforms: [TargetPlatform] = []
    for (index, item) in items.enumerated() {
      guard let code = Lenient.int64(item).flatMap({ Int(exactly: $0) }), let platform = TargetPlatform(code: code)
      else {
        diagnostics.warn(
          .invalidField,
          "platforms[\(index)] is \(InboxMessage.describe(item)), not a platform with an inbox "
            + "(\(table.map { "\($0.code) \($0.name)" }.joined(separator: ", "))); skipped",
          at: ["platforms", String(index)])
        continue
      }
      if !platforms.contains(platform) { platforms.append(platform) }
    }
    return platforms
  }
}
