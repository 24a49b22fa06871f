import Testing

@testable import InboxStore

/// How the statement cache tells statements apart: a literal and a text kept once by address, a
/// text made per run by what it says.
struct SQLTests {
  private func withDatabase(_ body: (Database) throws -> Void) throws {
    let database = try Database(path: ":memory:")
    defer { try? database.close() }
    try body(database)
  }

  private static func literal() -> SQL { "SELECT 1 + ?" }

  @Test func aLiteralIsPreparedOnce() throws {
    try withDatabase { database in
      let first = try database.statement(Self.literal())
      let again = try database.statement(Self.literal())
      #expect(first === again)
      #expect(try database.scalar(Self.literal(), [.int(41)]) == 42)
      #expect(Self.literal().text == "SELECT 1 + ?")
    }
  }

  @Test func aTextMadePerRunIsFoundByWhatItSays() throws {
    try withDatabase { database in
      let operand = 2
      let first = try database.statement(SQL("SELECT \(operand) * ?"))
      let again = try database.statement(SQL("SELECT " + String(operand) + " * ?"))
      let other = try database.statement(SQL("SELECT 3 * ?"))
      #expect(first === again)
      #expect(other !== first)
      #expect(try database.scalar(SQL("SELECT \(operand) * ?"), [.int(21)]) == 42)
    }
  }

  @Test func aTextKeptOnceIsFoundByIdentity() throws {
    try withDatabase { database in
      let kept = SQL(once: "SELECT \(40) + ?")
      let twin = SQL(once: "SELECT \(40) + ?")
      #expect(kept == kept && kept != twin)
      #expect(kept != SQL("SELECT 40 + ?"))
      let first = try database.statement(kept)
      let again = try database.statement(kept)
      let ofTwin = try database.statement(twin)
      #expect(first === again)
      #expect(ofTwin !== first)
      #expect(try database.scalar(kept, [.int(2)]) == 42)
      #expect(kept.text == "SELECT 40 + ?")
    }
  }
}
