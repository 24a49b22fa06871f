import JSON

/// Feed-wide switches the host sets, so one place decides what the resolver and the feed order may do.
///
/// JSON (every member optional on input; `null` resets a member to its default):
/// ```
/// {"forceCellKind": "classic", "platform": "ios", "walletPasses": true, "unreadFirst": false,
///  "allowedSchemes": ["file"], "swipeToDelete": false, "locale": "de-AT"}
/// ```
/// Unknown members are ignored, so a server can carry switches of its own next to these.
public struct Attributes: Sendable, Hashable {
  /// Forces one kind for every card of the feed (it still degrades when the payload lacks the fields).
  public var forceCellKind: CardKind?
  /// The host platform as the host names it (`ios`, `maccatalyst`, `android`, `linux`, ...).
  public var platform: String?
  /// Whether the host can add Apple Wallet passes; nil means "derive it from `platform`".
  public var walletPasses: Bool?
  /// InboxKit's transform: inside each pinned group, unread before read. Off by default because it
  /// reorders the feed while a host pages through it (docs/engine.md#feed-order).
  public var unreadFirst: Bool
  /// Schemes of `SchemeGuard.deniedByDefault` this host accepts all the same (lower-cased); empty by
  /// default, so a web or editor host is never handed `javascript:` or `file:` links.
  public var allowedSchemes: Set<String> = []
  /// InboxKit's `automaticReadOnDisappear` (on there by default, and here): unread rows the host
  /// reports leaving the screen (`feed.seen`) become read.
  public var automaticReadOnDisappear = true
  /// InboxKit's swipe to delete (on by default): a swipe (`message.dismiss` with `swipe: true`)
  /// dismisses the row; off, a swipe is refused and the preview draws no delete action.
  public var swipeToDelete = true
  /// InboxKit's pull to refresh (on by default): a pull (`feed.sync` with `pull: true`) syncs; off,
  /// a pull is refused and the preview draws no refresh control. Other syncs are unaffected.
  public var pullToRefresh = true
  /// The user's language as a BCP 47 tag (`de-AT`): picks a send request's title and body from its
  /// language objects (`LocalizedText`) and the language of the accessibility labels. Nil: the
  /// payload's default language and English labels.
  public var locale: String?

  /// Platforms that can add wallet passes when `walletPasses` is unset (lower-cased names).
  public static let walletPlatforms: Set<String> = ["ios", "ipados", "maccatalyst"]

  /// Builds attributes; everything defaults to off/unset.
  public init(
    forceCellKind: CardKind? = nil, platform: String? = nil, walletPasses: Bool? = nil, unreadFirst: Bool = false
  ) {
    self.forceCellKind = forceCellKind
    self.platform = platform
    self.walletPasses = walletPasses
    self.unreadFirst = unreadFirst
  }

  /// Decodes attributes from a JSON object; members not given take their defaults.
  public init(json: JSONValue) throws(AttributesError) {
    self = try Attributes().merging(json)
  }

  /// What keeps unsafe schemes from the host.
  public var schemeGuard: SchemeGuard { SchemeGuard(allowed: allowedSchemes) }

  // MARK: - Wallet capability

  /// Whether wallet cards can render: `walletPasses` when set, otherwise whether `platform` is iOS, iPadOS
  /// or Mac Catalyst (compared case-insensitively). A host that declares neither cannot add passes.
  public var canAddWalletPasses: Bool { walletRefusal == nil }

  /// Why this host cannot add passes, or nil when it can.
  var walletRefusal: String? {
    if let walletPasses {
      return walletPasses ? nil : "the host cannot add wallet passes (walletPasses is false)"
    }
    guard let platform else {
      return "the host cannot add wallet passes (no platform declared and walletPasses is unset)"
    }
    if Attributes.walletPlatforms.contains(platform.trimmingWhitespace().lowercased()) { return nil }
    return "the host cannot add wallet passes (platform \(platform.quotedForMessage) has no Apple Wallet and "
      + "walletPasses is unset)"
  }

  // MARK: - JSON

