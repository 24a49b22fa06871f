import Dispatch
import Foundation
import Synchronization
import Testing

@testable import JSONRPC

/// The scheduler's table and what follows from it: reads wait for the writes before them as
/// closures, not threads, and go ahead of a write that waits outside; writes run one at a time in
/// arrival order, after the reads before them; background work takes at most its slots; a reply is
/// answered once.
struct SchedulerTests {
  /// What ran, in order.
  private final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  /// Work that says when it has started, and holds until released.
  private final class Held: Sendable {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
  }

  private func job(_ name: String, _ log: Log, holding held: Held? = nil) -> Scheduler.Job {
    {
      log.append(name)
      held?.started.signal()
      held?.release.wait()
      return .finished
    }
  }

  @Test func theTableSaysWhatWaitsForWhat() {
    #expect(Scheduler.waits(.write, behind: .write))
    #expect(Scheduler.waits(.write, behind: .read))
    #expect(Scheduler.waits(.read, behind: .write))
    #expect(!Scheduler.waits(.read, behind: .write, writeWaitsOutside: true))
    #expect(!Scheduler.waits(.read, behind: .read))
    for kind in [Scheduler.Kind.read, .write, .background, .immediate] {
      #expect(!Scheduler.waits(.background, behind: kind))
      #expect(!Scheduler.waits(kind, behind: .background))
      #expect(!Scheduler.waits(.immediate, behind: kind))
      #expect(!Scheduler.waits(kind, behind: .immediate))
    }
  }

  @Test func aReadBehindAWriteIsQueuedAndTheCallerGoesOn() {
    let scheduler = Scheduler()
    let log = Log()
    let write = Held()
    scheduler.submit(.write, job("write", log, holding: write))
    #expect(write.started.wait(timeout: .now() + 60) == .success)
    // Neither runs here: the caller (the reader) returns at once, holding nothing.
    #expect(!scheduler.runHere(.read, job("read here", log)))
    scheduler.submit(.read, job("read", log))
    #expect(!scheduler.waitUntilIdle(until: .now() + .milliseconds(100)))
    #expect(log.all == ["write"])
    write.release.signal()
    #expect(scheduler.waitUntilIdle(until: .now() + 60))
    #expect(log.all == ["write", "read"])
    // Idle again, a read runs on the caller's thread.
    #expect(scheduler.runHere(.read, job("read here", log)))
    #expect(log.all.last == "read here")
  }

  @Test func aWriteWaitsForTheReadsBeforeItAndTheWritesRunInArrivalOrder() {
    let scheduler = Scheduler()
    let log = Log()
    let first = Held()
    let read = Held()
    scheduler.submit(.write, job("write 1", log, holding: first))
    #expect(first.started.wait(timeout: .now() + 60) == .success)
    scheduler.submit(.read, job("read", log, holding: read))
    scheduler.submit(.write, job("write 2", log))
    scheduler.submit(.write, job("write 3", log))
    first.release.signal()
    #expect(read.started.wait(timeout: .now() + 60) == .success)
    // The read runs; the writes behind it wait for it.
    #expect(!scheduler.waitUntilIdle(until: .now() + .milliseconds(100)))
    #expect(log.all == ["write 1", "read"])
    read.release.signal()
    #expect(scheduler.waitUntilIdle(until: .now() + 60))
    #expect(log.all == ["write 1", "read", "write 2", "write 3"])
  }

  @Test func readsGoAheadOfAWriteThatWaitsOutsideAndOfTheWritesBehindIt() {
    let scheduler = Scheduler()
    let log = Log()
    let resume = Mutex<(@Sendable () -> Void)?>(nil)
    let waiting = DispatchSemaphore(value: 0)
    let runs = Atomic<Int>(0)
    // The first run waits outside; the second finishes.
    scheduler.submit(.write) {
      let run = runs.add(1, ordering: .sequentiallyConsistent).newValue
      log.append("write 1, run \(run)")
      guard run > 1 else {
        return .waits { wake in
          resume.withLock { $0 = wake }
          waiting.signal()
        }
      }
      return .finished
    }
    #expect(waiting.wait(timeout: .now() + 60) == .success)
    scheduler.submit(.write, job("write 2", log))
    let read = Held()
    scheduler.submit(.read, job("read", log, holding: read))
    // No thread runs the waiting write; the read behind both writes runs now.
    #expect(read.started.wait(timeout: .now() + 60) == .success)
    #expect(scheduler.runHere(.read, job("read here", log)))
    #expect(log.all == ["write 1, run 1", "read", "read here"])
    read.release.signal()
    resume.withLock { $0 }?()
    #expect(scheduler.waitUntilIdle(until: .now() + 60))
    #expect(log.all == ["write 1, run 1", "read", "read here", "write 1, run 2", "write 2"])
  }

