import Dispatch
import Synchronization
import Testing

@testable import InboxStore

/// Reads never wait for each other: each takes a reading connection of its own, and the
/// connections are kept for the next reads rather than opened each time.
struct ReaderPoolTests {
  @Test func aReadIsAnsweredWhileAnotherHoldsItsConnection() throws {
    let fixture = try TemporaryStore()
    let store = fixture.store
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let first = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = try? store.read { database in
        holding.signal()
        release.wait()
        return try database.scalar("SELECT 1")
      }
      first.signal()
    }
    #expect(holding.wait(timeout: .now() + 60) == .success)
    // On another thread, so a read that waited for the first would be caught, not hang the test.
    let second = DispatchSemaphore(value: 0)
    let answer = Mutex<Int64?>(nil)
    DispatchQueue.global().async {
      let value = try? store.read { try $0.scalar("SELECT 2") }
      answer.withLock { $0 = value ?? nil }
      second.signal()
    }
    let answered = second.wait(timeout: .now() + 60) == .success
    release.signal()
    #expect(answered, "the second read waited for the first")
    #expect(answer.withLock { $0 } == 2)
    #expect(first.wait(timeout: .now() + 60) == .success)
  }

  @Test func connectionsAreKeptForTheNextReads() throws {
    let fixture = try TemporaryStore()
    var handles = Set<ObjectIdentifier>()
    for _ in 0..<5 { handles.insert(try fixture.store.read { ObjectIdentifier($0) }) }
    #expect(handles.count == 1)
  }
}
