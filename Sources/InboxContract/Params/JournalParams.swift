import JSON
import JSONRPC

/// `feed.changes {since?, limit?}`.
public struct FeedChangesParams: OperationParams, Hashable {
  public var since: String?
  public var limit: Int?

  /// What a call without `limit` reads; the schema allows up to 1,000.
  public static let defaultLimit = 100

  public init(_ params: ParamsReader) throws(RPCError) {
    since = try params.string("since")
    limit = try params.int("limit").map { Int($0) }
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("since", since.map(JSONValue.string))
    out.set("limit", limit.map { .int(Int64($0)) })
    return out.object
  }
}
