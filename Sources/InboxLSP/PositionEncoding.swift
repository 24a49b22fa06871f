/// How a client counts a line's characters (LSP 3.17 `PositionEncodingKind`): UTF-16 code units
/// unless the client offers another in `general.positionEncodings`; the server takes UTF-8 first
/// (no conversion at all), then UTF-32.
public enum PositionEncoding: String, Sendable, CaseIterable {
  case utf8 = "utf-8"
  case utf16 = "utf-16"
  case utf32 = "utf-32"

  /// The one to use of those the client offers, in the server's order of preference.
  public static func negotiate(_ offered: [String]?) -> PositionEncoding {
    guard let offered else { return .utf16 }
    for choice in [PositionEncoding.utf8, .utf32, .utf16] where offered.contains(choice.rawValue) { return choice }
    return .utf16
  }

  /// The units the UTF-8 sequence led by `byte` counts for.
  func units(lead byte: UInt8) -> Int {
    switch self {
    case .utf8: byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
    case .utf16: byte >= 0xF0 ? 2 : 1
    case .utf32: 1
    }
  }
}
