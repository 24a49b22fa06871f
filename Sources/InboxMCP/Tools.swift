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

  /// Every tool by name, with the operation behind it, found once when the server starts.
  private let table: [String: Entry]

  private struct Entry: Sendable {
    let tool: Tool
    /// The use case it runs; nil for `lint_payload`, which runs the linter.
    let operation: AnyOperation?
  }

  init(gateway: Gateway, era: Era, selection: ToolSelection) {
    self.gateway = gateway
    self.era = era
    self.selection = selection
    definitions = ToolCatalog.all.map { $0.definition(in: Contract.document) }
    offered = definitions.filter { selection.offers($0.tool) }
    table = Dictionary(
      definitions.map { definition in
        let tool = definition.tool
        let operation = tool.run == .method ? Operations.named(tool.method) : nil
        return (tool.name, Entry(tool: tool, operation: operation))
      }, uniquingKeysWith: { first, _ in first })
  }

  func list(_ request: RequestContext) throws -> JSONValue {
    ["tools": .array(offered.map(\.json))]
  }

  /// What runs a call: a tool whose operation answers at once runs as a request does (a read, or a
  /// write the scheduler makes again while it is busy); `sync_inbox` and `download_wallet_pass`,
  /// which answer later, and a call the table does not find (its refusal), through `call`.
  func route(_ params: JSONValue?) -> Method.Body {
    guard let name = params?["name"]?.stringValue, let operation = table[name]?.operation else {
      return .deferred(call)
    }
    switch operation.run {
    case .now(let run):
      return .immediate { request in
        let (tool, arguments): (Tool, JSONObject)
        switch prepared(request) {
        case .success(let found): (tool, arguments) = found
        case .failure(let answer as Answered): return answer.result
        case .failure(let error): throw error
        }
        return try Self.result(tool, Result { try run(arguments, gateway.context(for: request)) }).get()
      }
    case .write(let write):
      return .write { request in
        let (tool, arguments): (Tool, JSONObject)
        switch prepared(request) {
        case .success(let found): (tool, arguments) = found
        case .failure(let answer as Answered): return .done(.success(answer.result))
        case .failure(let error): return .done(.failure(error))
        }
        // Busy once its patience has passed, the store's refusal is the tool's result too.
        return write(arguments, gateway.context(for: request)).mapOutcome { Self.result(tool, $0) }
      }
    case .later:
      return .deferred(call)
    }
  }

  /// Answers through `reply`: the tools that answer later (a sync may wait its turn behind
  /// another, holding no thread), the linter, and a call of a tool not found.
  func call(_ request: RequestContext, _ reply: Reply) {
    let tool: Tool
    let arguments: JSONObject
    switch prepared(request) {
    case .success(let found): (tool, arguments) = found
    case .failure(let answer as Answered): return reply.succeed(answer.result)
    case .failure(let error): return reply.fail(error)
    }
    start(tool, arguments, request) { outcome in reply(Self.result(tool, outcome)) }
  }

  /// A call already answered before its tool ran: arguments that break the tool's schema, in a
  /// revision that says so as a result.
  private struct Answered: Error {
    let result: JSONValue
  }

  /// The tool the request names and its arguments, checked.
  private func prepared(_ request: RequestContext) -> Result<(Tool, JSONObject), any Error> {
    let tool: Tool
    do {
      tool = try named(request)
    } catch {
      return .failure(error)
    }
    do {
      return .success((tool, try checked(tool, request)))
    } catch let error as RPCError where Revision.Features(era.revision(of: request.params)).inputErrorsAsResults {
      return .failure(Answered(result: Self.failure(ToolFailure.explain(error, tool: tool.name))))
    } catch {
      return .failure(error)
    }
  }

  /// The tool's result for the outcome of its use case: its text and structured content, or the
  /// engine's refusal in words an agent can act on.
  private static func result(_ tool: Tool, _ outcome: Result<JSONValue, any Error>) -> Result<JSONValue, any Error> {
    switch outcome {
    case .success(let result):
      .success([
        "content": [["type": "text", "text": .string(tool.text(result))]], "structuredContent": result,
        "isError": false,
      ])
    case .failure(let refusal) where isRefusal(refusal):
      .success(failure(ToolFailure.explain(RPCError(refusal), tool: tool.name)))
    case .failure(let error):
      .failure(error)
    }
  }

  private static func failure(_ text: String) -> JSONValue {
    ["content": [["type": "text", "text": .string(text)]], "isError": true]
  }

  /// The tool the request names, if this server offers it.
  private func named(_ request: RequestContext) throws -> Tool {
    let name = try request.params.requiredString("name")
    let names = JSONValue.array(offered.map { .string($0.tool.name) })
    guard let tool = table[name]?.tool else {
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
    guard let name = params?["name"]?.stringValue, let entry = table[name], selection.offers(entry.tool),
      let operation = entry.operation
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
      guard let operation = table[tool.name]?.operation else {
        return done(.failure(RPCError.methodNotFound(tool.method)))
      }
      operation.start(arguments, gateway.context(for: request), Reply(done))
    case .lint:
      Reply(done).answer {
        let params = try ResolveParams(ParamsReader(arguments))
        return PayloadLint.json(try gateway.inbox.lint(params.payload, attributes: params.attributes, now: params.now))
      }
    }
  }
}
