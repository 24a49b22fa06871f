import InboxStore
import InboxSync
import JSON
import JSONRPC

/// The server's side of sync: configuration as the host sees it, and a sync's events turned into
/// notifications.
extension ServerState {
  /// `backend` of `config.get` / `config.set`: the settings in force, never the token.
  ///
  /// `{baseUrl, effectiveBaseUrl, application, hwid, userId, deviceType, tokenSet, tokenSource,
  ///   syncInterval, minSyncInterval, lastSyncAt, pending}`
  func backendJSON() throws -> JSONValue {
    let settings = sync.settings
    return [
      "baseUrl": settings.baseURL.map { .string($0.string) } ?? .null,
      "effectiveBaseUrl": sync.effectiveBaseURL.map { .string($0.string) } ?? .null,
      "application": settings.application.map(JSONValue.string) ?? .null,
      "hwid": .string(settings.hwid),
      "userId": settings.userID.map(JSONValue.string) ?? .null,
      "deviceType": .int(settings.deviceType),
      "tokenSet": .bool(options.sync.token != nil),
      "tokenSource": options.sync.tokenSource.map(JSONValue.string) ?? .null,
      "syncInterval": options.sync.interval.map { .int(Int64($0)) } ?? .null,
      "minSyncInterval": .int(options.sync.minFetchInterval),
      "lastSyncAt": try sync.lastFetchAt().map(JSONValue.int) ?? .null,
      "pending": .int(Int64(try store.pendingCount())),
    ]
  }

  /// Applies a `backend` patch from `config.set` or `initialize` (saved with the store). A change of
  /// application or user id clears the inbox: the host hears `feed.changed {reason: "config", removed}`.
  func configureBackend(_ patch: JSONObject, _ request: RequestContext) throws {
    let parsed: BackendSettings.Patch
    do {
      parsed = try BackendSettings.Patch(json: patch)
    } catch {
      throw RPCError.invalidParams(error.path, error.reason)
    }
    let outcome = try sync.configure(parsed)
    if outcome.accountChanged {
      request.logger.info(
        "backend account changed: \(outcome.removed.count) messages cleared, \(outcome.dropped) unsendable changes dropped"
      )
      feedChanged(request, reason: "config", removed: outcome.removed)
    }
  }

  /// Turns a sync's events into notifications: `sync.progress` (when `progress`), `feed.changed
  /// {reason: "sync"}` once the merge has committed, warnings as `log`, notes on stderr.
  func syncEvents(
    notify: @escaping @Sendable (String, JSONValue) -> Void, logger: Logger, progress: Bool
  ) -> Synchronizer.Events {
    Synchronizer.Events(
      progress: { step in
        guard progress else { return }
        var params: JSONObject = ["stage": .string(step.stage.rawValue)]
        if let done = step.done { params["done"] = .int(Int64(done)) }
        if let total = step.total { params["total"] = .int(Int64(total)) }
        notify("sync.progress", .object(params))
      },
      merged: { plan in
        guard !(plan.added.isEmpty && plan.updated.isEmpty && plan.removed.isEmpty && plan.expired.isEmpty) else {
          return
        }
        Self.feedChanged(
          notify, reason: "sync", added: plan.added, updated: plan.updated, removed: plan.removed + plan.expired)
      },
      warnings: { [warnings] found in warnings.report(found, logger: logger, notify: notify) },
      log: { note in logger.info("sync: \(note)") })
  }
}

extension SyncReport {
  /// The `feed.sync` result: `{added, updated, removed, expired, pushed, pending, failed, throttled,
  /// pushError?}`, counts as integers.
  var json: JSONValue {
    var object: JSONObject = [
      "added": .int(Int64(added.count)), "updated": .int(Int64(updated.count)),
      "removed": .int(Int64(removed.count)), "expired": .int(Int64(expired.count)), "pushed": .int(Int64(pushed)),
      "pending": .int(Int64(pending)), "failed": .int(Int64(failed)), "throttled": .bool(throttled),
    ]
    if let pushError { object["pushError"] = pushError.rpcError.json }
    return .object(object)
  }
}
