import InboxApp
import JSON
import JSONRPC

/// `message.dismiss {id, swipe?}` -> `{dismissed}` (false when it already was); persisted before the
/// reply (docs/engine.md#dismissal). A dismissed message never comes back. A swipe is refused with
/// `GestureDisabled` (-32005) while `swipeToDelete` is off.
enum MessageDismiss: Operation {
  static let name = "message.dismiss"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: MessageDismissParams, _ context: OperationContext) throws -> JSONValue {
    let outcome = try context.inbox.dismiss(id: params.id, swipe: params.swipe ?? false)
    context.report(outcome.effects)
    return ["dismissed": .bool(outcome.dismissed)]
  }
}
