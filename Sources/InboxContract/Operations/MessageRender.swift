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
enum MessageRender: Operation {
  static let name = "message.render"

  static func run(_ params: RenderParams, _ context: OperationContext) throws -> JSONValue {
    let rendered = try context.inbox.render(params.source, attributes: params.attributes, theme: params.theme ?? .light)
    context.report(rendered.effects)
    return [
      "id": .string(rendered.card.id), "kind": .string(rendered.card.kind.rawValue),
      "html": .string(rendered.html), "css": .string(rendered.css),
    ]
  }
}
