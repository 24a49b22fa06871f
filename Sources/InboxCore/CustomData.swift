import JSON

/// A message's action parameters with its custom data `u` normalised once, behind one lookup.
///
/// Marketer data (`data` of the send request) reaches the client as `u`, an object or a JSON-encoded
/// string; Android also copies it into `userdata`. InboxKit keys (`displayType`, `image`, `carousel`,
/// `video`, `wallet`, `buttons`, `pinned`) may sit in any of the three places, so every one of them is read
/// through `value(for:)` (docs/engine.md#custom-data-and-the-key-lookup), which searches in this order and
/// returns the first place that *has* the key (a key whose value is `null` counts as present and stops the
/// search):
///
/// ```
/// {"pinned": true}                          // 1. action params root
/// {"u": {"pinned": true}}                   // 2. u as an object
/// {"u": "{\"pinned\": true}"}               // 2. u as a JSON string (parsed once, here)
/// {"userdata": {"pinned": true}}            // 3. legacy userdata object
/// ```
public struct CustomData: Sendable, Hashable {
  /// The action parameters: the backend's `action_params`, or the whole push payload.
  public let root: JSONObject
  /// `u` as an object, or nil when absent or unusable.
  public let custom: JSONObject?
  /// The legacy `userdata` object, or nil when absent or not an object.
  public let userdata: JSONObject?
  /// Why `u` was unusable (not an object nor a JSON string of one); nil when it was fine or absent.
  public let customIssue: String?

  /// Normalises `u` and `userdata` of `actionParams`; an unusable `u` adds an `invalidCustomData` warning.
  init(actionParams: JSONObject, diagnostics: inout Diagnostics) {
    root = actionParams
    switch Lenient.object(actionParams["u"], name: "custom data u") {
    case .absent:
      custom = nil
      customIssue = nil
    case .object(let object):
      custom = object
      customIssue = nil
    case .invalid(let reason):
      custom = nil
      customIssue = reason
      diagnostics.warn(.invalidCustomData, reason + "; the message has no custom data")
    }
    userdata = actionParams["userdata"]?.objectValue
  }

  /// The value of an InboxKit key: action params root, then `u`, then `userdata`; nil when none has it.
  public func value(for key: String) -> JSONValue? {
    if let value = root[key] { return value }
    if let value = custom?[key] { return value }
    return userdata?[key]
  }

  /// The custom data a host sees (the Card's `customData`): `u`, else `userdata`, else nil.
  public var object: JSONObject? { custom ?? userdata }
}
