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

  static func set(_ database: Database, _ key: String, _ value: JSONValue?) throws {
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
  /// A stored setting, nil when unset.
  public func setting(_ key: String) throws -> JSONValue? {
    try read { try Settings.get($0, key) }
  }

  /// Stores a setting (nil removes it); committed when this returns.
  public func setSetting(_ key: String, _ value: JSONValue?) throws {
    try write { try Settings.set($0, key, value) }
  }
}