  @Test func aWriteThatAnswersLaterKeepsItsPlaceWithNoThreadAndAReadThatDoesFreesIt() {
    let scheduler = Scheduler()
    let log = Log()
    let next = Mutex<(@Sendable (Scheduler.Step) -> Void)?>(nil)
    // Started here, it goes on elsewhere: the calling thread is free at once.
    #expect(scheduler.runHere(.write) { .later { step in next.withLock { $0 = step } } })
    scheduler.submit(.read, job("read", log))
    #expect(!scheduler.waitUntilIdle(until: .now() + .milliseconds(100)))
    #expect(log.all.isEmpty)
    next.withLock { $0 }?(.finished)
    #expect(scheduler.waitUntilIdle(until: .now() + 60))
    #expect(log.all == ["read"])

    // A read answering later (a stream) does not hold the writes behind it, but is waited for at
    // the end.
    let stream = Mutex<(@Sendable (Scheduler.Step) -> Void)?>(nil)
    #expect(scheduler.runHere(.read) { .later { step in stream.withLock { $0 = step } } })
    #expect(scheduler.runHere(.write, job("write", log)))
    #expect(!scheduler.waitUntilIdle(until: .now() + .milliseconds(100)))
    stream.withLock { $0 }?(.finished)
    #expect(scheduler.waitUntilIdle(until: .now() + 60))
  }

  @Test func backgroundWorkTakesAtMostItsSlotsInArrivalOrderBesideAWrite() {
    let scheduler = Scheduler(backgroundLimit: 2)
    let log = Log()
    let write = Held()
    scheduler.submit(.write, job("write", log, holding: write))
    #expect(write.started.wait(timeout: .now() + 60) == .success)
    let held = (0..<5).map { _ in Held() }
    for (index, work) in held.enumerated() {
      scheduler.submit(.background, job("background \(index)", log, holding: work))
    }
    // Two start beside the write; the third waits for a slot, as a closure.
    #expect(held[0].started.wait(timeout: .now() + 60) == .success)
    #expect(held[1].started.wait(timeout: .now() + 60) == .success)
    #expect(held[2].started.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    #expect(!scheduler.runHere(.background, job("background here", log)))
    for index in 0..<5 {
      held[index].release.signal()
      if index + 2 < 5 { #expect(held[index + 2].started.wait(timeout: .now() + 60) == .success) }
    }
    write.release.signal()
    #expect(scheduler.waitUntilIdle(until: .now() + 60))
    let background = log.all.filter { $0.hasPrefix("background") }
    #expect(background == (0..<5).map { "background \($0)" })
  }

  @Test func manyReadsQueuedBehindAWriteAllRunOnceAndInOrder() {
    let scheduler = Scheduler()
    let log = Log()
    let write = Held()
    scheduler.submit(.write, job("write", log, holding: write))
    #expect(write.started.wait(timeout: .now() + 60) == .success)
    for index in 0..<10_000 { scheduler.submit(.read, job("\(index)", log)) }
    write.release.signal()
    #expect(scheduler.waitUntilIdle(until: .now() + 60))
    #expect(log.all == ["write"] + (0..<10_000).map { "\($0)" })
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

/// The reader's one wait: while the input handed off holds the limit, until some is released.
struct ReaderGateTests {
  @Test func aFrameWaitsForRoomAndOneFrameAlwaysPasses() {
    let (input, output) = Self.pipe()
    defer { (close(input), close(output)) }
    let gate = ReaderGate(inputLimit: 100, output: OutputWriter(fd: output))
    gate.pass(holding: 500)  // larger than the limit, but nothing is in flight: let through
    let passed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      gate.pass(holding: 10)
      passed.signal()
    }
    #expect(passed.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    gate.release(500)
    #expect(passed.wait(timeout: .now() + 60) == .success)
    gate.release(10)
  }

  private static func pipe() -> (Int32, Int32) {
    var ends: [Int32] = [0, 0]
    _ = Foundation.pipe(&ends)
    return (ends[0], ends[1])
  }
}
