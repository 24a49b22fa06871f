import InboxApp
import InboxCore
import InboxStore
import InboxSync
import JSON
import JSONRPC

/// What the methods share: the inbox they adapt, the server's options, and the warnings said.
final class ServerState: Sendable {
  let options: ServerOptions
  let inbox: Inbox
  let warnings = WarningLog()
  /// What applying the start-up backend settings did (an account change clears the inbox).
  let startupOutcome: Synchronizer.ConfigureOutcome?

  /// Opens the server's state; the backend settings given at start-up are applied (and saved) here,
  /// so a change of application or user id clears the inbox before the first request.
  init(options: ServerOptions, store: InboxStore, backend: (any Backend)? = nil) throws {
    self.options = options
    let clock = InboxClock(pinned: options.pinnedClock)
    var syncOptions = Synchronizer.Options(token: options.sync.token)
    syncOptions.minFetchInterval = options.sync.minFetchInterval
    syncOptions.version = ServerInfo.version
    syncOptions.messageLimit = options.messageLimit
    let transport =
      backend
      ?? HTTPBackend(
        connectTimeout: 10, timeout: options.sync.timeout, userAgent: "\(ServerInfo.name)/\(ServerInfo.version)",
        caFile: options.sync.caFile, proxy: options.sync.proxy,
        library: options.sync.libcurl, maxReplyBytes: options.sync.maxReplyBytes)
    let sync = try Synchronizer(store: store, backend: transport, options: syncOptions, clock: { clock.now })
    inbox = try Inbox(store: store, sync: sync, clock: clock, messageLimit: options.messageLimit)
    startupOutcome = options.sync.backend.isEmpty ? nil : try sync.configure(options.sync.backend)
  }

  /// Tells the host what a use case did: its warnings (once each) and its feed changes.
  func report(_ effects: Effects, _ request: RequestContext) {
    warnings.report(effects.warnings, request)
    for change in effects.changes { Self.feedChanged(request.notify, change) }
  }

  /// `feed.changed {reason, added?, updated?, removed?}`, sent after the change has committed.
  static func feedChanged(_ notify: (String, JSONValue) -> Void, _ change: FeedChange) {
    var params: JSONObject = ["reason": .string(change.reason.rawValue)]
    if !change.added.isEmpty { params["added"] = .array(change.added.map(JSONValue.string)) }
    if !change.updated.isEmpty { params["updated"] = .array(change.updated.map(JSONValue.string)) }
    if !change.removed.isEmpty { params["removed"] = .array(change.removed.map(JSONValue.string)) }
    notify("feed.changed", .object(params))
  }
}
