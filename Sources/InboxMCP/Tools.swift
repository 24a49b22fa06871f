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

  func call(_ request: RequestContext) throws -> JSONValue {
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
    let tool = definition.tool
    do {
      let result = try run(tool, arguments, request)
      return [
        "content": [["type": "text", "text": .string(tool.text(result))]], "structuredContent": result,
        "isError": false,
      ]
    } catch let refusal where Self.isRefusal(refusal) {
      let failure = RPCError(refusal)
      return [
        "content": [["type": "text", "text": .string(ToolFailure.explain(failure, tool: name))]], "isError": true,
      ]
    }
  }

  /// What the engine and the store answer with (an RPC error or one that converts to it) is the
  /// tool's result; cancellation, and anything the transport itself must see (an internal failure,
  /// a request that has to move off the reader), stays a protocol-level outcome.
  private static func isRefusal(_ error: any Error) -> Bool {
    guard error is RPCError || error is RPCErrorConvertible else { return false }
    let code = RPCError(error).code
    return code != .requestCancelled && code != .internalError
  }

  /// Where a call runs: where the method it runs would run, so a sync leaves the reader free to
  /// read its cancel, and every other call keeps arrival order.
  func placement(_ params: JSONValue?) -> Method.Execution {
    guard let name = params?["name"]?.stringValue, let tool = definitions.first(where: { $0.tool.name == name })?.tool
    else { return .inline }
    return Operations.named(tool.method)?.execution ?? .inline
  }

  /// The use case behind the tool, on arguments its schema accepted: decoded once, run directly.
  private func run(_ tool: Tool, _ arguments: JSONValue, _ request: RequestContext) throws -> JSONValue {
    let object = arguments.objectValue ?? [:]
    switch tool.run {
    case .method:
      return try gateway.call(tool.method, object, for: request)
    case .lint:
      let params = try ResolveParams(ParamsReader(object))
      return PayloadLint.json(try gateway.inbox.lint(params.payload, attributes: params.attributes, now: params.now))
    }
  }
}
