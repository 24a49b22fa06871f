import JSON

/// The URIs of the inbox's resources.
enum ResourceURI {
  static let feed = "inbox://feed"
  static let counts = "inbox://counts"
  static let contract = "inbox://schemas/openrpc.json"
  static let messagePrefix = "inbox://message/"
  static let messageTemplate = "inbox://message/{id}"

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

  static func isKnown(_ uri: String) -> Bool {
    uri == feed || uri == counts || uri == contract || messageID(uri) != nil
  }
}
