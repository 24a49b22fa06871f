import InboxApp
import InboxPreview
import JSON
import JSONRPC

/// `message.ingest {payload, id?}`.
public struct IngestParams: OperationParams, Hashable {
  public var payload: JSONValue
  public var id: String?

  public init(_ params: ParamsReader) throws(RPCError) {
    payload = try params.required("payload", params.value)
    id = try params.string("id")
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("payload", payload)
    out.set("id", id.map(JSONValue.string))
    return out.object
  }
}

/// `message.resolve {payload, attributes?, id?, now?, perPlatform?}`; `lint_payload` takes its
/// payload, attributes and now.
public struct ResolveParams: OperationParams, Hashable {
  public var payload: JSONValue
  /// An AttributesPatch, merged over the attributes in force for this call.
  public var attributes: JSONValue?
  public var id: String?
  public var now: Int64?
  /// Also the card on each platform of a send request's `platforms`.
  public var perPlatform: Bool

  public init(_ params: ParamsReader) throws(RPCError) {
    payload = try params.required("payload", params.value)
    attributes = params.value("attributes")
    id = try params.string("id")
    now = try params.int("now")
    perPlatform = try params.bool("perPlatform") ?? false
  }

  public var context: PayloadContext { PayloadContext(id: id, now: now) }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("payload", payload)
    out.set("attributes", attributes)
    out.set("id", id.map(JSONValue.string))
    out.set("now", now.map(JSONValue.int))
    out.set("perPlatform", perPlatform ? .bool(true) : nil)
    return out.object
  }
}

/// `message.render {id | payload, attributes?, now?, theme?}`.
public struct RenderParams: OperationParams, Hashable {
  public var source: RenderSource
  public var attributes: JSONValue?
  public var theme: PreviewPage.Theme?

  public init(_ params: ParamsReader) throws(RPCError) {
    let context = PayloadContext(id: try params.string("id"), now: try params.int("now"))
    switch (params.value("payload"), context.id) {
    case (let payload?, _): source = .payload(payload, context: context)
    case (nil, let id?): source = .stored(id: id)
    case (nil, nil): throw RPCError.invalidParams("id", "give the id of a stored message or a payload")
    }
    attributes = params.value("attributes")
    // The contract admits only the themes' names.
    theme = try params.string("theme").flatMap(PreviewPage.Theme.init(rawValue:))
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    switch source {
    case .stored(let id): out.set("id", .string(id))
    case .payload(let payload, let context):
      out.set("payload", payload)
      out.set("id", context.id.map(JSONValue.string))
      out.set("now", context.now.map(JSONValue.int))
    }
    out.set("attributes", attributes)
    out.set("theme", theme.map { .string($0.rawValue) })
    return out.object
  }
}
