import InboxApp
import InboxCore
import InboxStore
import JSON
import JSONRPC

/// `feed.list {cursor?, limit?, unreadOnly?, kinds?, customData?}`.
public struct FeedListParams: OperationParams, Hashable {
  public var cursor: String?
  public var limit: Int?
  public var unreadOnly: Bool?
  public var kinds: [CardKind]?
  public var customData: CustomDataFilter?

  /// The params a face asks with itself (an MCP resource's page).
  public init(
    cursor: String? = nil, limit: Int? = nil, unreadOnly: Bool? = nil, kinds: [CardKind]? = nil,
    customData: CustomDataFilter? = nil
  ) {
    self.cursor = cursor
    self.limit = limit
    self.unreadOnly = unreadOnly
    self.kinds = kinds
    self.customData = customData
  }

  public init(_ params: ParamsReader) throws(RPCError) {
    cursor = try params.string("cursor")
    limit = try params.index("limit")
    unreadOnly = try params.bool("unreadOnly")
    // The contract admits only the kinds' names.
    kinds = try params.strings("kinds")?.compactMap(CardKind.init(rawValue:))
    customData = try params.customData()
  }

  public var page: PageRequest { PageRequest(cursor: cursor, limit: limit ?? PageRequest().limit) }
  public var filter: FeedFilter {
    FeedFilter(unreadOnly: unreadOnly ?? false, kinds: kinds.map(Set.init), customData: customData)
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("cursor", cursor.map(JSONValue.string))
    out.set("limit", limit.map { .int(Int64($0)) })
    out.set("unreadOnly", unreadOnly.map(JSONValue.bool))
    out.set("kinds", kinds.map { .array($0.map { .string($0.rawValue) }) })
    out.set("customData", customData?.json)
    return out.object
  }
}

/// `{customData?}`: `feed.counts`, `feed.markAllRead`, `feed.dismissRead`, `feed.dismissAll`.
public struct CustomDataParams: OperationParams, Hashable {
  public var customData: CustomDataFilter?

  public init(customData: CustomDataFilter? = nil) { self.customData = customData }
  public init(_ params: ParamsReader) throws(RPCError) { customData = try params.customData() }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("customData", customData?.json)
    return out.object
  }
}

extension ParamsReader {
  /// `customData`, the filter on a message's custom data; an empty object is no filter.
  func customData() throws(RPCError) -> CustomDataFilter? {
    guard let object = try object("customData") else { return nil }
    do {
      return try CustomDataFilter(object)
    } catch {
      throw .invalidParams(error.key.isEmpty ? "customData" : "customData.\(error.key)", error.reason)
    }
  }
}

/// `feed.sync {force?}`.
public struct FeedSyncParams: OperationParams, Hashable {
  public var force: Bool?
  /// The user pulled the feed to refresh: refused while `pullToRefresh` is off.
  public var pull: Bool?

  public init(_ params: ParamsReader) throws(RPCError) {
    force = try params.bool("force")
    pull = try params.bool("pull")
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("force", force.map(JSONValue.bool))
    out.set("pull", pull.map(JSONValue.bool))
    return out.object
  }
}
