import InboxApp
import JSON
import JSONRPC

/// `message.get {id}` -> `Card`.
public enum MessageGet: Operation {
  static let name = "message.get"

  public static func run(_ params: MessageID, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.card(id: params.id)
    context.report(result.effects)
    return result.json
  }
}
