import JSON
import Posix

/// One method the server answers: its name, whether it reads or writes, and its handler.
public struct Method: Sendable {
  /// Where a handler runs: each method says whether it reads or writes, once.
  public enum Execution: Sendable {
    /// Reads, or quick work that changes nothing: on the reader thread when it may start at once,
    /// after the writes that came before it otherwise (queued, the reader reading on), unless the
    /// write waits for another process's lock (then it goes ahead: a stalled write never holds up a
    /// read or a ping).
    case read
    /// Changes the store: one at a time in arrival order, after the reads before it. A write that
    /// cannot start comes back `busy` having done nothing (`WriteAttempt`), and the scheduler runs
    /// it again when the lock may be free, holding no thread meanwhile. A write nothing is before
    /// runs on the reading thread itself.
    case write
    /// Long work (the network, a test's sleep): on a worker, off the reader, so the reader keeps
    /// reading and can cancel it.
    case background
  }

  public typealias Handler = @Sendable (RequestContext) throws -> JSONValue
  /// A write's handler: its reply, or `busy` (nothing done; the scheduler runs it again).
  public typealias WriteHandler = @Sendable (RequestContext) -> WriteAttempt<JSONValue>
  /// A handler that answers later, through `Reply`, and returns at once: a request that waits (a
  /// subscription stream, a sync queued behind another) is a callback held, not a thread, alone or
  /// as a batch member (the batch's array is written when its last member answers).
  public typealias DeferredHandler = @Sendable (RequestContext, Reply) -> Void

  /// What runs a request.
  public enum Body: Sendable {
    case immediate(Handler)
    case write(WriteHandler)
    case deferred(DeferredHandler)
  }

  public let name: String
  /// Where a call runs, given its params: a method may run only its slow calls off the reader.
  public let placement: @Sendable (JSONValue?) -> Execution
  public let body: Body
  /// What runs a call, given its params, for a method whose calls differ (MCP's `tools/call`: each
  /// tool runs as its operation does); nil: `body`.
  private let routed: (@Sendable (JSONValue?) -> Body)?

  /// What runs a call with `params`.
  public func body(for params: JSONValue?) -> Body { routed?(params) ?? body }

  public init(_ name: String, execution: Execution = .read, handler: @escaping Handler) {
    self.init(name, placement: { _ in execution }, handler: handler)
  }

  public init(_ name: String, placement: @escaping @Sendable (JSONValue?) -> Execution, handler: @escaping Handler) {
    self.name = name
    self.placement = placement
    body = .immediate(handler)
    routed = nil
  }

  /// A method whose calls run as their params say (`placement`, and `body`, which nothing runs but
  /// `route`'s answer).
  public init(
    _ name: String, placement: @escaping @Sendable (JSONValue?) -> Execution,
    route: @escaping @Sendable (JSONValue?) -> Body
  ) {
    self.name = name
    self.placement = placement
    body = route(nil)
    routed = route
  }

  /// A write, placed `.write`: what it came to is its reply, or `busy` (`WriteAttempt`).
  public init(_ name: String, write handler: @escaping WriteHandler) {
    self.name = name
    placement = { _ in .write }
    body = .write(handler)
    routed = nil
  }

  /// A method answered through `Reply`. Placed `read` (the default), `handler` is called on the
  /// reader and must not block; placed as a write or on a worker, it holds that place until it
  /// answers, as a callback, not a thread.
  public init(
    _ name: String, placement: @escaping @Sendable (JSONValue?) -> Execution = { _ in .read },
    deferred handler: @escaping DeferredHandler
  ) {
    self.name = name
    self.placement = placement
    body = .deferred(handler)
    routed = nil
  }

}

/// What a handler gets: its params, its cancellation flag, and a way to talk back.
public struct RequestContext: Sendable {
  /// The request id; nil for a notification.
  public let id: JSONValue?
  public let method: String
  public let params: Params
  public let cancellation: CancellationToken
  /// Sends a server-to-host notification.
  public let notify: @Sendable (_ method: String, _ params: JSONValue) -> Void
  public let logger: Logger
  /// Where a write that is not the request's own is submitted (`WriteJobs`).
  public let writes: WriteJobs

  public init(
    id: JSONValue?, method: String, params: Params, cancellation: CancellationToken,
    notify: @escaping @Sendable (String, JSONValue) -> Void, logger: Logger, writes: WriteJobs = .once
  ) {
    self.writes = writes
    self.id = id
    self.method = method
    self.params = params
    self.cancellation = cancellation
    self.notify = notify
    self.logger = logger
  }
}

/// The methods a server answers, built from one list so discovery and dispatch cannot drift.
public struct MethodRegistry: Sendable {
  public private(set) var methods: [String: Method] = [:]
  /// Names in registration order, for `initialize` and drift tests.
  public private(set) var names: [String] = []
  /// What runs every name no method has: a face that dispatches by itself (the LSP's) is one
  /// method for all; nil: such a name is not found (-32601).
  public var fallback: Method?

  public init(_ methods: [Method] = [], fallback: Method? = nil) {
    for method in methods { register(method) }
    self.fallback = fallback
  }

  /// Adds a method; registering a name twice is a programming error.
  public mutating func register(_ method: Method) {
    precondition(methods[method.name] == nil, "method \(method.name) registered twice")
    methods[method.name] = method
    names.append(method.name)
  }

  public subscript(name: String) -> Method? { methods[name] ?? fallback }
}
