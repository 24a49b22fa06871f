import InboxCore
import InboxStore
import InboxSync
import JSON
import JSONRPC
import Synchronization

/// What the methods share: the store, the clock, the attributes in force, the warnings said, the sync.
final class ServerState: Sendable {
  let options: ServerOptions
  let store: InboxStore
  let clock: ServerClock
  let warnings = WarningLog()
  let sync: Synchronizer
  /// What applying the start-up backend settings did (an account change clears the inbox).
  let startupOutcome: Synchronizer.ConfigureOutcome?
  private let attributesInForce: Mutex<Attributes>

  static let attributesKey = "attributes"

  /// Opens the server's state; the backend settings given at start-up are applied (and saved) here,
  /// so a change of application or user id clears the inbox before the first request.
  init(options: ServerOptions, store: InboxStore, backend: (any Backend)? = nil) throws {
    self.options = options
    self.store = store
    let clock = ServerClock()
    self.clock = clock
    let saved = try store.setting(Self.attributesKey).map { try Attributes(json: $0) } ?? Attributes()
    attributesInForce = Mutex(saved)
    clock.pin(options.pinnedClock)
    var syncOptions = Synchronizer.Options(token: options.sync.token)
    syncOptions.minFetchInterval = options.sync.minFetchInterval
    syncOptions.version = ServerInfo.version
    let transport =
      backend
      ?? HTTPBackend(
        connectTimeout: 10, timeout: options.sync.timeout, userAgent: "\(ServerInfo.name)/\(ServerInfo.version)",
        caFile: options.sync.caFile, proxy: options.sync.proxy,
        library: options.sync.libcurl)
    sync = try Synchronizer(store: store, backend: transport, options: syncOptions, clock: { clock.now })
    startupOutcome = options.sync.backend.isEmpty ? nil : try sync.configure(options.sync.backend)
  }

  var attributes: Attributes { attributesInForce.withLock { $0 } }

  /// Applies `partial` to the attributes in force; `persist` also saves the result with the store.
  func applyAttributes(_ partial: JSONValue, persist: Bool) throws -> Attributes {
    let updated = try attributesInForce.withLock { attributes in
      attributes = try attributes.applying(partial)
      return attributes
    }
    if persist {
      let saved = try store.setting(Self.attributesKey).map { try Attributes(json: $0) } ?? Attributes()
      try store.setSetting(Self.attributesKey, try saved.applying(partial).json)
    }
    return updated
  }

  // MARK: - Cards

  /// The card for a stored message, under the attributes in force; its warnings are reported once.
  func card(_ stored: StoredMessage, _ request: RequestContext) throws -> Card {
    let message = try stored.message()
    let (card, warnings) = Resolver.resolve(message, attributes: attributes, state: stored.localState)
    self.warnings.report(warnings, request)
    return card
  }

  /// The visible message with this id, or -32001.
  func visibleMessage(_ id: String) throws -> StoredMessage {
    guard let stored = try store.visibleMessage(id: id, now: clock.now) else { throw RPCError.messageNotFound(id) }
    return stored
  }

  /// Removes expired messages before a read, and tells the host which left.
  func purgeExpired(_ request: RequestContext) throws {
    let removed = try store.purgeExpired(now: clock.now)
    if !removed.isEmpty { feedChanged(request, reason: "expired", removed: removed) }
  }

  /// `feed.changed {reason, added?, updated?, removed?}`, sent after the change has committed.
  func feedChanged(
    _ request: RequestContext, reason: String, added: [String] = [], updated: [String] = [], removed: [String] = []
  ) {
    Self.feedChanged(request.notify, reason: reason, added: added, updated: updated, removed: removed)
  }

  /// `feed.changed` through any notifier (the background sync has no request).
  static func feedChanged(
    _ notify: (String, JSONValue) -> Void, reason: String, added: [String] = [], updated: [String] = [],
    removed: [String] = []
  ) {
    var params: JSONObject = ["reason": .string(reason)]
    if !added.isEmpty { params["added"] = .array(added.map(JSONValue.string)) }
    if !updated.isEmpty { params["updated"] = .array(updated.map(JSONValue.string)) }
    if !removed.isEmpty { params["removed"] = .array(removed.map(JSONValue.string)) }
    notify("feed.changed", .object(params))
  }
}

extension Attributes {
  /// `merging(_:)` with a mistake reported as -32602 naming the attribute.
  func applying(_ partial: JSONValue) throws(RPCError) -> Attributes {
    do {
      return try merging(partial)
    } catch {
      throw RPCError.invalidParams(error.path, error.reason)
    }
  }
}
