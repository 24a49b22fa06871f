import InboxApp
import JSON
import JSONRPC

/// `message.explain {payload, attributes?, now?}` -> `Explanation`: why a payload becomes its card,
/// the resolver's rules in order (docs/engine.md#explaining-a-card), storing nothing.
enum MessageExplain: Operation {
  static let name = "message.explain"

  static func run(_ params: ResolveParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.explain(
      payload: params.payload, context: params.context, attributes: params.attributes)
    context.report(result.effects)
    return result.json
  }
}
