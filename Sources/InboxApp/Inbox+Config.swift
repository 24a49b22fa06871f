import InboxCore
import InboxStore
import InboxSync
import JSON

/// The backend settings in force as a host may see them (never the token).
public struct BackendStatus: Sendable, Hashable {
  public var settings: BackendSettings
  /// Where the next call goes: the base URL the backend named, else the configured one.
  public var effectiveBaseURL: BackendURL?
  public var tokenSet: Bool
  public var minSyncInterval: Int64
  public var lastSyncAt: Int64?
  /// Status changes queued for the backend, every account's.
  public var pending: Int
  /// Where the token came from (`environment` or `file`), nil when none is set.
  public var tokenSource: String?
  /// Seconds between background syncs; nil: no background sync.
  public var syncInterval: Int?
}

/// How long attributes given to `configure` last.
public enum AttributesScope: Sendable, Hashable {
  /// This inbox object only (a session's `initialize`).
  case session
  /// Saved with the store, for every later session too.
  case saved
}

/// The configuration in force after a change, and what the change did.
public struct ConfigResult: Sendable {
  public var attributes: Attributes
  public var backend: BackendStatus
  /// Set when the backend account changed: the inbox was cleared.
  public var accountChange: Synchronizer.ConfigureOutcome?
  public var effects: Effects
}

extension Inbox {
  /// The backend settings in force.
  public func backendStatus() throws -> BackendStatus {
    BackendStatus(
      settings: sync.settings, effectiveBaseURL: sync.effectiveBaseURL, tokenSet: sync.options.token != nil,
      minSyncInterval: sync.options.minFetchInterval, lastSyncAt: try sync.lastFetchAt(),
      pending: try store.pendingCount(), tokenSource: options.sync.tokenSource, syncInterval: options.sync.interval)
  }

  /// Merges `attributes` over those in force (for `scope`) and applies a backend `patch` (always
  /// saved: the store must remember which account its messages belong to). Bad attributes change
  /// nothing. A change of application or user id clears the inbox (`FeedChange(.config, removed:)`).
  /// Saved attribute changes, and a call that changes nothing, report `FeedChange(.config)`.
  public func configure(
    attributes partial: JSONValue? = nil, backend patch: BackendSettings.Patch? = nil,
    scope: AttributesScope = .saved
  ) throws -> ConfigResult {
    _ = try attributes(merging: partial)
    var effects = Effects()
    var accountChange: Synchronizer.ConfigureOutcome?
    if let patch {
      let outcome = try sync.configure(try options.sync.trusted(patch))
      if outcome.accountChanged {
        accountChange = outcome
        effects.record(FeedChange(.config, removed: outcome.removed))
      }
    }
    let attributes = try applyAttributes(partial ?? .object([:]), persist: scope == .saved)
    if scope == .saved && (partial != nil || patch == nil) { effects.record(FeedChange(.config)) }
    return ConfigResult(
      attributes: attributes, backend: try backendStatus(), accountChange: accountChange, effects: effects)
  }
}
