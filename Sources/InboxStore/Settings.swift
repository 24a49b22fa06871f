import JSON
import Posix

/// Small named values kept with the store: attributes, the store id, the backend's base URL.
enum Settings {
  static let storeIDKey = "store.id"

  static func get(_ database: Database, _ key: String) throws -> JSONValue? {
    var found: String?
    try database.query("SELECT value FROM settings WHERE key = ?", [.text(key)]) { found = $0.text(0) }
    return try found.map { try JSONValue.parse($0, options: JSONReadOptions(maxDepth: 64)) }
  }

  /// Every setting, by key (read once at open: a few short rows).
  static func all(_ database: Database) throws -> [String: JSONValue] {
    var all: [String: JSONValue] = [:]
    try database.query("SELECT key, value FROM settings") { row in
      if let key = row.text(0), let text = row.text(1),
        let value = try? JSONValue.parse(text, options: JSONReadOptions(maxDepth: 64))
      {
        all[key] = value
      }
    }
    return all
  }

  static func set(_ database: Database, _ key: String, _ value: JSONValue?) throws {
    database.settingsWritten[key] = .some(value)
    if let value {
      try database.run(
        "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [.text(key), .text(value.jsonString)])
    } else {
      try database.run("DELETE FROM settings WHERE key = ?", [.text(key)])
    }
  }

  /// The store's id, made on first use; read again under the write lock, so two processes creating
  /// one store agree on it.
  static func storeID(_ database: Database) throws -> String {
    if let id = try get(database, storeIDKey)?.stringValue { return id }
    return try database.transaction {
      if let id = try get(database, storeIDKey)?.stringValue { return id }
      let id = randomHex(bytes: 8)
      try set(database, storeIDKey, .string(id))
      return id
    }
  }
}

extension InboxStore {
  /// A setting, for what a server reads once as it starts: as the writing connection read it with
  /// the schema at the open (with this store's own settings written since), while no read has
  /// opened the reading connection (a start then opens none for it), else as `setting` reads it.
  /// Another process's change made meanwhile is not seen: read it with `setting`.
  public func settingAtStart(_ key: String) throws -> JSONValue? {
    if let opening = settingsAtOpen.withLock({ $0 }) { return opening[key] }
    return try setting(key)
  }

  /// A stored setting, nil when unset.
  public func setting(_ key: String) throws -> JSONValue? {
    try read { try Settings.get($0, key) }
  }

  /// Stores a setting (nil removes it); committed when this returns.
  public func setSetting(_ key: String, _ value: JSONValue?) throws {
    try write { try Settings.set($0, key, value) }
  }
}
