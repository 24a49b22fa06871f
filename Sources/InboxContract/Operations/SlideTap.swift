import InboxApp
import InboxCore
import JSON
import JSONRPC

/// `slide.tap {id, slide}` -> `{action}`: the slide's url, or the message's row action when the
/// slide has none. Changes no state: the host opens what it gets (a row tap is `message.tap`).
enum SlideTap: RPCMethod {
  static let name = "slide.tap"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let outcome = try server.inbox.tapSlide(
      id: try params.required("id", params.string), index: try params.required("slide", params.index))
    server.report(outcome.effects, request)
    return ["action": outcome.action.json]
  }
}
