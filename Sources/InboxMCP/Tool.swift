import JSON

/// One MCP tool: what it is called and promises (its entry in the contract's `x-mcp-tools`), the
/// JSON-RPC method whose contract gives its schemas, and how its result reads as text.
struct Tool: Sendable {
  /// What calling it does to the world, as MCP's annotations say it.
  struct Hints: Sendable {
    var readOnly = false
    var destructive = false
    var idempotent = false
    var openWorld = false
  }

  /// How it runs: a JSON-RPC method of the same name in the contract, or the payload linter.
  enum Run: Sendable {
    case method
    case lint
  }

  let name: String
  let title: String
  let description: String
  /// A few words for tables (docs/mcp.md) and the handshake's instructions.
  let summary: String
  let method: String
  /// The method's params the tool takes; nil for all of them.
  var params: [String]? = nil
  /// A contract shape for the output instead of the method's result.
  var outputShape: String? = nil
  var run: Run = .method
  let hints: Hints
  let text: @Sendable (JSONValue) -> String

  /// The tool as `tools/list` describes it, its schemas derived from `contract`.
  func definition(in contract: JSONValue) -> Definition {
    let input = ToolSchema.input(of: method, only: params, in: contract)
    let output =
      outputShape.map { ToolSchema.output(shape: $0, in: contract) } ?? ToolSchema.output(of: method, in: contract)
    let json: JSONValue = [
      "name": .string(name), "title": .string(title), "description": .string(description), "inputSchema": input,
      "outputSchema": output,
      // The title is the tool's own; annotations say only what a call does to the world.
      "annotations": [
        "readOnlyHint": .bool(hints.readOnly), "destructiveHint": .bool(hints.destructive),
        "idempotentHint": .bool(hints.idempotent), "openWorldHint": .bool(hints.openWorld),
      ],
    ]
    return Definition(tool: self, json: json, inputSchema: input)
  }

  /// A tool with its schemas resolved. (Its arguments are checked by its method's contract,
  /// `ParamsContract`, from which `inputSchema` is made.)
  struct Definition: Sendable {
    let tool: Tool
    let json: JSONValue
    let inputSchema: JSONValue
  }
}
