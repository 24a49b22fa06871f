import Dispatch
import Posix

/// `PRAGMA quick_check` (or the full `integrity_check`) over a connection of its own.
enum IntegrityCheck {
  /// The problems found, as one error; nil when the file is sound.
  static func run(_ database: Database, full: Bool) throws -> StoreError? {
    var problems: [String] = []
    try database.query(full ? "PRAGMA integrity_check" : "PRAGMA quick_check") { row in
      if let line = row.text(0), line != "ok" { problems.append(line) }
    }
    guard !problems.isEmpty else { return nil }
    return StoreError(
      kind: .corrupt, message: "the store failed its integrity check: \(problems.prefix(3).joined(separator: "; "))")
  }

  /// Starts the check off the caller (a Dispatch queue), reporting to `health`: 250 ms after the start, or at
  /// once when a write waits for its verdict.
  /// Returns the connection it reads through, so a close can interrupt it.
  static func startInBackground(path: String, health: StoreHealth) throws(StoreError) -> Database {
    let database = try Database(path: path)
    let box = UncheckedBox(database)
    health.beginCheck()
    health.startCheck(after: 250) { closing in
      guard !closing else { return health.endCheck(problem: nil, completed: false) }
      var problem: StoreError?
      var completed = true
      do {
        problem = try run(box.value, full: false)
      } catch let error as StoreError where error.kind == .sqlite && error.code == 9 {
        completed = false  // SQLITE_INTERRUPT: the store is closing.
      } catch let error as StoreError {
        problem = error.kind == .corrupt ? error : nil
        completed = error.kind == .corrupt
      } catch {
        completed = false
      }
      health.endCheck(problem: problem?.asDamage, completed: completed)
    }
    return database
  }
}

/// Hands a connection to the one thread that uses it until `StoreHealth` says it is done.
private final class UncheckedBox: @unchecked Sendable {
  let value: Database
  init(_ value: Database) { self.value = value }
}
