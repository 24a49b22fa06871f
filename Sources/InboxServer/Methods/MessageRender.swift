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

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let params = request.params
    let payload = try params.value("payload")
    let id = try params.string("id")
    var attributes = server.attributes
    if let partial = try params.value("attributes") { attributes = try attributes.applying(partial) }
    var theme = PreviewPage.Theme.light
    if let name = try params.string("theme") {
      guard let chosen = PreviewPage.Theme(rawValue: name) else {
        throw RPCError.invalidParams("theme", "expected light or dark")
      }
      theme = chosen
    }

    let card: Card
    let warnings: [Warning]
    switch (payload, id) {
    case (let payload?, _):
      let context = IngestContext(id: id, now: try params.int("now") ?? server.clock.now)
      let resolution = try Engine.resolve(payload: payload, context: context, attributes: attributes)
      (card, warnings) = (resolution.card, resolution.warnings)
    case (nil, let id?):
      let stored = try server.visibleMessage(id)
      (card, warnings) = Resolver.resolve(try stored.message(), attributes: attributes, state: stored.localState)
    case (nil, nil):
      throw RPCError.invalidParams("id", "give the id of a stored message or a payload")
    }
    server.warnings.report(warnings, request)
    return [
      "id": .string(card.id),
      "kind": .string(card.kind.rawValue),
      "html": .string(PreviewPage.fragment(PreviewEntry(card: card, warnings: warnings), theme: theme)),
      "css": .string(PreviewStyle.css),
    ]
  }
}
