import Dispatch
import InboxStore
import JSON
import Synchronization

/// The backend account settings in force, saved with the store: who the inbox syncs as and where
/// its calls go, including a `base_url` the backend named. A change of account bumps the
/// generation, so a sync run under the old one discards what it fetched.
final class SyncAccount: Sendable {
  private struct State: Sendable {
    var settings: BackendSettings
    /// The `base_url` the backend asked for, used until the base URL or the application changes.
    var rotatedBaseURL: BackendURL?
  }

  private let store: InboxStore
  private let state: Mutex<State>
  private let generationCounter = Atomic<Int>(0)
  /// Serialises configuration changes (never taken by a sync, so a change never waits for the network).
  /// Set while settings are being changed: another change at once is refused having done nothing
  /// (`busy`). Changes are write jobs, which hold the store's writer, so only a change made outside
  /// one (a test) can meet another.
  private let configuring = Atomic<Bool>(false)

  /// Loads the saved settings, generating and saving the hwid on first use. A saved http URL is
  /// dropped unless it goes where `clearText`, the one this run was given, goes (`BackendURL.trusted`).
  init(store: InboxStore, clearText: BackendURL?) throws {
    self.store = store
    let saved = try store.settingAtStart(Synchronizer.settingsKey)
    var settings = BackendSettings(json: saved)
    settings.baseURL = settings.baseURL?.trusted(clearText: clearText)
    if saved?["hwid"]?.stringValue == nil { try store.setSetting(Synchronizer.settingsKey, settings.json) }
    let rotated = try store.settingAtStart(Synchronizer.rotatedBaseURLKey)?.stringValue
      .flatMap { try? BackendURL($0) }?.trusted(clearText: clearText)
    state = Mutex(State(settings: settings, rotatedBaseURL: rotated))
  }

  var settings: BackendSettings { state.withLock { $0.settings } }

  var generation: Int { generationCounter.load(ordering: .sequentiallyConsistent) }

  /// The settings and the base URL the backend named, read together.
  var current: (settings: BackendSettings, rotated: BackendURL?) {
    state.withLock { ($0.settings, $0.rotatedBaseURL) }
  }

  var effectiveBaseURL: BackendURL? {
    let (settings, rotated) = current
    return rotated ?? (try? settings.configuredBaseURL())
  }

  /// Applies `patch` and saves the result. A change of application or user id (from a configured
  /// application) clears the local inbox, as the SDKs do, and keeps the old account's queued changes,
  /// which are still sent as that account (`retireAccount`). A change of base URL or application
  /// forgets a `base_url` the backend had named.
  func configure(_ patch: BackendSettings.Patch, now: Int64) throws -> Synchronizer.ConfigureOutcome {
    guard configuring.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
    else { throw StoreError(kind: .busy, message: "another change of the backend settings is in progress") }
    defer { configuring.store(false, ordering: .sequentiallyConsistent) }
    let (old, oldRotated) = current
    let new = old.applying(patch)
    var outcome = Synchronizer.ConfigureOutcome(settings: new)
    guard new != old else { return outcome }
    var writes: [(String, JSONValue?)] = [(Synchronizer.settingsKey, new.json)]
    let forgetRotation = new.baseURL != old.baseURL || new.application != old.application
    if forgetRotation { writes.append((Synchronizer.rotatedBaseURLKey, nil)) }
    if old.application != nil, new.identity != old.identity {
      generationCounter.add(1, ordering: .sequentiallyConsistent)
      writes.append((Synchronizer.lastFetchKey, nil))
      let oldURL = oldRotated ?? (try? old.configuredBaseURL())
      let (removed, dropped) = try store.retireAccount(
        as: Self.describe(old, baseURL: oldURL).jsonString, settings: writes, now: now)
      outcome.accountChanged = true
      outcome.removed = removed
      outcome.dropped = dropped
    } else {
      try store.setSettings(writes)
    }
    state.withLock {
      $0.settings = new
      if forgetRotation { $0.rotatedBaseURL = nil }
    }
    return outcome
  }

  /// Persists a `base_url` the backend named for `account`, when it is a URL we may use (https, or
  /// http to loopback) and the account is still the one in force; says what it did through `log`.
  /// Throws only a write that could not start (busy, within a write job): the caller saves it again
  /// later.
  func honourBaseURL(_ text: String?, account: Account, generation expected: Int, log: (String) -> Void) throws {
    guard let text, !text.isEmpty else { return }
    let url: BackendURL
    do {
      url = try BackendURL(text)
    } catch {
      log("ignoring the base_url the backend sent: \(error.reason)")
      return
    }
    guard url != account.baseURL else { return }
    // A base_url named for an account that has since been replaced is not the new account's.
    guard generation == expected else { return }
    do {
      try store.setSetting(Synchronizer.rotatedBaseURLKey, .string(url.string))
      state.withLock { $0.rotatedBaseURL = url }
      log("the backend moved this inbox to \(url.string)")
    } catch let error as StoreError {
      log("cannot save the base_url the backend sent: \(error)")
    }
  }

  /// The account a retired outbox row belongs to, as stored in `outbox.account`.
  static func describe(_ settings: BackendSettings, baseURL: BackendURL?) -> JSONValue {
    var json = settings.json.objectValue ?? [:]
    json["baseUrl"] = baseURL.map { .string($0.string) } ?? .null
    return .object(json)
  }
}
