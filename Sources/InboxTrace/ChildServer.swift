import Dispatch
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// A server of this same binary run as a child over two pipes, for `replay`: frames are written to
/// its stdin; its stdout and its exit are heard of as events (`ChildEvents`), so no thread waits
/// for it. Its stderr is ours; its environment is only what the caller gives. `send`,
/// `closeInput` and `whenExited` are called on one queue (the session's).
public final class ChildServer: @unchecked Sendable {
  let pid: pid_t
  private var input: Int32
  private let events: ChildEvents

  /// `environment`: the child's whole environment (`NAME=value` each); `replay` gives it none.
  public convenience init(arguments: [String], environment: [String]) throws(SystemError) {
    try self.init(executable: "/proc/self/exe", arguments: arguments, environment: environment)
  }

  /// `executable`: what runs (tests run a shell or `cat` in the server's place).
  init(executable: String, arguments: [String], environment: [String]) throws(SystemError) {
    // Only the child's stdin and stdout (dup2 clears close-on-exec there) are passed on.
    let toChild = try Pipe.make("replay: pipe")
    let fromChild: (read: Int32, write: Int32)
    do {
      fromChild = try Pipe.make("replay: pipe")
    } catch {
      close(toChild.read)
      close(toChild.write)
      throw error
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild.read, 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild.write, 1)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let envp = environment.map { strdup($0) } + [nil]
    defer { envp.forEach { free($0) } }
    let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
    close(toChild.read)
    guard status == 0 else {
      close(toChild.write)
      close(fromChild.read)
      close(fromChild.write)
      throw SystemError(code: status, message: "replay: cannot start the server: \(String(cString: strerror(status)))")
    }
    pid = child
    input = toChild.write
    events = ChildEvents(pid: child, output: fromChild.read, writeEnd: fromChild.write)
  }

  deinit {
    if input >= 0 { close(input) }
  }

  /// Starts draining the server's stdout: `handle` runs on `queue` with each frame, in order, then
  /// with the end, once the server has exited. Called once.
  func readOutput(on queue: DispatchQueue, _ handle: @escaping @Sendable (ChildEvents.Output) -> Void) {
    events.read(to: queue, handle)
  }

  /// Writes one frame as one line; false when the server has stopped reading. The write may block
  /// while the server is busy: the pipe is ours, and its replies are drained meanwhile.
  func send(_ line: [UInt8]) -> Bool {
    input >= 0 && Files.writeAll(input, line + [0x0A])
  }

  /// Ends the server's input: it answers what it has, then exits.
  func closeInput() {
    guard input >= 0 else { return }
    close(input)
    input = -1
  }

  /// Ends the server's input, then calls `exited` on `queue` with its exit status once it has
  /// exited and been reaped; no thread waits meanwhile.
  public func whenExited(on queue: DispatchQueue, _ exited: @escaping @Sendable (Int32) -> Void) {
    closeInput()
    events.whenExited(on: queue, exited)
  }
}
