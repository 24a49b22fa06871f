import InboxApp
import InboxContract
import JSON
import JSONRPC

/// The inbox behind a second protocol face, the Model Context Protocol, over the same stdio
/// transport: tools and resources that run the use cases (`Operations`) the JSON-RPC face runs.
public final class MCPServer: Sendable {
  public let registry: MethodRegistry
  private let gateway: Gateway
  private let streams: ListenStreams

  /// The MCP face on `runtime`, offering the tools `selection` lets through.
  public init(runtime: InboxRuntime, tools selection: ToolSelection = ToolSelection()) {
    let era = Era()
    let changes = ChangeFeed(era: era)
    let logging = LogSettings(era: era)
    let gateway = Gateway(
      inbox: runtime.inbox, relay: Relay(era: era, changes: changes, logging: logging), warnings: runtime.warnings)
    let tools = Tools(gateway: gateway, era: era, selection: selection)
    let handshake = Handshake(era: era, tools: tools.offered.map(\.tool), selection: selection)
    let resources = Resources(gateway: gateway)
    let prompts = Prompts(gateway: gateway)
    let streams = ListenStreams(changes: changes)
    self.gateway = gateway
    self.streams = streams
    registry = MethodRegistry([
      Self.method(era, "initialize", handshake.initialize),
      Self.method(era, "server/discover", handshake.discover),
      Self.method(era, "notifications/initialized") { _ in .null },
      Self.method(era, "ping") { _ in [:] },
      Self.method(era, "logging/setLevel", logging.setLevel),
      Self.method(era, "tools/list", cacheable: true, tools.list),
      Self.routed(era, "tools/call", placement: tools.placement, tools.route),
      Self.method(era, "resources/list", cacheable: true, resources.list),
      Self.method(era, "resources/templates/list", cacheable: true, resources.templates),
      Self.method(era, "resources/read", cacheable: true, resources.read),
      Self.method(era, "resources/subscribe") { try resources.subscribe($0, true) },
      Self.method(era, "resources/unsubscribe") { try resources.subscribe($0, false) },
      Self.deferred(era, "subscriptions/listen", streams.listen),
      Self.method(era, "prompts/list", cacheable: true, prompts.list),
      Self.method(era, "prompts/get", prompts.get),
    ])
  }

  /// The transport as MCP wants it: newline-delimited JSON, `notifications/cancelled {requestId}`
  /// answered by silence, and subscription streams ended (gracefully) by the end of input.
  public func configure(_ configuration: inout Connection.Configuration) {
    configuration.framing = .ndjson
    configuration.cancelNotification = (method: "notifications/cancelled", idMember: "requestId")
    configuration.answersCancelled = false
    configuration.onEndOfInput = { [streams] in streams.endAll() }
  }

  /// What the background sync reports, said the MCP way through `send`.
  public func backgroundReporter(_ send: @escaping @Sendable (String, JSONValue) -> Void) -> Reporter {
    gateway.relay.reporter(params: nil, send: send)
  }

  /// A method whose requests are checked for the stateless revision's `_meta` envelope: a revision
  /// not served is -32022; results to such requests carry `resultType` and the server's info.
  /// Results in a handshake revision leave out what that revision lacks (`Downlevel`).
  /// `cacheable` results (lists and reads) also carry `ttlMs` and `cacheScope`, which that revision
  /// requires: 0 and private, since every read may change with the next tap.
  private static func method(
    _ era: Era, _ name: String, cacheable: Bool = false,
    placement: @escaping @Sendable (JSONValue?) -> Method.Execution = { _ in .read },
    _ handler: @escaping @Sendable (RequestContext) throws -> JSONValue
  ) -> Method {
    Method(name, placement: placement, handler: shaped(era, name, cacheable: cacheable, handler))
  }

  /// `method` for a handler that answers later (`Method.DeferredHandler`).
  private static func deferred(
    _ era: Era, _ name: String, placement: @escaping @Sendable (JSONValue?) -> Method.Execution = { _ in .read },
    _ handler: @escaping @Sendable (RequestContext, Reply) -> Void
  ) -> Method {
    Method(name, placement: placement, deferred: shaped(era, name, handler))
  }

  /// `method` for a method whose calls run as their params say (`tools/call`: a tool as its
  /// operation runs), each shaped as `method` shapes its result.
  private static func routed(
    _ era: Era, _ name: String, placement: @escaping @Sendable (JSONValue?) -> Method.Execution,
    _ route: @escaping @Sendable (JSONValue?) -> Method.Body
  ) -> Method {
    Method(name, placement: placement) { params in
      switch route(params) {
      case .immediate(let handler): .immediate(shaped(era, name, cacheable: false, handler))
      case .write(let handler):
        .write { request in
          do {
            let shape = try shaping(era, name, cacheable: false, request)
            return handler(request).map(shape)
          } catch {
            return .done(.failure(error))
          }
        }
      case .deferred(let handler): .deferred(shaped(era, name, handler))
      }
    }
  }

  private static func shaped(
    _ era: Era, _ name: String, cacheable: Bool, _ handler: @escaping @Sendable (RequestContext) throws -> JSONValue
  ) -> Method.Handler {
    { request in
      let shape = try shaping(era, name, cacheable: cacheable, request)
      return shape(try handler(request))
    }
  }

  private static func shaped(
    _ era: Era, _ name: String, _ handler: @escaping @Sendable (RequestContext, Reply) -> Void
  ) -> Method.DeferredHandler {
    { request, reply in
      do {
        let shape = try shaping(era, name, cacheable: false, request)
        handler(request, Reply { outcome in reply(outcome.map(shape)) })
      } catch {
        reply.fail(error)
      }
    }
  }

  /// How a result to `request` is shaped: for the stateless revision's `_meta` envelope, stamped
  /// (a revision not served is -32022); in a handshake revision, without what it lacks
  /// (`Downlevel`), for the revision the era has once the handler ran (`initialize` sets it).
  private static func shaping(_ era: Era, _ name: String, cacheable: Bool, _ request: RequestContext) throws
    -> @Sendable (JSONValue) -> JSONValue
  {
    guard let version = Revision.requested(request.params) else {
      let params = request.params
      return { Downlevel.shaped(name, $0, for: era.revision(of: params)) }
    }
    guard Revision.modern.contains(version) else { throw Revision.unsupported(version) }
    return { stamped($0, cacheable: cacheable) }
  }

  /// A result to a stateless-revision request: `resultType`, the server's info, and for
  /// `cacheable` ones `ttlMs` and `cacheScope`.
  private static func stamped(_ result: JSONValue, cacheable: Bool) -> JSONValue {
    guard var object = result.objectValue else { return result }
    var meta = object["_meta"]?.objectValue ?? [:]
    meta[Revision.serverInfoKey] = Handshake.serverInfo
    object["_meta"] = .object(meta)
    object["resultType"] = "complete"
    if cacheable {
      object["ttlMs"] = 0
      object["cacheScope"] = "private"
    }
    return .object(object)
  }
}
