import InboxApp
import JSON
import JSONRPC

/// `message.tap {id, performDefault?: true}` -> `{message, action, customData}` (docs/engine.md#row-taps):
/// marks the message read and opened, persistently, unless `performDefault` is false, and returns
/// its row action and custom data for the host to act on.
enum MessageTap: Operation {
  static let name = "message.tap"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: MessageTapParams, _ context: OperationContext) throws -> JSONValue {
    let outcome = try context.inbox.tap(id: params.id, performDefault: params.performDefault ?? true)
    context.report(outcome.effects)
    return [
      "message": outcome.cardJSON, "action": outcome.action.json,
      "customData": outcome.card.customData.map(JSONValue.object) ?? .null,
    ]
  }
}
