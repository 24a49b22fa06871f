import Dispatch
import Foundation
import JSON
import Posix
import Synchronization
import Testing

@testable import JSONRPC

/// No sender waits for the host: frames wait for a host that reads however slowly, in order; once
/// a patience is set, a host that takes nothing for that long is given up on, even when the frames
/// began waiting before it was set; the reader stops while too much waits.
struct OutputPatienceTests {
  /// A pipe whose reader is this test: nothing is read unless a test reads it.
  final class Host: Sendable {
    let read: Int32
    let write: Int32

    init() {
      var fds: [Int32] = [0, 0]
      precondition(pipe(&fds) == 0)
      (read, write) = (fds[0], fds[1])
    }

    private let reading = Atomic(true)

    deinit {
      closeRead()
      close(write)
    }

    /// The host closes its end.
    func closeRead() {
      if reading.exchange(false, ordering: .sequentiallyConsistent) { close(read) }
    }

    /// Reads until `count` bytes have come.
    func take(_ count: Int) -> [UInt8] {
      var taken: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while taken.count < count {
        let got = Glibc.read(read, &chunk, min(chunk.count, count - taken.count))
        guard got > 0 else { break }
        taken += chunk.prefix(got)
      }
      return taken
    }
  }

  /// One frame far larger than a pipe holds.
  static let frame = Array(("[\"" + String(repeating: "x", count: 1_000_000) + "\"]").utf8)

  /// The writer and what it has told of the host's going.
  final class Watched: Sendable {
    final class Told: Sendable {
      let gone = Mutex<[OutputWriter.Gone]>([])
      let signal = DispatchSemaphore(value: 0)
    }

    let writer: OutputWriter
    private let record = Told()
    var told: DispatchSemaphore { record.signal }
    var gone: [OutputWriter.Gone] { record.gone.withLock { $0 } }

    init(_ host: Host) {
      let record = record
      writer = OutputWriter(fd: host.write) { outcome in
        record.gone.withLock { $0.append(outcome) }
        record.signal.signal()
      }
    }
  }

  /// Runs `body` on another thread; true once it has returned, false if it is still waiting at
  /// `deadline`.
  static func returns(by deadline: DispatchTime, _ body: @escaping @Sendable () -> Void) -> Bool {
    let ended = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      body()
      ended.signal()
    }
    return ended.wait(timeout: deadline) == .success
  }

  @Test func aSendNeverWaitsForTheHostAndAPatienceGivesUpOnOneThatStoppedReading() {
    let host = Host()
    let watched = Watched(host)
    // Nobody reads, and the frame is far larger than the pipe: sending it returns all the same.
    #expect(Self.returns(by: .now() + 60) { watched.writer.send(encoded: Self.frame) })
    #expect(Self.returns(by: .now() + 60) { watched.writer.send(encoded: Array("[2]".utf8)) })
    // Without a patience the frames wait for the host for ever (a hang-only deadline says they
    // have not been given up on).
    #expect(!Self.returns(by: .now() + 1) { watched.writer.flush() })
    watched.writer.limitPatience(seconds: 0.1)
    #expect(watched.told.wait(timeout: .now() + 60) == .success)
    #expect(watched.gone == [.stalled])
    #expect(Self.returns(by: .now() + 60) { watched.writer.flush() })
  }

  @Test func aHostThatReadsSlowlyGetsEveryFrameWholeAndInOrder() {
    let host = Host()
    let watched = Watched(host)
    watched.writer.limitPatience(seconds: 30)
    watched.writer.send(encoded: Self.frame)
    watched.writer.send(encoded: Array("[2]".utf8))
    let expected = Self.frame + [0x0A] + Array("[2]\n".utf8)
    // A piece at a time, as a slow host takes it.
    var taken: [UInt8] = []
    while taken.count < expected.count { taken += host.take(min(64 * 1024, expected.count - taken.count)) }
    #expect(taken == expected)
    #expect(Self.returns(by: .now() + 60) { watched.writer.flush() })
    #expect(watched.gone.isEmpty)
  }

  @Test func theReaderStopsWhileTooMuchOutputWaitsForTheHost() {
    let host = Host()
    let watched = Watched(host)
    let gate = ReaderGate(inputLimit: 1 << 20, output: watched.writer)
    watched.writer.send(encoded: Self.frame)
    #expect(Self.returns(by: .now() + 60) { gate.pass(holding: 0) }, "one frame queued: room left")
    watched.writer.send(encoded: Self.frame)
    let resumed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      gate.pass(holding: 0)
      resumed.signal()
    }
    #expect(resumed.wait(timeout: .now() + 1) == .timedOut, "two frames queued: the reader waits")
    let expected = 2 * (Self.frame.count + 1)
    var taken = 0
    while taken < expected { taken += host.take(min(64 * 1024, expected - taken)).count }
    #expect(resumed.wait(timeout: .now() + 60) == .success)
  }

  @Test func aHostThatClosedItsEndIsGoneAndLaterFramesAreDropped() {
    let host = Host()
    let watched = Watched(host)
    // As the server does: a write to a closed pipe fails with EPIPE rather than killing the process.
    signal(SIGPIPE, SIG_IGN)
    host.closeRead()
    watched.writer.send(encoded: Array("[1]".utf8))
    #expect(watched.told.wait(timeout: .now() + 60) == .success)
    watched.writer.send(encoded: Array("[2]".utf8))
    #expect(watched.gone == [.closed])
    #expect(Self.returns(by: .now() + 60) { watched.writer.flush() })
  }
}
