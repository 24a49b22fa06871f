import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `slide.tap {id, slide}` -> `{action}`: the slide's url, or the message's row action when the
/// slide has none. Changes no state: the host opens what it gets (a row tap is `message.tap`).
enum SlideTap: Operation {
  static let name = "slide.tap"

  static func run(_ params: SlideTapParams, _ context: OperationContext) throws -> JSONValue {
    let outcome = try context.inbox.tapSlide(id: params.id, index: params.slide)
    context.report(outcome.effects)
    return ["action": outcome.action.json]
  }
}
