// One in-memory store for the whole fuzzing run, brought back to its first state after an input
// that may have changed it. Opening a store (creating its tables) costs some 6 ms under ASan, forty
// times what a typical input costs; emptying it costs a few statements.

import InboxServer
import InboxStore
import InboxSync
import JSON

final class PristineStore: Sendable {
  /// Every setting a server writes: the store id stays, these go back to what they were.
  private static let settingKeys = [
    "attributes", Synchronizer.settingsKey, Synchronizer.rotatedBaseURLKey, Synchronizer.lastFetchKey,
  ]

  let store: InboxStore
  private let pristine: [(String, JSONValue?)]

  /// Opens the store and lets a first server write what it writes on start (the device id).
  init(options: ServerOptions) throws {
    let store = try InboxStore.openInMemory()
    _ = try InboxServer.registry(options: options, store: store)
    pristine = try Self.settingKeys.map { ($0, try store.setting($0)) }
    self.store = store
  }

  /// Empties the messages and the outbox and restores the settings, when an input changed any of them.
  func reset() throws {
    guard try !isPristine() else { return }
    for entry in try store.outbox() { try store.confirm(entry) }
    try store.syncTransaction { transaction in
      for message in try transaction.messages() { try transaction.delete(id: message.id) }
    }
    try store.setSettings(pristine)
  }

  private func isPristine() throws -> Bool {
    guard try store.isEmpty(), try store.pendingCount() == 0 else { return false }
    for (key, value) in pristine where try store.setting(key) != value { return false }
    return true
  }
}
