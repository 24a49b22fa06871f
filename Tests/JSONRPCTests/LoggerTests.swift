import Dispatch
import Foundation
import Synchronization
import Testing

@testable import JSONRPC

/// stderr that nobody reads holds no thread: lines past the pipe's room wait in memory (or are
/// dropped and counted), and are written once the host reads again.
struct LoggerTests {
  @Test func linesWaitForAFullPipeWithNoThreadAndFollowOnceItIsRead() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let logger = Logger(level: .info, fd: fds[1], capacity: 100_000)
    let line = String(repeating: "x", count: 200)
    // About 400 KB: six times what a pipe holds.
    for index in 0..<2_000 { logger.info("line \(index) \(line)") }
    logger.info("last")
    // The flush returns although nobody reads: no thread is stuck in write(2).
    let flushed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      logger.flush(timeout: 0.2)
      flushed.signal()
    }
    #expect(flushed.wait(timeout: .now() + 60) == .success)
    #expect(!Self.aThreadIsWriting(to: fds[1]), "a thread waits in write(2) for the full pipe")
    // Read now, everything follows, the last line included.
    let read = Mutex(Data())
    let sawLast = DispatchSemaphore(value: 0)
    let reader = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
    Thread {
      while case let data = reader.availableData, !data.isEmpty {
        let done = read.withLock { all -> Bool in
          all += data
          return String(decoding: all.suffix(64), as: UTF8.self).contains("inbox-rpc info: last\n")
        }
        if done { sawLast.signal() }
      }
    }.start()
    #expect(sawLast.wait(timeout: .now() + 60) == .success, "the lines after the pipe filled were not written")
    let text = read.withLock { String(decoding: $0, as: UTF8.self) }
    #expect(text.hasPrefix("inbox-rpc info: line 0 "))
    #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("inbox-rpc info: line ") }.count == 2_000)
    close(fds[1])
  }

  /// The line logged just before an exit is written by the exiting thread itself: it reaches
  /// stderr though the log's queue never gets to run (a thread the kernel has not scheduled yet).
  @Test func aFlushWritesTheLastLinesOnTheCallingThreadWhileTheQueueCannotRun() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let logger = Logger(level: .info, fd: fds[1])
    logger.queue.suspend()
    logger.warn("the host took no output; exiting")
    logger.flush(timeout: 5)
    // Already in the pipe, or never: read without waiting.
    _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = read(fds[0], &bytes, bytes.count)
    #expect(
      String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
        == "inbox-rpc warn: the host took no output; exiting\n")
    close(fds[0])
    close(fds[1])
    logger.queue.resume()
  }

  /// Whether a thread of this process sits in write(2) on `fd` (Linux's /proc; false elsewhere).
  static func aThreadIsWriting(to fd: Int32) -> Bool {
    #if arch(x86_64)
      let write = "1"
    #elseif arch(arm64)
      let write = "64"
    #else
      return false
    #endif
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.contains { task in
      guard let call = try? String(contentsOfFile: "/proc/self/task/\(task)/syscall", encoding: .utf8) else {
        return false
      }
      let fields = call.split(separator: " ")
      return fields.count > 1 && fields[0] == write && Int(fields[1].dropFirst(2), radix: 16) == Int(fd)
    }
  }
}
