import JSON

/// The URIs of the inbox's resources.
enum ResourceURI {
  static let feed = "inbox://feed"
  static let counts = "inbox://counts"
  static let contract = "inbox://schemas/openrpc.json"
  static let messagePrefix = "inbox://message/"
  static let messageTemplate = "inbox://message/{id}"
  static let changes = "inbox://changes"
  static let changesTemplate = "inbox://changes{?since,limit}"

  static func message(_ id: String) -> String { messagePrefix + PercentEncoding.encode(id) }

  /// The message id a `inbox://message/{id}` URI names.
  static func messageID(_ uri: String) -> String? {
    guard uri.hasPrefix(messagePrefix) else { return nil }
    let id = PercentEncoding.decode(uri.dropFirst(messagePrefix.count))
    return id?.isEmpty == false ? id : nil
  }

  /// The one form of `uri` notifications are sent for: a message URI with its id encoded as
  /// `message(_:)` encodes it (`inbox://message/%77elcome` is `inbox://message/welcome`).
  static func canonical(_ uri: String) -> String { messageID(uri).map(message) ?? uri }

  /// The query of an `inbox://changes{?since,limit}` URI as `feed.changes` params (a `limit` of
  /// digits as a number); nil when `uri` is no changes URI or its query is not `name=value` pairs,
  /// each named once, percent-encoded. The params are the contract's to check.
  static func changesParams(_ uri: String) -> JSONObject? {
    guard uri.hasPrefix(changes) else { return nil }
    let rest = uri.dropFirst(changes.count)
    guard !rest.isEmpty else { return [:] }
    guard rest.first == "?" else { return nil }
    var params = JSONObject()
    for pair in rest.dropFirst().split(separator: "&", omittingEmptySubsequences: false) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, let name = PercentEncoding.decode(parts[0]), let value = PercentEncoding.decode(parts[1]),
        params[name] == nil
      else { return nil }
      params[name] = name == "limit" ? Int64(value).map(JSONValue.int) ?? .string(value) : .string(value)
    }
    return params
  }

  static func isKnown(_ uri: String) -> Bool {
    uri == feed || uri == counts || uri == contract || messageID(uri) != nil
  }
}
