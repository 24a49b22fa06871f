import InboxCore
import JSON
import JSONRPC

/// `slide.tap {id, slide}` -> `{action}`: the slide's url, or the message's row action when the
/// slide has none. Changes no state: the host opens what it gets (a row tap is `message.tap`).
enum SlideTap: RPCMethod {
  static let name = "slide.tap"

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let id = try request.params.requiredString("id")
    let index = try request.params.int("slide") ?? { throw RPCError.invalidParams("slide", "required") }()
    let card = try server.card(server.visibleMessage(id), request)
    do {
      return ["action": try card.slideAction(index: Int(clamping: index)).json]
    } catch {
      throw RPCError.invalidParams("slide", error.reason)
    }
  }
}
