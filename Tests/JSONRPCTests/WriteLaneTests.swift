import Dispatch
import Foundation
import Synchronization
import Testing

@testable import JSONRPC

/// Reads after a write wait for the write lane, woken (not polling) when it empties or when its
/// write waits for something outside the process; a write that waits holds no thread and keeps its
/// place ahead of the writes behind it; a reply is answered once.
struct WriteLaneTests {
  /// A lane running a write that holds until `release` is signalled.
  private func busyLane() -> (WriteLane, release: DispatchSemaphore) {
    let lane = WriteLane()
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    lane.submit {
      started.signal()
      release.wait()
      return .finished
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

  @Test func aWriteThatWaitsOutsideLetsReadsGoAndKeepsItsPlace() {
    let lane = WriteLane()
    let events = Mutex<[String]>([])
    let resume = Mutex<(@Sendable () -> Void)?>(nil)
    let runs = Atomic<Int>(0)
    let waiting = DispatchSemaphore(value: 0)
    let rerun = DispatchSemaphore(value: 0)
    let releaseRerun = DispatchSemaphore(value: 0)
    // The first run waits outside; the second, woken, holds until released.
    lane.submit {
      let run = runs.add(1, ordering: .sequentiallyConsistent).newValue
      events.withLock { $0.append("first write, run \(run)") }
      guard run > 1 else {
        return .waits { wake in
          resume.withLock { $0 = wake }
          waiting.signal()
        }
      }
      rerun.signal()
      releaseRerun.wait()
      return .finished
    }
    lane.submit {
      events.withLock { $0.append("second write") }
      return .finished
    }
    #expect(waiting.wait(timeout: .now() + .seconds(5)) == .success)
    // No thread runs the waiting write, and reads go ahead of it and of the write behind it.
    lane.awaitTurnForReads()
    #expect(!lane.waitUntilIdle(until: .now() + .milliseconds(100)))
    #expect(events.withLock { $0 } == ["first write, run 1"])
    resume.withLock { $0 }?()
    #expect(rerun.wait(timeout: .now() + .seconds(5)) == .success)
    // Run again, it holds the lane: reads wait again, and the write behind it has not run.
    let turn = readerWaiting(on: lane)
    #expect(turn.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    releaseRerun.signal()
    #expect(turn.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(lane.waitUntilIdle(until: .now() + 5))
    #expect(events.withLock { $0 } == ["first write, run 1", "first write, run 2", "second write"])
  }

  @Test func aWriteThatAnswersLaterHoldsTheLaneWithNoThread() {
    let lane = WriteLane()
    let next = Mutex<(@Sendable (WriteLane.Step) -> Void)?>(nil)
    let second = Atomic<Bool>(false)
    // Started here, it goes on elsewhere: the calling thread is free at once.
    #expect(lane.runHereIfIdle { .later { step in next.withLock { $0 = step } } })
    lane.submit {
      second.store(true, ordering: .sequentiallyConsistent)
      return .finished
    }
    // Reads and the write behind it wait for its answer.
    let turn = readerWaiting(on: lane)
    #expect(turn.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    let ranEarly = second.load(ordering: .sequentiallyConsistent)
    #expect(!ranEarly)
    next.withLock { $0 }?(.finished)
    #expect(turn.wait(timeout: .now() + .seconds(5)) == .success)
    #expect(lane.waitUntilIdle(until: .now() + 5))
    let ran = second.load(ordering: .sequentiallyConsistent)
    #expect(ran)
  }

  @Test func aWriteRunsHereOnlyWhenTheLaneIsIdle() {
    let (lane, release) = busyLane()
    #expect(!lane.runHereIfIdle { .finished })
    release.signal()
    #expect(lane.waitUntilIdle(until: .now() + 5))
    let ran = Atomic<Bool>(false)
    #expect(
      lane.runHereIfIdle {
        ran.store(true, ordering: .sequentiallyConsistent)
        return .finished
      })
    let hasRun = ran.load(ordering: .sequentiallyConsistent)
    #expect(hasRun)
    #expect(lane.isIdle)
  }

  @Test func aReplyIsAnsweredOnceWhoeverAnswersFirst() throws {
    let outcomes = Mutex<[String]>([])
    let reply = Reply { outcome in outcomes.withLock { $0.append((try? outcome.get())?.stringValue ?? "error") } }
    reply.succeed("first")
    reply.fail(CancellationError())
    reply.succeed("second")
    #expect(outcomes.withLock { $0 } == ["first"])
  }
}
