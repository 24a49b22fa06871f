import InboxApp
import InboxSync
import JSON
import JSONRPC

/// The sync and configuration values as the contract writes them.
extension BackendStatus {
  /// `backend` of `config.get` / `config.set`: the settings in force, never the token.
  ///
  /// `{baseUrl, effectiveBaseUrl, application, hwid, userId, deviceType, tokenSet, tokenSource,
  ///   syncInterval, minSyncInterval, lastSyncAt, pending}`
  public var json: JSONValue {
    [
      "baseUrl": settings.baseURL.map { .string($0.string) } ?? .null,
      "effectiveBaseUrl": effectiveBaseURL.map { .string($0.string) } ?? .null,
      "application": settings.application.map(JSONValue.string) ?? .null,
      "hwid": .string(settings.hwid),
      "userId": settings.userID.map(JSONValue.string) ?? .null,
      "deviceType": .int(settings.deviceType),
      "tokenSet": .bool(tokenSet),
      "tokenSource": tokenSource.map(JSONValue.string) ?? .null,
      "syncInterval": syncInterval.map { .int(Int64($0)) } ?? .null,
      "minSyncInterval": .int(minSyncInterval),
      "lastSyncAt": lastSyncAt.map(JSONValue.int) ?? .null,
      "pending": .int(Int64(pending)),
    ]
  }
}

extension BackendSettings.Patch {
  /// A `backend` param of `config.set` or `initialize`, its mistakes -32602 naming the member.
  init?(param object: JSONObject?) throws(RPCError) {
    guard let object else { return nil }
    do {
      try self.init(json: object)
    } catch {
      throw RPCError.invalidParams(error.path, error.reason)
    }
  }

  /// The patch as a host writes it: a member cleared is `null`.
  var json: JSONObject {
    var out: JSONObject = [:]
    func set(_ key: String, _ value: String??) {
      if let value { out[key] = value.map(JSONValue.string) ?? .null }
    }
    if let baseURL { out["baseUrl"] = baseURL.map { .string($0.string) } ?? .null }
    set("application", application)
    set("hwid", hwid)
    set("userId", userID)
    if let deviceType { out["deviceType"] = deviceType.map(JSONValue.int) ?? .null }
    return out
  }
}

extension SyncReport {
  /// The `feed.sync` result: `{added, updated, removed, expired, pushed, pending, failed, throttled,
  /// pushError?}`, counts as integers.
  public var json: JSONValue {
    var object: JSONObject = [
      "added": .int(Int64(added.count)), "updated": .int(Int64(updated.count)),
      "removed": .int(Int64(removed.count)), "expired": .int(Int64(expired.count)), "pushed": .int(Int64(pushed)),
      "pending": .int(Int64(pending)), "failed": .int(Int64(failed)), "throttled": .bool(throttled),
    ]
    if let pushError { object["pushError"] = pushError.rpcError.json }
    return .object(object)
  }
}

extension SyncProgress {
  /// `sync.progress {stage, done?, total?}`.
  public var json: JSONValue {
    var params: JSONObject = ["stage": .string(stage.rawValue)]
    if let done { params["done"] = .int(Int64(done)) }
    if let total { params["total"] = .int(Int64(total)) }
    return .object(params)
  }
}

extension FeedChange {
  /// `feed.changed {reason, added?, updated?, removed?, counts?}`.
  public var json: JSONValue {
    var params: JSONObject = ["reason": .string(reason.rawValue)]
    if !added.isEmpty { params["added"] = .array(added.map(JSONValue.string)) }
    if !updated.isEmpty { params["updated"] = .array(updated.map(JSONValue.string)) }
    if !removed.isEmpty { params["removed"] = .array(removed.map(JSONValue.string)) }
    if let counts { params["counts"] = counts.json }
    return .object(params)
  }
}
