import Dispatch
import Foundation
import Synchronization
import Testing

@testable import JSONRPC

/// Reads after a write wait for the write lane, woken (not polling) when it empties or when its
/// writer says it waits for another process's lock; a reply is answered once.
struct WriteLaneTests {
  /// A lane running a write that holds until `release` is signalled.
  private func busyLane() -> (WriteLane, release: DispatchSemaphore) {
    let lane = WriteLane()
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    lane.submit {
      started.signal()
      release.wait()
    }
    started.wait()
    return (lane, release)
  }

  /// Runs `awaitTurnForReads` on another thread; the semaphore is signalled when it returns.
  private func readerWaiting(on lane: WriteLane) -> DispatchSemaphore {
    let turn = DispatchSemaphore(value: 0)
    Thread {
      lane.awaitTurnForReads()
      turn.signal()
    }.start()
    return turn
  }

  @Test func aReadWaitsForTheWriteBeforeItAndIsWokenWhenItEnds() {
    let (lane, release) = busyLane()
    let turn = readerWaiting(on: lane)
    #expect(turn.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    release.signal()
    #expect(turn.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(lane.waitUntilIdle(until: .now() + 5))
  }

  @Test func aReadGoesAheadOnceTheWriterWaitsForAnotherProcess() {
    let (lane, release) = busyLane()
    let turn = readerWaiting(on: lane)
    #expect(turn.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    lane.writerWaits(true)
    #expect(turn.wait(timeout: .now() + .seconds(5)) == .success)
    // While it waits, later reads go ahead at once too; once it stops waiting, they wait again.
    lane.awaitTurnForReads()
    lane.writerWaits(false)
    let later = readerWaiting(on: lane)
    #expect(later.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    release.signal()
    #expect(later.wait(timeout: .now() + .seconds(5)) == .success)
  }

  @Test func aReplyIsAnsweredOnceWhoeverAnswersFirst() throws {
    let outcomes = Mutex<[String]>([])
    let reply = Reply { outcome in outcomes.withLock { $0.append((try? outcome.get())?.stringValue ?? "error") } }
    reply.succeed("first")
    reply.fail(CancellationError())
    reply.succeed("second")
    #expect(outcomes.withLock { $0 } == ["first"])
    #expect(try Reply.waiting { $0.succeed("now") } == "now")
  }
}
