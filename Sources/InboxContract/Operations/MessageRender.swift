import InboxApp
import InboxCore
import InboxPreview
import JSON
import JSONRPC

/// `message.render {id | payload, attributes?, now?, theme?}` -> `{id, kind, html, css}`: one card
/// drawn as InboxKit lays it out, for an editor extension or an admin page.
///
/// `id` draws a visible stored message under the attributes in force; `payload` resolves a payload
/// as `message.resolve` does, storing nothing. `html` is a fragment (the card and its notes: the
/// degradation and other warnings, dates, row action) in a `data-theme` wrapper, every payload
/// string escaped; `css` is the stylesheet it needs, the same for every card.
enum MessageRender: RPCMethod {
  static let name = "message.render"

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let source: RenderSource
    switch (params.value("payload"), params.string("id")) {
    case (let payload?, let id): source = .payload(payload, context: PayloadContext(id: id, now: params.int("now")))
    case (nil, let id?): source = .stored(id: id)
    case (nil, nil): throw RPCError.invalidParams("id", "give the id of a stored message or a payload")
    }
    let theme = params.string("theme").flatMap(PreviewPage.Theme.init(rawValue:)) ?? .light
    let rendered = try server.inbox.render(source, attributes: params.value("attributes"), theme: theme)
    server.report(rendered.effects, request)
    return [
      "id": .string(rendered.card.id), "kind": .string(rendered.card.kind.rawValue),
      "html": .string(rendered.html), "css": .string(rendered.css),
    ]
  }
}