  /// These attributes with the members of `partial` applied over them; members `partial` omits are kept.
  ///
  /// Throws for a non-object, a member of the wrong type, or an unknown kind; nothing is applied then.
  public func merging(_ partial: JSONValue) throws(AttributesError) -> Attributes {
    guard case .object(let object) = partial else {
      throw AttributesError(path: "attributes", reason: "expected an object, got \(partial.typeName)")
    }
    var merged = self
    if let value = object["forceCellKind"] {
      switch value {
      case .null: merged.forceCellKind = nil
      case .string(let text):
        guard let kind = CardKind(lenient: text) else {
          throw AttributesError(
            path: "attributes.forceCellKind",
            reason: "unknown kind \(text.quotedForMessage); expected one of \(CardKind.allNames) or null")
        }
        merged.forceCellKind = kind
      default:
        throw AttributesError(
          path: "attributes.forceCellKind", reason: "expected a kind name or null, got \(value.typeName)")
      }
    }
    if let value = object["platform"] {
      switch value {
      case .null: merged.platform = nil
      case .string(let text): merged.platform = text.isBlank ? nil : text.trimmingWhitespace()
      default:
        throw AttributesError(path: "attributes.platform", reason: "expected a string or null, got \(value.typeName)")
      }
    }
    if let value = object["walletPasses"] {
      switch value {
      case .null: merged.walletPasses = nil
      case .bool(let flag): merged.walletPasses = flag
      default:
        throw AttributesError(
          path: "attributes.walletPasses", reason: "expected a boolean or null, got \(value.typeName)")
      }
    }
    if let value = object["unreadFirst"] { merged.unreadFirst = try Self.flag(value, "unreadFirst", default: false) }
    if let value = object["allowedSchemes"] { merged.allowedSchemes = try Self.schemes(value) }
    if let value = object["automaticReadOnDisappear"] {
      merged.automaticReadOnDisappear = try Self.flag(value, "automaticReadOnDisappear", default: true)
    }
    if let value = object["swipeToDelete"] {
      merged.swipeToDelete = try Self.flag(value, "swipeToDelete", default: true)
    }
    if let value = object["pullToRefresh"] {
      merged.pullToRefresh = try Self.flag(value, "pullToRefresh", default: true)
    }
    if let value = object["locale"] {
      switch value {
      case .null: merged.locale = nil
      case .string(let text):
        guard text.isBlank || LanguageTag.isWellFormed(text.trimmingWhitespace()) else {
          throw AttributesError(
            path: "attributes.locale", reason: "expected a BCP 47 language tag such as \"de-AT\", or null")
        }
        merged.locale = text.isBlank ? nil : text.trimmingWhitespace()
      default:
        throw AttributesError(path: "attributes.locale", reason: "expected a string or null, got \(value.typeName)")
      }
    }
    return merged
  }

  /// A boolean member; null resets it to its default.
  private static func flag(_ value: JSONValue, _ name: String, default: Bool) throws(AttributesError) -> Bool {
    switch value {
    case .null: return `default`
    case .bool(let flag): return flag
    default: throw AttributesError(path: "attributes.\(name)", reason: "expected a boolean, got \(value.typeName)")
    }
  }

  /// An array of scheme names (`["file"]`, any case); null is none.
  private static func schemes(_ value: JSONValue) throws(AttributesError) -> Set<String> {
    if value == .null { return [] }
    guard let items = value.arrayValue else {
      throw AttributesError(
        path: "attributes.allowedSchemes", reason: "expected an array of scheme names or null, got \(value.typeName)")
    }
    var schemes = Set<String>()
    for (index, item) in items.enumerated() {
      guard let text = item.stringValue, let scheme = SchemeGuard.scheme(of: text + ":"), scheme == text.lowercased()
      else {
        throw AttributesError(
          path: "attributes.allowedSchemes[\(index)]", reason: "expected a scheme name such as \"file\" (no colon)")
      }
      schemes.insert(scheme)
    }
    return schemes
  }

  /// The screen's switches a feed page carries (`gestures`), so a host draws the affordances the
  /// server honours: `{swipeToDelete, pullToRefresh, automaticReadOnDisappear}`.
  public var gesturesJSON: JSONValue {
    [
      "swipeToDelete": .bool(swipeToDelete), "pullToRefresh": .bool(pullToRefresh),
      "automaticReadOnDisappear": .bool(automaticReadOnDisappear),
    ]
  }

  /// Every member, unset ones as null:
  /// `{"forceCellKind", "platform", "walletPasses", "unreadFirst", "allowedSchemes",
  /// "automaticReadOnDisappear", "swipeToDelete", "pullToRefresh", "locale"}` (sorted).
  public var json: JSONValue {
    .object([
      "forceCellKind": forceCellKind.map { .string($0.rawValue) } ?? .null,
      "platform": platform.map(JSONValue.string) ?? .null,
      "walletPasses": walletPasses.map(JSONValue.bool) ?? .null,
      "unreadFirst": .bool(unreadFirst),
      "allowedSchemes": .array(allowedSchemes.sorted().map(JSONValue.string)),
      "automaticReadOnDisappear": .bool(automaticReadOnDisappear),
      "swipeToDelete": .bool(swipeToDelete),
      "pullToRefresh": .bool(pullToRefresh),
      "locale": locale.map(JSONValue.string) ?? .null,
    ])
  }
}
