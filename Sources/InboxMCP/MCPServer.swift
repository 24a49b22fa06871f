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

  public init(inbox: Inbox) {
    let era = Era()
    let changes = ChangeFeed(era: era)
    let logging = LogSettings(era: era)
    let gateway = Gateway(inbox: inbox, relay: Relay(changes: changes, logging: logging))
    let handshake = Handshake(era: era)
    let tools = Tools(gateway: gateway)
    let resources = Resources(gateway: gateway)
    let prompts = Prompts(gateway: gateway)
    let streams = ListenStreams(changes: changes)
    self.gateway = gateway
    self.streams = streams
    registry = MethodRegistry([
      Self.method("initialize", handshake.initialize),
      Self.method("server/discover", handshake.discover),
      Self.method("notifications/initialized") { _ in .null },
      Self.method("ping") { _ in [:] },
      Self.method("logging/setLevel", logging.setLevel),
      Self.method("tools/list", cacheable: true, tools.list),
      Self.method("tools/call", placement: tools.placement, tools.call),
      Self.method("resources/list", cacheable: true, resources.list),
      Self.method("resources/templates/list", cacheable: true, resources.templates),
      Self.method("resources/read", cacheable: true, resources.read),
      Self.method("resources/subscribe") { try resources.subscribe($0, true) },
      Self.method("resources/unsubscribe") { try resources.subscribe($0, false) },
      Self.method("subscriptions/listen", placement: { _ in .background }, streams.listen),
      Self.method("prompts/list", cacheable: true, prompts.list),
      Self.method("prompts/get", prompts.get),
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
  /// `cacheable` results (lists and reads) also carry `ttlMs` and `cacheScope`, which that revision
  /// requires: 0 and private, since every read may change with the next tap.
  private static func method(
    _ name: String, cacheable: Bool = false,
    placement: @escaping @Sendable (JSONValue?) -> Method.Execution = { _ in .inline },
    _ handler: @escaping @Sendable (RequestContext) throws -> JSONValue
  ) -> Method {
    Method(name, placement: placement) { request in
      guard let version = Revision.requested(request.params) else { return try handler(request) }
      guard Revision.modern.contains(version) else { throw Revision.unsupported(version) }
      let result = try handler(request)
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
}
