import Dispatch
import Foundation
import JSON
import Posix
import Synchronization
import Testing

@testable import InboxTrace

/// The replay's pass driven by events, against stand-ins for the server: `cat`, which echoes each
/// frame (a batch of a request and its reply comes back as that reply), and shells that exit early
/// or never answer. The waits below only catch a hang; nothing is timed.
struct ReplaySessionTests {
  /// Far more than any of these takes: reached only when something hangs.
  static let patience = 60.0

  static func record(_ direction: String, _ frame: JSONValue, at time: Int64 = 1_764_493_500_000) -> JSONValue {
    ["t": .int(time), "dir": .string(direction), "frame": frame]
  }

  static func request(_ id: Int64) -> JSONValue { ["jsonrpc": "2.0", "id": .int(id), "method": "m"] }
  static func reply(_ id: Int64, _ result: JSONValue) -> JSONValue {
    ["jsonrpc": "2.0", "id": .int(id), "result": result]
  }

  /// A trace file of `records`, removed by the caller.
  static func trace(_ records: [JSONValue]) throws -> String {
    let path = NSTemporaryDirectory() + "replay-session-\(UUID().uuidString).trace"
    try records.map { $0.jsonString + "\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// What `start`'s callback first handed over; nil when nothing came within `patience`.
  static func awaited<T: Sendable>(_ start: (@escaping @Sendable (T) -> Void) -> Void) -> T? {
    let value = Mutex<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    start { result in
      value.withLock { $0 = $0 ?? result }
      done.signal()
    }
    guard done.wait(timeout: .now() + patience) == .success else { return nil }
    return value.withLock { $0 }
  }

  /// The pass over `path` against `executable` and the child's exit status once it has exited.
  static func replay(
    _ path: String, executable: String = "/bin/cat", arguments: [String] = [], replyTimeout: Double = 10
  ) throws -> (ReplaySession.Outcome, Int32)? {
    let child = try ChildServer(executable: executable, arguments: arguments, environment: [])
    let session = ReplaySession(file: path, child: child, replyTimeout: replyTimeout)
    let queue = DispatchQueue(label: "replay-session-test")
    return awaited { done in
      session.start { outcome in
        child.whenExited(on: queue) { status in done((outcome, status)) }
      }
    }
  }

  @Test func eachRecordedReplyIsComparedWithTheServersReplyOfItsId() throws {
    let path = try Self.trace([
      Self.record("in", [Self.request(1), Self.reply(1, 5)]),
      Self.record("out", Self.reply(1, 5)),
      Self.record("in", [Self.request(2), Self.reply(2, "replayed")]),
      Self.record("out", Self.reply(2, "recorded")),
      // A reply to nothing the host sent is not compared.
      Self.record("out", Self.reply(3, 0)),
    ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (outcome, status) = try #require(try Self.replay(path))
    #expect(status == 0)
    #expect(outcome.failure == nil)
    #expect(outcome.compared == 2)
    #expect(outcome.differences.count == 1)
    #expect(outcome.differences.first?.hasPrefix("\(path):4: id 2: ") == true)
  }

  @Test func aServerThatExitsOwesNoMoreRepliesAndItsLastLineCountsWithoutANewline() throws {
    let path = try Self.trace([
      Self.record("in", [Self.request(1), Self.request(2)]),
      Self.record("out", Self.reply(1, 1)),
      Self.record("out", Self.reply(2, 2)),
    ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Reads the one frame, answers its first request on a line without LF, and exits.
    let script = #"read line; printf '%s' '{"jsonrpc":"2.0","id":1,"result":1}'; exit 3"#
    let (outcome, status) = try #require(try Self.replay(path, executable: "/bin/sh", arguments: ["-c", script]))
    #expect(status == 3)
    #expect(outcome.differences == ["\(path):3: id 2: no reply in the replay"])
    #expect(outcome.compared == 2)
  }

  @Test func aReplyThatDoesNotComeInTimeIsMissingAndThePassGoesOn() throws {
    let path = try Self.trace([
      Self.record("in", Self.request(1)),
      Self.record("out", Self.reply(1, 1)),
      Self.record("in", Self.request(2)),
      Self.record("out", Self.reply(2, 2)),
    ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Reads every frame and answers none, until its input ends.
    let script = "exec /bin/cat >/dev/null"
    let (outcome, _) = try #require(
      try Self.replay(path, executable: "/bin/sh", arguments: ["-c", script], replyTimeout: 0.2))
    #expect(
      outcome.differences == [
        "\(path):2: id 1: no reply in the replay", "\(path):4: id 2: no reply in the replay",
      ])
  }

  @Test func aServerThatWritesWhileItIsWrittenToDoesNotStallThePass() throws {
    // Megabytes each way: more than both pipes hold, were the replies not drained while the frames go.
    let padding = JSONValue.string(String(repeating: "x", count: 64 * 1024))
    let notifications = (0..<64).map { _ in
      Self.record("in", ["jsonrpc": "2.0", "method": "n", "params": ["pad": padding]])
    }
    let path = try Self.trace(
      notifications + [
        Self.record("in", [Self.request(1), Self.reply(1, padding)]), Self.record("out", Self.reply(1, padding)),
      ]
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (outcome, status) = try #require(try Self.replay(path))
    #expect(status == 0)
    #expect(outcome.differences.isEmpty && outcome.compared == 1)
  }

  @Test func aTraceThatCannotBeOpenedEndsThePassAndTheServerStill() throws {
    let path = NSTemporaryDirectory() + "replay-session-missing-\(UUID().uuidString).trace"
    let (outcome, status) = try #require(try Self.replay(path))
    #expect(outcome.failure?.message.hasPrefix("cannot open \(path)") == true)
    #expect(outcome.differences.isEmpty && status == 0)
  }

  /// `/bin/sh -c script` with its stdin on a pipe whose write end is returned; no other watch reaps it.
  static func shell(_ script: String) -> (pid: pid_t, input: Int32) {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    let words: [String] = ["/bin/sh", "-c", script]
    let argv = words.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let envp: [UnsafeMutablePointer<CChar>?] = [nil]
    #expect(posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp) == 0)
    close(ends[0])
    return (pid, ends[1])
  }

  @Test(arguments: [false, true])
  func theExitStatusIsReadOnceTheChildHasExitedEvenBeforeTheWatchBegan(bySignal: Bool) throws {
    let queue = DispatchQueue(label: "child-exit-test")
    // Exits when its input ends: after the watch has begun.
    let reading = Self.shell("read line; exit 5")
    let afterwards: Int32? = Self.awaited { done in
      ChildExit.whenExited(reading.pid, on: queue, bySignal: bySignal, done)
      close(reading.input)
    }
    #expect(afterwards == 5)
    // Exited, and not reaped, before the watch begins.
    let exited = Self.shell("exit 7")
    var info = siginfo_t()
    #expect(waitid(P_PID, id_t(exited.pid), &info, WEXITED | WNOWAIT) == 0)
    let before: Int32? = Self.awaited { done in ChildExit.whenExited(exited.pid, on: queue, bySignal: bySignal, done) }
    #expect(before == 7)
    close(exited.input)
  }

  @Test func aServerKilledBySignalExitsWith128PlusItsNumber() throws {
    let killed = try ChildServer(executable: "/bin/sh", arguments: ["-c", "kill -9 $$"], environment: [])
    let status: Int32? = Self.awaited { done in killed.whenExited(on: DispatchQueue(label: "killed"), done) }
    #expect(status == Int32(128 + SIGKILL))
  }
}
