import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Tells when a file is written, or a descriptor that wrote it is closed (by `close` or by the
/// kernel when its process ends, even by `kill -9`), with no thread waiting: the kernel queues the
/// events on an inotify descriptor and a Dispatch read source drains it on `queue`. Events that
/// arrive together are told once. On macOS, kqueue's `EVFILT_VNODE` would take its place behind
/// the same interface.
public final class FileWatcher: @unchecked Sendable {
  // Unchecked: `source` is made here and only resumed and cancelled, which Dispatch allows from
  // any thread; `fd` is read only on `queue` and closed by the source's cancel handler.
  private let source: DispatchSourceRead
  private let fd: Int32

  /// What a watcher is told of.
  public struct Events: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The file was written, or a descriptor that wrote it was closed.
    public static let written = Events(rawValue: UInt32(IN_MODIFY | IN_CLOSE_WRITE))
    /// Its mode, owner or link count changed: a deletion or a replacement of its name included.
    public static let attributes = Events(rawValue: UInt32(IN_ATTRIB))
    /// A file was created in, or moved into, the directory watched.
    public static let created = Events(rawValue: UInt32(IN_CREATE | IN_MOVED_TO))
    /// The file itself was renamed or deleted.
    public static let moved = Events(rawValue: UInt32(IN_MOVE_SELF | IN_DELETE_SELF))
  }

  /// Watches `path`, which must exist, for `events`; `changed` runs on `queue` after each batch.
  public init(
    path: String, events: Events = .written, queue: DispatchQueue, changed: @escaping @Sendable () -> Void
  ) throws(SystemError) {
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { throw SystemError.current("inotify_init1") }
    guard inotify_add_watch(fd, path, events.rawValue) >= 0 else {
      let error = SystemError.current("watch \(path)")
      close(fd)
      throw error
    }
    self.fd = fd
    source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
    source.setEventHandler { [fd] in
      if Self.drain(fd) { changed() }
    }
    source.setCancelHandler { [fd] in close(fd) }
    source.resume()
  }

  /// Stops watching; no `changed` runs once the source's current handler, if any, has returned.
  public func cancel() { source.cancel() }

  /// Reads every queued event; true when there was at least one.
  private static func drain(_ fd: Int32) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var any = false
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        any = true
        continue
      }
      if count < 0 && errno == EINTR { continue }
      return any
    }
  }
}
