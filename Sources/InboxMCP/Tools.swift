import InboxApp
import InboxContract
import JSON
import JSONRPC

/// `tools/list` and `tools/call`. An unknown tool, and one this server does not offer
/// (`ToolSelection`), is a protocol error (-32602) that says why. Arguments that break the tool's
/// input schema are, from revision 2025-11-25 on, a result with `isError: true` naming the argument,
/// what was expected and what was sent, so the model can fix its call; before it, -32602 with the
/// same data. What the engine refuses (an unknown id, a button the card lacks, a backend that cannot
/// be reached) is a result with `isError: true` and words an agent can act on.
struct Tools: Sendable {
  let gateway: Gateway
  let era: Era
  let selection: ToolSelection
  let definitions: [Tool.Definition]
  let offered: [Tool.Definition]

  init(gateway: Gateway, era: Era, selection: ToolSelection) {
    self.gateway = gateway
    self.era = era
    self.selection = selection
    definitions = ToolCatalog.all.map { $0.definition(in: Contract.document) }
    offered = definitions.filter { selection.offers($0.tool) }
  }

  func list(_ request: RequestContext) throws -> JSONValue {
    ["tools": .array(offered.map(\.json))]
  }

  /// Answers through `reply`: at once for every tool but `sync_inbox`, whose sync may wait its turn
  /// behind another, holding no thread.
  func call(_ request: RequestContext, _ reply: Reply) {
    let tool: Tool
    do {
      tool = try named(request)
    } catch {
      return reply.fail(error)
    }
    let arguments: JSONObject
    do {
      arguments = try checked(tool, request)
    } catch let error as RPCError where Revision.Features(era.revision(of: request.params)).inputErrorsAsResults {
      return reply.succeed(Self.failure(ToolFailure.explain(error, tool: tool.name)))
    } catch {
      return reply.fail(error)
    }
    start(tool, arguments, request) { outcome in
      switch outcome {
      case .success(let result):
        reply.succeed([
          "content": [["type": "text", "text": .string(tool.text(result))]], "structuredContent": result,
          "isError": false,
        ])
      case .failure(let refusal) where Self.isRefusal(refusal):
        reply.succeed(Self.failure(ToolFailure.explain(RPCError(refusal), tool: tool.name)))
      case .failure(let error):
        reply.fail(error)
      }
    }
  }

  private static func failure(_ text: String) -> JSONValue {
    ["content": [["type": "text", "text": .string(text)]], "isError": true]
  }

  /// The tool the request names, if this server offers it.
  private func named(_ request: RequestContext) throws -> Tool {
    let name = try request.params.requiredString("name")
    let names = JSONValue.array(offered.map { .string($0.tool.name) })
    guard let tool = definitions.first(where: { $0.tool.name == name })?.tool else {
      throw RPCError(
        .invalidParams, "Unknown tool: \(name)", data: ["param": "name", "reason": "no such tool", "tools": names])
    }
    if let why = selection.refusal(of: tool) {
      throw RPCError(
        .invalidParams, "Tool not offered: \(why)", data: ["param": "name", "reason": .string(why), "tools": names])
    }
    return tool
  }

  /// The arguments, checked by the contract of the tool's method, as the JSON-RPC face checks its
  /// params: the same rules, and the same words when they are broken.
  private func checked(_ tool: Tool, _ request: RequestContext) throws -> JSONObject {
    let arguments = try request.params.value("arguments") ?? .object([:])
    guard let object = arguments.objectValue else {
      throw RPCError.invalidParams("arguments", "expected an object of named arguments, got \(arguments.typeName)")
    }
    try ParamsContract.forMethod(tool.method)?.check(Params(arguments), only: tool.params)
    return object
  }

  /// What the engine and the store answer with (an RPC error or one that converts to it) is the
  /// tool's result; cancellation, and anything the transport itself must see (an internal failure,
  /// a request that has to move off the reader), stays a protocol-level outcome.
  private static func isRefusal(_ error: any Error) -> Bool {
    guard error is RPCError || error is RPCErrorConvertible else { return false }
    let code = RPCError(error).code
    return code != .requestCancelled && code != .internalError
  }

  /// Where a call runs: where the operation it runs would run (a write behind the writes before it, a
  /// sync started on the reader, as it answers later, a wallet download on a worker), and every
  /// other call keeps arrival order.
  func placement(_ params: JSONValue?) -> Method.Execution {
    guard let name = params?["name"]?.stringValue, let tool = offered.first(where: { $0.tool.name == name })?.tool,
      let operation = Operations.named(tool.method)
    else { return .read }
    return operation.execution
  }

  /// Starts the use case behind the tool, on arguments its method's contract accepted: decoded
  /// once, run directly; `done` gets its result or its error.
  private func start(
    _ tool: Tool, _ arguments: JSONObject, _ request: RequestContext,
    done: @escaping @Sendable (Result<JSONValue, any Error>) -> Void
  ) {
    switch tool.run {
    case .method:
      gateway.start(tool.method, arguments, for: request, Reply(done))
    case .lint:
      Reply(done).answer {
        let params = try ResolveParams(ParamsReader(arguments))
        return PayloadLint.json(try gateway.inbox.lint(params.payload, attributes: params.attributes, now: params.now))
      }
    }
  }
}
