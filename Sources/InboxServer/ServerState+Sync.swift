import InboxApp
import InboxStore
import InboxSync
import JSON
import JSONRPC

/// The server's side of sync and configuration: the backend settings as the host sees them, and a
/// sync's events turned into notifications.
extension ServerState {
  /// `backend` of `config.get` / `config.set`: the settings in force, never the token.
  ///
  /// `{baseUrl, effectiveBaseUrl, application, hwid, userId, deviceType, tokenSet, tokenSource,
  ///   syncInterval, minSyncInterval, lastSyncAt, pending}`
  func backendJSON(_ status: BackendStatus) -> JSONValue {
    let settings = status.settings
    return [
      "baseUrl": settings.baseURL.map { .string($0.string) } ?? .null,
      "effectiveBaseUrl": status.effectiveBaseURL.map { .string($0.string) } ?? .null,
      "application": settings.application.map(JSONValue.string) ?? .null,
      "hwid": .string(settings.hwid),
      "userId": settings.userID.map(JSONValue.string) ?? .null,
      "deviceType": .int(settings.deviceType),
      "tokenSet": .bool(status.tokenSet),
      "tokenSource": options.sync.tokenSource.map(JSONValue.string) ?? .null,
      "syncInterval": options.sync.interval.map { .int(Int64($0)) } ?? .null,
      "minSyncInterval": .int(status.minSyncInterval),
      "lastSyncAt": status.lastSyncAt.map(JSONValue.int) ?? .null,
      "pending": .int(Int64(status.pending)),
    ]
  }

  /// A `backend` patch of `config.set` or `initialize`, its mistakes reported as -32602 naming the member.
  /// A base URL must also be one libcurl reads, and may be http only to the host and port the command
  /// line or environment gave: a setting saved here is read back from the store at the next start.
  func backendPatch(_ object: JSONObject?) throws(RPCError) -> BackendSettings.Patch? {
    guard let object else { return nil }
    do {
      var patch = try BackendSettings.Patch(json: object)
      if case .some(.some(let url)) = patch.baseURL {
        guard url.trusted(clearText: options.sync.clearTextBaseURL) != nil else {
          throw RPCError.invalidParams(
            "backend.baseUrl",
            "an http URL sends the API token in clear; it is taken only from --backend-url or "
              + "INBOX_RPC_BACKEND_URL, never from a saved setting; use https")
        }
        patch.baseURL = .some(try url.checkedByLibcurl(library: options.sync.libcurl))
      }
      return patch
    } catch let error as BackendSettings.PatchError {
      throw RPCError.invalidParams(error.path, error.reason)
    } catch let error as BackendURL.Invalid {
      throw RPCError.invalidParams("backend.baseUrl", error.reason)
    } catch {
      throw RPCError(error)
    }
  }

  /// Reports a configuration change: the account change on stderr, then its effects.
  func report(_ result: ConfigResult, _ request: RequestContext) {
    if let outcome = result.accountChange {
      request.logger.info(
        "backend account changed: \(outcome.removed.count) messages cleared, \(outcome.dropped) unsendable changes dropped"
      )
    }
    report(result.effects, request)
  }

  /// Turns a sync's events into notifications: `sync.progress` (when `progress`), `feed.changed
  /// {reason: "sync"}` once the merge has committed, warnings as `log`, notes on stderr.
  func syncObserver(notify: @escaping @Sendable (String, JSONValue) -> Void, logger: Logger, progress: Bool)
    -> SyncObserver
  {
    SyncObserver(
      progress: { step in
        guard progress else { return }
        var params: JSONObject = ["stage": .string(step.stage.rawValue)]
        if let done = step.done { params["done"] = .int(Int64(done)) }
        if let total = step.total { params["total"] = .int(Int64(total)) }
        notify("sync.progress", .object(params))
      },
      changed: { change in Self.feedChanged(notify, change) },
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
