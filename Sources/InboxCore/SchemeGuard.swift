/// Keeps the schemes a web page or an editor would act on dangerously out of what the host is handed
/// (row actions, button `openURL`s, slide targets, images), unless the host allows them by name.
///
/// InboxKit hands over any scheme: a native app opens links through the system, which refuses
/// `javascript:`. A web or Electron host that sets `href` or `src` from a card would run script or
/// read local files, so this engine drops those by default, each with an `unsafeScheme` warning.
public struct SchemeGuard: Sendable, Hashable {
  /// The usual URL sanitiser's deny-list: script (`javascript:`, `vbscript:`), inline documents
  /// (`data:`), local files (`file:`) and Android intents (`intent:`, which can start any activity).
  public static let deniedByDefault: [String] = ["javascript", "vbscript", "data", "file", "intent"]

  /// Denied schemes this host accepts all the same (lower-cased), from `attributes.allowedSchemes`.
  public var allowed: Set<String>

  public init(allowed: Set<String> = []) { self.allowed = allowed }

  /// The denied scheme `text` starts with, or nil when it may be handed to the host.
  public func deniedScheme(_ text: String) -> String? {
    guard let scheme = Self.scheme(of: text), Self.deniedByDefault.contains(scheme), !allowed.contains(scheme)
    else { return nil }
    return scheme
  }

  /// The card image, or nil with a warning when its scheme is denied.
  func image(_ url: String?, _ diagnostics: inout Diagnostics) -> String? {
    guard let url, let scheme = deniedScheme(url) else { return url }
    diagnostics.warn(.unsafeScheme, refusal("the image", scheme: scheme, then: "the card has no image"))
    return nil
  }

  /// The row action, or `none` with a warning when its link's scheme is denied.
  func rowAction(_ action: RowAction, _ diagnostics: inout Diagnostics) -> RowAction {
    switch action {
    case .openURL(let url), .deeplink(let url):
      guard let scheme = deniedScheme(url) else { return action }
      diagnostics.warn(.unsafeScheme, refusal("the row link", scheme: scheme, then: "a row tap does nothing"))
      return .none
    case .richMedia, .none:
      return action
    }
  }

  /// The warning's sentence: `<field> uses the javascript: scheme, which ...`.
  func refusal(_ field: String, scheme: String, then consequence: String) -> String {
    "\(field) uses the \(scheme): scheme, which a web or editor host would run or open locally; \(consequence) "
      + "(a host that needs it lists \"\(scheme)\" in attributes.allowedSchemes)"
  }

  /// The scheme as a browser reads it, lower-cased: leading spaces and controls are skipped and tabs
  /// and line breaks inside are ignored (`" java\tscript:"` is `javascript`), so they cannot hide one.
  /// Read as UTF-8 bytes: every character a scheme may hold or skip is ASCII, and every byte of any
  /// other character is 0x80 or more, which ends the scheme.
  static func scheme(of text: String) -> String? {
    var scheme = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: ":"): return scheme.isEmpty ? nil : scheme
      case 0...0x20, 0x7F: continue
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): scheme.unicodeScalars.append(Unicode.Scalar(byte + 0x20))
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"),
        UInt8(ascii: "-"), UInt8(ascii: "."):
        scheme.unicodeScalars.append(Unicode.Scalar(byte))
      default: return nil
      }
    }
    return nil
  }
}
