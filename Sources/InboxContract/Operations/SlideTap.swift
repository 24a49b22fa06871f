import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `slide.tap {id, slide, performDefault?: true}` -> `{action, message}`: a slide with a url opens
/// it and marks the message read; one without is the row tap whole (read, opened, the row action).
/// `performDefault` false changes nothing.
enum SlideTap: Operation {
  static let name = "slide.tap"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: SlideTapParams, _ context: OperationContext) throws -> JSONValue {
    let outcome = try context.inbox.tapSlide(
      id: params.id, index: params.slide, performDefault: params.performDefault ?? true)
    context.report(outcome.effects)
    return ["action": outcome.action.json, "message": outcome.cardJSON]
  }
}
