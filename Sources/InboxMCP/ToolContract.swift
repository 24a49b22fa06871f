import InboxApp
import JSON
import JSONSchema

/// The MCP tools' schemas as `tools/list` gives them, for a reader of a recorded MCP session
/// (`inbox-rpc check-trace`): each tool's `inputSchema`, and the `outputSchema` its
/// `structuredContent` must validate against.
public struct ToolContract: Sendable {
  public struct Schemas: Sendable {
    public let input: JSONValue
    public let output: JSONValue
  }

  public let tools: [String: Schemas]

  public init(contract: JSONValue = Contract.document) {
    var tools: [String: Schemas] = [:]
    for tool in ToolCatalog.all {
      let definition = tool.definition(in: contract)
      tools[tool.name] = Schemas(input: definition.inputSchema, output: definition.json["outputSchema"] ?? [:])
    }
    self.tools = tools
  }
}
