import JSON

/// Something the engine dropped, ignored or downgraded, as a value, so nothing degrades silently
/// (docs/engine.md#warnings).
///
/// The engine never logs; it returns warnings and the server turns each into a WARN line on stderr and a `log`
/// notification. JSON: `{"messageId": "m1", "requestedKind": "carousel", "usedKind": "classic",
/// "reason": "carousel has no usable slide: ...", "code": "degraded"}` (kinds are null for warnings raised
/// while reading the payload, before any kind was chosen).
public struct Warning: Sendable, Hashable, CustomStringConvertible {
  /// A stable machine-readable category, so hosts and tests match warnings without parsing the reason.
  ///
  /// An open struct: new codes can be added without breaking a host's `switch`.
  public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as it appears on the wire (`"degraded"`).
    public var rawValue: String
    /// Wraps a code; prefer the named constants.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A rich card fell back to `classic`; the reason says which field was missing or malformed.
    public static let degraded = Code(rawValue: "degraded")
    /// `displayType` named no known kind (or was not a string); the heuristic decided instead.
    public static let unknownDisplayType = Code(rawValue: "unknownDisplayType")
    /// A button was dropped: not an object, no title, past the third, or on a kind that shows no buttons.
    public static let buttonDropped = Code(rawValue: "buttonDropped")
    /// A button's `action` token was not `dismiss`, `markRead` or `custom`; it counted as absent.
    public static let unknownButtonAction = Code(rawValue: "unknownButtonAction")
    /// A button's non-empty `url` had no scheme, so the button did not become `openURL`.
    public static let invalidButtonURL = Code(rawValue: "invalidButtonURL")
    /// A carousel slide was dropped: not an object, no usable image, or past the fifth.
    public static let slideDropped = Code(rawValue: "slideDropped")
    /// `u` was not an object nor a JSON string of one; the message has no custom data.
    public static let invalidCustomData = Code(rawValue: "invalidCustomData")
    /// An optional or defaultable field was missing or malformed and was ignored or defaulted.
    public static let invalidField = Code(rawValue: "invalidField")
    /// A link or image used a scheme the host did not allow (`javascript:`, `file:`, ...; `SchemeGuard`).
    public static let unsafeScheme = Code(rawValue: "unsafeScheme")

    /// The raw code.
    public var description: String { rawValue }
  }

  /// The message the warning is about.
  public var messageId: String
  /// The kind that was asked for, once known.
  public var requestedKind: String?
  /// The kind that was rendered, once known.
  public var usedKind: String?
  /// What was wrong, in a sentence that names the field.
  public var reason: String
  /// The category.
  public var code: Code
  /// Where in the custom data the warning's value is, as JSON pointer tokens (`["buttons", "3"]`);
  /// empty when it is about no one value. Not on the wire: lint places its findings with it.
  public var field: [String]

  /// Builds a warning.
  public init(
    messageId: String, requestedKind: String? = nil, usedKind: String? = nil, reason: String, code: Code,
    field: [String] = []
  ) {
    self.messageId = messageId
    self.requestedKind = requestedKind
    self.usedKind = usedKind
    self.reason = reason
    self.code = code
    self.field = field
  }

  /// `{"messageId", "requestedKind", "usedKind", "reason", "code"}`, kinds null when unknown.
  public var json: JSONValue {
    .object([
      "messageId": .string(messageId),
      "requestedKind": requestedKind.map(JSONValue.string) ?? .null,
      "usedKind": usedKind.map(JSONValue.string) ?? .null,
      "reason": .string(reason),
      "code": .string(code.rawValue),
    ])
  }

  /// One log line: `message m1 [degraded] asked for carousel, used classic: <reason>`.
  public var description: String {
    var text = "message \(messageId) [\(code.rawValue)]"
    if let requestedKind, let usedKind {
      text += requestedKind == usedKind ? " \(usedKind)" : " asked for \(requestedKind), used \(usedKind)"
    }
    return text + ": " + reason
  }
}

/// Collects the warnings about one message while it is read or resolved.
struct Diagnostics {
  let messageId: String
  private(set) var warnings: [Warning] = []

  init(messageId: String) { self.messageId = messageId }

  /// Adds a warning; `field` says which value of the custom data it is about, when it is one.
  mutating func warn(_ code: Warning.Code, _ reason: String, at field: [String] = []) {
    warnings.append(Warning(messageId: messageId, reason: reason, code: code, field: field))
  }

  /// Fills in the kinds of every warning once the resolver has decided them.
  func stamped(requested: CardKind, used: CardKind) -> [Warning] {
    warnings.map { warning in
      var warning = warning
      warning.requestedKind = warning.requestedKind ?? requested.rawValue
      warning.usedKind = warning.usedKind ?? used.rawValue
      return warning
    }
  }
}
