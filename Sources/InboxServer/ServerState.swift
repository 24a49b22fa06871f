import JSON
import Synchronization

/// What the methods share: the feed-wide attributes in force and the server's own options.
final class ServerState: Sendable {
  let options: ServerOptions
  private let attributesInForce: Mutex<JSONObject>

  init(options: ServerOptions) {
    self.options = options
    attributesInForce = Mutex(options.attributes)
  }

  var attributes: JSONObject { attributesInForce.withLock { $0 } }

  func update(_ change: (inout JSONObject) throws -> Void) rethrows -> JSONObject {
    try attributesInForce.withLock { attributes in
      try change(&attributes)
      return attributes
    }
  }
}
