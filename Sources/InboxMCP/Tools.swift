import InboxApp
import InboxContract
import JSON
import JSONRPC

/// `tools/list` and `tools/call`. Arguments that break a tool's input schema, and unknown tools,
/// are protocol errors (-32602); what the engine refuses (an unknown id, a button the card lacks,
/// a backend that cannot be reached) is a result with `isError: true` and words an agent can act on.
struct Tools: Sendable {
  let gateway: Gateway
  let definitions: [Tool.Definition]

  init(gateway: Gateway) {
    self.gateway = gateway
    definitions = ToolCatalog.all.map { $0.definition(in: Contract.document) }
  }

  func list(_ request: RequestContext) throws -> JSONValue {
    ["tools": .array(definitions.map(\.json))]
  }

  /// Answers through `reply`: at once for every tool but `sync_inbox`, whose sync may wait its turn
  /// behind another, holding no thread.
  func call(_ request: RequestContext, _ reply: Reply) {
    let tool: Tool
    let arguments: JSONValue
    do {
      (tool, arguments) = try checked(request)
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
        let failure = RPCError(refusal)
        reply.succeed([
          "content": [["type": "text", "text": .string(ToolFailure.explain(failure, tool: tool.name))]],
          "isError": true,
        ])
      case .failure(let error):
        reply.fail(error)
      }
    }
  }

  /// The tool named and its arguments, checked against its input schema.
  private func checked(_ request: RequestContext) throws -> (Tool, JSONValue) {
    let name = try request.params.requiredString("name")
    guard let definition = definitions.first(where: { $0.tool.name == name }) else {
      throw RPCError(
        .invalidParams, "Unknown tool: \(name)",
        data: ["param": "name", "reason": "no such tool", "tools": .array(definitions.map { .string($0.tool.name) })])
    }
    let arguments = try request.params.value("arguments") ?? .object([:])
    if let violation = definition.validator.violation(of: arguments, against: definition.inputSchema, at: "arguments") {
      throw RPCError(
        .invalidParams, "Invalid arguments for \(name): \(violation.path): \(violation.message)",
        data: ["param": .string(violation.path), "reason": .string(violation.message), "rule": .string(violation.rule)])
    }
    return (definition.tool, arguments)
  }

  /// What the engine and the store answer with (an RPC error or one that converts to it) is the
  /// tool's result; cancellation, and anything the transport itself must see (an internal failure,
  /// a request that has to move off the reader), stays a protocol-level outcome.
  private static func isRefusal(_ error: any Error) -> Bool {
    guard error is RPCError || error is RPCErrorConvertible else { return false }
    let code = RPCError(error).code
    return code != .requestCancelled && code != .internalError
  }

  /// Where a call runs: where the operation it runs would run (a write on the write lane, a sync
  /// started on the reader, as it answers later), and every other call keeps arrival order.
  func placement(_ params: JSONValue?) -> Method.Execution {
    guard let name = params?["name"]?.stringValue, let tool = definitions.first(where: { $0.tool.name == name })?.tool,
      let operation = Operations.named(tool.method)
    else { return .read }
    return operation.answersLater ? .read : operation.execution
  }

  /// Starts the use case behind the tool, on arguments its schema accepted: decoded once, run
  /// directly; `done` gets its result or its error.
  private func start(
    _ tool: Tool, _ arguments: JSONValue, _ request: RequestContext,
    done: @escaping @Sendable (Result<JSONValue, any Error>) -> Void
  ) {
    let object = arguments.objectValue ?? [:]
    switch tool.run {
    case .method:
      gateway.start(tool.method, object, for: request, Reply(done))
    case .lint:
      Reply(done).answer {
        let params = try ResolveParams(ParamsReader(object))
        return PayloadLint.json(try gateway.inbox.lint(params.payload, attributes: params.attributes, now: params.now))
      }
    }
  }
}
