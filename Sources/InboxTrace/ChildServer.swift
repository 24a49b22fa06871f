import JSONRPC
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// A server of this same binary run as a child over two pipes, for `replay`: frames are written to
/// its stdin, and its replies read back one NDJSON line at a time. Its stderr is ours; its
/// environment is only what the caller gives.
public final class ChildServer {
  private let pid: pid_t
  private var input: Int32
  private let output: Int32
  private var reader = FrameReader(framing: .ndjson)
  private var ended = false

  /// `environment`: the child's whole environment (`NAME=value` each); `replay` gives it none.
  public init(arguments: [String], environment: [String]) throws(SystemError) {
    var toChild: [Int32] = [0, 0]
    var fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw SystemError.current("replay: pipe") }
    // Only the child's stdin and stdout (dup2 clears the flag there) are passed on.
    for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    let executable = "/proc/self/exe"
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let envp = environment.map { strdup($0) } + [nil]
    defer { envp.forEach { free($0) } }
    let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
    close(toChild[0])
    close(fromChild[1])
    guard status == 0 else {
      close(toChild[1])
      close(fromChild[0])
      throw SystemError(code: status, message: "replay: cannot start the server: \(String(cString: strerror(status)))")
    }
    pid = child
    input = toChild[1]
    output = fromChild[0]
  }

  deinit {
    if input >= 0 { close(input) }
    close(output)
  }

  /// Writes one frame as one line; false when the server has stopped reading.
  func send(_ line: [UInt8]) -> Bool {
    input >= 0 && Files.writeAll(input, line + [0x0A])
  }

  /// Ends the server's input: it answers what it has, then exits.
  func closeInput() {
    guard input >= 0 else { return }
    close(input)
    input = -1
  }

  /// The next frame the server writes, waiting at most `timeout` seconds; nil on time-out or end.
  func next(timeout: Double) -> [UInt8]? {
    let deadline = Clock.monotonicNanoseconds + UInt64(timeout * 1e9)
    while true {
      if case .frame(let bytes)? = reader.next() { return bytes }
      if ended { return nil }
      let now = Clock.monotonicNanoseconds
      guard now < deadline else { return nil }
      var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      let waited = poll(&ready, 1, Int32((deadline - now) / 1_000_000) + 1)
      if waited < 0 && errno == EINTR { continue }
      guard waited > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 64 * 1024)
      let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
      if count <= 0 {
        if count < 0 && errno == EINTR { continue }
        ended = true
        if case .frame(let bytes)? = reader.finish() { return bytes }
        return nil
      }
      reader.append(Array(chunk[0..<count]))
    }
  }

  /// Waits for the server to exit; its exit status.
  public func wait() -> Int32 {
    closeInput()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }
}
