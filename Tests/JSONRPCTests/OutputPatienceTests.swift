import Dispatch
import Foundation
import JSON
import Posix
import Synchronization
import Testing

@testable import JSONRPC

/// A write waits for a host that reads however slowly; once a patience is set, a host that takes
/// nothing for that long is given up on, even by a write that was waiting before it was set.
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

    deinit {
      close(read)
      close(write)
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

  @Test func aWriteWaitingForEverIsGivenUpOnOnceAPatienceIsSet() {
    let host = Host()
    let gone = Mutex<[PatientWriter.Outcome]>([])
    let ended = DispatchSemaphore(value: 0)
    let writer = OutputWriter(fd: host.write) { outcome in gone.withLock { $0.append(outcome) } }
    DispatchQueue.global().async {
      writer.send(encoded: Self.frame)
      ended.signal()
    }
    // Nobody reads: the write waits (a hang-only deadline says it has not given up on its own).
    #expect(ended.wait(timeout: .now() + 1) == .timedOut)
    writer.limitPatience(seconds: 0.1)
    #expect(ended.wait(timeout: .now() + 60) == .success)
    #expect(gone.withLock { $0 } == [.stalled])
  }

  @Test func aHostThatReadsSlowlyGetsTheWholeFrame() {
    let host = Host()
    let gone = Mutex<[PatientWriter.Outcome]>([])
    let writer = OutputWriter(fd: host.write) { outcome in gone.withLock { $0.append(outcome) } }
    writer.limitPatience(seconds: 30)
    let ended = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      writer.send(encoded: Self.frame)
      ended.signal()
    }
    // A piece at a time, as a slow host takes it.
    var taken: [UInt8] = []
    while taken.count < Self.frame.count + 1 { taken += host.take(min(64 * 1024, Self.frame.count + 1 - taken.count)) }
    #expect(ended.wait(timeout: .now() + 60) == .success)
    #expect(taken == Self.frame + [0x0A])
    #expect(gone.withLock { $0 }.isEmpty)
  }
}
