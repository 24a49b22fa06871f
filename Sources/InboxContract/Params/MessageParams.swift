import JSON
import JSONRPC

/// `{id}`: `message.get`, `video.play`, `wallet.download`.
public struct MessageID: OperationParams, Hashable {
  public var id: String

  public init(id: String) { self.id = id }
  public init(_ params: ParamsReader) throws(RPCError) { id = try params.required("id", params.string) }
  public var json: JSONObject { ["id": .string(id)] }
}

/// `message.dismiss {id, swipe?}`: `swipe` says the user swiped the row away.
public struct MessageDismissParams: OperationParams, Hashable {
  public var id: String
  public var swipe: Bool?

  public init(_ params: ParamsReader) throws(RPCError) {
    id = try params.required("id", params.string)
    swipe = try params.bool("swipe")
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("id", .string(id))
    out.set("swipe", swipe.map(JSONValue.bool))
    return out.object
  }
}

/// `message.tap {id, performDefault?}`.
public struct MessageTapParams: OperationParams, Hashable {
  public var id: String
  public var performDefault: Bool?

  public init(_ params: ParamsReader) throws(RPCError) {
    id = try params.required("id", params.string)
    performDefault = try params.bool("performDefault")
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("id", .string(id))
    out.set("performDefault", performDefault.map(JSONValue.bool))
    return out.object
  }
}

/// `button.tap {id, button, performDefault?}`.
public struct ButtonTapParams: OperationParams, Hashable {
  public var id: String
  public var button: Int
  public var performDefault: Bool?

  public init(_ params: ParamsReader) throws(RPCError) {
    id = try params.required("id", params.string)
    button = try params.required("button", params.index)
    performDefault = try params.bool("performDefault")
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("id", .string(id))
    out.set("button", .int(Int64(button)))
    out.set("performDefault", performDefault.map(JSONValue.bool))
    return out.object
  }
}

/// `slide.tap {id, slide, performDefault?}`.
public struct SlideTapParams: OperationParams, Hashable {
  public var id: String
  public var slide: Int
  public var performDefault: Bool?

  public init(_ params: ParamsReader) throws(RPCError) {
    id = try params.required("id", params.string)
    slide = try params.required("slide", params.index)
    performDefault = try params.bool("performDefault")
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("id", .string(id))
    out.set("slide", .int(Int64(slide)))
    out.set("performDefault", performDefault.map(JSONValue.bool))
    return out.object
  }
}

/// `feed.seen {appeared?, disappeared?}`.
public struct FeedSeenParams: OperationParams, Hashable {
  public var appeared: [String]
  public var disappeared: [String]

  public init(_ params: ParamsReader) throws(RPCError) {
    appeared = try params.strings("appeared") ?? []
    disappeared = try params.strings("disappeared") ?? []
  }

  public var json: JSONObject {
    ["appeared": .array(appeared.map(JSONValue.string)), "disappeared": .array(disappeared.map(JSONValue.string))]
  }
}

/// `message.markRead {ids}`.
public struct MarkReadParams: OperationParams, Hashable {
  public var ids: [String]

  public init(_ params: ParamsReader) throws(RPCError) { ids = try params.required("ids", params.strings) }
  public var json: JSONObject { ["ids": .array(ids.map(JSONValue.string))] }
}

/// No params: `feed.counts`, `feed.markAllRead`, `config.get`, `rpc.discover`, `shutdown`.
public struct NoParams: OperationParams, Hashable {
  public init(_ params: ParamsReader) throws(RPCError) {}
  public var json: JSONObject { [:] }
}
