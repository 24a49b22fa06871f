import InboxCore
import InboxStore
import InboxSync
import JSON
import Posix
import Synchronization

/// The inbox as a host uses it: one function per use case, in the engine's terms. Each reads what
/// it needs once, resolves once, writes in one transaction (committed when it returns), and returns
/// the cards it changed with the feed changes and warnings it caused, for the front (RPC, MCP, a
/// test) to report as it sees fit.
///
/// Errors: `InboxError` for the inbox's own refusals; `IngestError`, `StoreError` and `SyncFailure`
/// from the layers below, unchanged.
public final class Inbox: Sendable {
  let store: InboxStore
  let sync: Synchronizer
  public let clock: InboxClock
  /// What the inbox was opened with (`Inbox.open`); defaults for one made directly.
  let options: InboxOptions
  let cache = CardCache()
  let passes: WalletPasses
  /// Writes waiting for the store's write lock (`attemptWrite`'s `.busy`).
  public var lockWaits: StoreLockWaits { store.lockWaits }
  private let attributesInForce: Mutex<Attributes>

  /// The settings key the attributes saved with the store live under.
  public static let attributesKey = "attributes"

  /// An inbox on `store`, syncing through `sync`, with the attributes saved with the store in force.
  public init(store: InboxStore, sync: Synchronizer, clock: InboxClock, options: InboxOptions = InboxOptions()) throws {
    self.options = options
    self.store = store
    self.sync = sync
    self.clock = clock
    passes = WalletPasses(options: options)
    attributesInForce = Mutex(
      try store.settingAtStart(Self.attributesKey).map { try Attributes(json: $0) } ?? Attributes())
  }

  /// Begins a write job (`InboxStore.beginWriteJob`): nil when it cannot start (`busyWrite`).
  public func beginWriteJob() -> WriteJob? { store.beginWriteJob() }

  /// What a write job that could not start comes to (`InboxStore.busyWrite`).
  public func busyWrite<T>() -> WriteAttempt<T> { store.busyWrite() }

  /// `body`, a use case that writes, as one write job: done, or busy having done nothing
  /// (`InboxStore.attemptWrite`).
  public func attemptWrite<T>(repeatable: Bool = false, _ body: () throws -> T) -> WriteAttempt<T> {
    store.attemptWrite(repeatable: repeatable, body)
  }

  /// The largest payload a message may have: larger ones are not stored, nor shown in a page.
  public var messageLimit: MessageSizeLimit { options.messageLimit }

  /// The attributes in force: those saved with the store, then this session's changes.
  public var attributes: Attributes { attributesInForce.withLock { $0 } }

  /// The attributes in force with `partial` merged over them, without applying it.
  public func attributes(merging partial: JSONValue?) throws(InboxError) -> Attributes {
    guard let partial else { return attributes }
    return try attributes.applying(partial)
  }

  /// Merges `partial` over the attributes in force; `persist` also saves it with the store.
  func applyAttributes(_ partial: JSONValue, persist: Bool) throws -> Attributes {
    let updated = try attributesInForce.withLock { attributes throws(InboxError) in
      attributes = try attributes.applying(partial)
      return attributes
    }
    if persist { try store.setSetting(Self.attributesKey, try Self.savedAttributes(store).applying(partial).json) }
    return updated
  }

  private static func savedAttributes(_ store: InboxStore) throws -> Attributes {
    try store.setting(attributesKey).map { try Attributes(json: $0) } ?? Attributes()
  }

  // MARK: - Reading

  /// The card for a stored message under `attributes` (default: those in force).
  func card(_ stored: StoredMessage, _ effects: inout Effects, attributes: Attributes? = nil) throws -> Card {
    try resolved(stored, &effects, attributes: attributes).card
  }

  /// The card with its wire shape, both kept by the cache.
  func resolved(_ stored: StoredMessage, _ effects: inout Effects, attributes: Attributes? = nil) throws
    -> CardCache.Found
  {
    let found = try cache.card(stored, attributes: attributes ?? self.attributes)
    // Most cards have no warning: a page appends nothing for them.
    if !found.warnings.isEmpty { effects.warnings += found.warnings }
    return found
  }

  /// The visible message with this id.
  func visibleMessage(_ id: String, now: Int64) throws -> StoredMessage {
    guard let stored = try store.visibleMessage(id: id, now: now) else { throw InboxError.messageNotFound(id: id) }
    return stored
  }

  /// Removes expired messages before a read, recording which left.
  func purgeExpired(now: Int64, _ effects: inout Effects) throws {
    effects.record(FeedChange(.expired, removed: try store.purgeExpired(now: now)))
  }
}

extension Attributes {
  /// `merging(_:)` with a mistake reported as an invalid argument naming the attribute.
  func applying(_ partial: JSONValue) throws(InboxError) -> Attributes {
    do {
      return try merging(partial)
    } catch {
      throw .invalidArgument(argument: error.path, reason: error.reason)
    }
  }
}
