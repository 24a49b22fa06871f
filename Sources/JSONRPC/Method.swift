import JSON

/// One method the server answers: its name, where it runs, and its handler.
public struct Method: Sendable {
  /// Where a handler runs.
  public enum Execution: Sendable {
    /// On the reader thread, in arrival order: for work measured in microseconds.
    case inline
    /// Off the reader, so the reader keeps reading (and can cancel it) while it works.
    case background
    /// One at a time in arrival order: work that may wait on another process (a store write waiting
    /// for a lock). A lone request is tried on the reader while the lane is idle, and moves to the
    /// lane (off the reader) when its handler throws `RunOffReader`; batches and the requests after
    /// a moved one run on the lane. Inline requests after it wait for the lane to empty, unless
    /// `Connection.Configuration.serialWorkIsWaiting` says it waits on someone else, so a stalled
    /// write never holds up a read or a ping.
    case serial
  }

  public typealias Handler = @Sendable (RequestContext) throws -> JSONValue

  public let name: String
  /// Where a call runs, given its params: a method may run only its slow calls off the reader.
  public let placement: @Sendable (JSONValue?) -> Execution
  public let handler: Handler

  public init(_ name: String, execution: Execution = .inline, handler: @escaping Handler) {
    self.init(name, placement: { _ in execution }, handler: handler)
  }

  public init(_ name: String, placement: @escaping @Sendable (JSONValue?) -> Execution, handler: @escaping Handler) {
    self.name = name
    self.placement = placement
    self.handler = handler
  }
}

/// Thrown by a `serial` handler run on the reader that would have to wait (for another process's
/// lock): the connection runs the request again on the serial lane, where it may wait. The handler
/// must not have changed anything it would change again.
public struct RunOffReader: Error, Sendable {
  public init() {}
}

extension RequestContext {
  /// True when the handler runs on the reader thread: a `serial` request tried there first, while
  /// the lane is idle, so a write that needs no wait costs no thread hand-off.
  public var isOnReader: Bool { cancellation === CancellationToken.inline }
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

  public init(
    id: JSONValue?, method: String, params: Params, cancellation: CancellationToken,
    notify: @escaping @Sendable (String, JSONValue) -> Void, logger: Logger
  ) {
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

  public init(_ methods: [Method] = []) {
    for method in methods { register(method) }
  }

  /// Adds a method; registering a name twice is a programming error.
  public mutating func register(_ method: Method) {
    precondition(methods[method.name] == nil, "method \(method.name) registered twice")
    methods[method.name] = method
    names.append(method.name)
  }

  public subscript(name: String) -> Method? { methods[name] }
}
