import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `button.tap {id, button, performDefault?: true}` -> `{action, performed, message}` (docs/engine.md#button-taps).
///
/// `dismiss` and `markRead` are performed by the engine (persistently) unless `performDefault` is
/// false; `openURL` and `custom` are returned for the host to act on, never performed.
enum ButtonTap: Operation {
  static let name = "button.tap"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: ButtonTapParams, _ context: OperationContext) throws -> JSONValue {
    let outcome = try context.inbox.tapButton(
      id: params.id, index: params.button, performDefault: params.performDefault ?? true)
    context.report(outcome.effects)
    return ["action": outcome.action.json, "performed": .bool(outcome.performed), "message": outcome.cardJSON ?? .null]
  }
}
