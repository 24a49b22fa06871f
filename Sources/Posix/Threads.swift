#if canImport(Glibc)
  import Glibc
#endif

/// Threads of their own, for work that blocks for long (reading the host's input): a Dispatch
/// worker blocked that long would be one fewer for everything else.
public enum Threads {
  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Runs `body` on a new detached thread; with `stackBytes`, on a stack that large (else the
  /// system's default for new threads).
  public static func start(stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
    let started = pthread_create(
      &thread, &attributes,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    guard started == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      fatalError("cannot start a thread: \(String(cString: strerror(started)))")
    }
    pthread_detach(thread)
  }

  /// The processors online: how many threads CPU-bound work is worth spreading over.
  public static var cores: Int {
    #if canImport(Glibc)
      return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #else
      return 1
    #endif
  }
}
