import InboxApp
import InboxStore
import JSON
import Testing

/// A request that reads a message, decides and changes it reads the message's row once: the
/// statements the store's connection runs are recorded (sqlite3_trace_v2) and counted.
struct StatementCountTests {
  func selectsOfMessages(_ test: TestInbox, _ body: () throws -> Void) throws -> [String] {
    let log = StatementLog()
    try test.store.recording(into: log, body)
    return log.statements.filter { $0.hasPrefix("SELECT") && $0.contains("FROM messages") }
  }

  @Test func aButtonTapSelectsTheMessageOnce() throws {
    let test = try TestInbox()
    for id in ["a", "b", "c", "d"] { try test.add(id, data: TestInbox.buttons) }
    for (id, index) in [("a", 0), ("b", 1), ("c", 2)] {
      let selects = try selectsOfMessages(test) { _ = try test.inbox.tapButton(id: id, index: index) }
      #expect(selects.count == 1, "button \(index): \(selects)")
    }
    let suppressed = try selectsOfMessages(test) {
      _ = try test.inbox.tapButton(id: "d", index: 1, performDefault: false)
    }
    #expect(suppressed.count == 1, "\(suppressed)")
  }

  @Test func aRowTapSelectsTheMessageOnce() throws {
    let test = try TestInbox()
    try test.add("a")
    for performDefault in [true, true, false] {
      let selects = try selectsOfMessages(test) { _ = try test.inbox.tap(id: "a", performDefault: performDefault) }
      #expect(selects.count == 1, "performDefault \(performDefault): \(selects)")
    }
  }

  @Test func aDismissalSelectsTheMessageOnce() throws {
    let test = try TestInbox()
    try test.add("a")
    for _ in 0..<2 {
      let selects = try selectsOfMessages(test) { _ = try test.inbox.dismiss(id: "a") }
      #expect(selects.count == 1, "\(selects)")
    }
  }

  @Test func theRecordingSeesEveryStatement() throws {
    let test = try TestInbox()
    try test.add("a")
    let log = StatementLog()
    _ = try test.store.recording(into: log) { try test.store.message(id: "a") }
    #expect(log.statements.count == 1 && log.statements[0].contains("FROM messages WHERE id = ?"))
  }
}
