import InboxApp
import InboxContract
import JSON
import JSONRPC

/// The inbox as MCP resources: the first page of the feed, the counts, each message (the template
/// `inbox://message/{id}`, and one entry per visible message in `resources/list`), the journal
/// after a cursor (the template `inbox://changes{?since,limit}`), and the contract.
struct Resources: Sendable {
  let gateway: Gateway

  private static let json = "application/json"

  private static let fixed: [JSONValue] = [
    entry(ResourceURI.feed, "feed", "The inbox feed", "The first page of the feed, pinned first, then newest first."),
    entry(ResourceURI.counts, "counts", "Inbox counts", "Total, unread, unactioned and pinned visible messages."),
    entry(
      ResourceURI.contract, "openrpc.json", "The inbox-rpc contract",
      "The OpenRPC document: every method, notification, error and shape (Schemas/openrpc.json)."),
  ]

  private static func entry(_ uri: String, _ name: String, _ title: String, _ description: String) -> JSONValue {
    [
      "uri": .string(uri), "name": .string(name), "title": .string(title), "description": .string(description),
      "mimeType": .string(json),
    ]
  }

  /// `resources/list {cursor?}`: the fixed resources, then the visible messages a feed page at a time.
  func list(_ request: RequestContext) throws -> JSONValue {
    let cursor = try request.params.string("cursor")
    let page = try FeedList.run(FeedListParams(cursor: cursor, limit: 100), gateway.context(for: request))
    let messages = (page["items"]?.arrayValue ?? []).compactMap { card -> JSONValue? in
      guard let id = card["id"]?.stringValue else { return nil }
      let title = card["title"]?.stringValue ?? card["body"]?.stringValue ?? id
      return Self.entry(ResourceURI.message(id), id, title, "The card of message \(id).")
    }
    var result: JSONObject = ["resources": .array((cursor == nil ? Self.fixed : []) + messages)]
    if let next = page["nextCursor"], !next.isNull { result["nextCursor"] = next }
    return .object(result)
  }

  /// `resources/templates/list`.
  func templates(_ request: RequestContext) throws -> JSONValue {
    [
      "resourceTemplates": [
        Self.template(
          ResourceURI.messageTemplate, "message", "An inbox message",
          "The card of one visible message, by id (as list_feed and get_message show it)."),
        Self.template(
          ResourceURI.changesTemplate, "changes", "Changes after a cursor",
          "What list_changes answers: the changes after since (none: the cursor of now), oldest first, "
            + "at most limit (default 100), and the cursor to pass back as since. "
            + "CursorTooOld (-32021): list the feed again."),
      ]
    ]
  }

  private static func template(_ uri: String, _ name: String, _ title: String, _ description: String) -> JSONValue {
    [
      "uriTemplate": .string(uri), "name": .string(name), "title": .string(title), "description": .string(description),
      "mimeType": .string(json),
    ]
  }

  /// `resources/read {uri}` -> `{contents: [{uri, mimeType, text}]}`; an unknown URI or a message
  /// that is not visible is -32002 (resource not found), a changes cursor too old -32021 `{reason, uri}`.
  func read(_ request: RequestContext) throws -> JSONValue {
    let uri = try request.params.requiredString("uri")
    let value: JSONValue
    do {
      switch uri {
      case ResourceURI.feed: value = try FeedList.run(FeedListParams(), gateway.context(for: request))
      case ResourceURI.counts: value = try FeedCountsMethod.run(CustomDataParams(), gateway.context(for: request))
      case ResourceURI.contract: value = Contract.document
      default:
        if let params = ResourceURI.changesParams(uri) {
          value = try changes(params, request)
        } else if let id = ResourceURI.messageID(uri) {
          value = try MessageGet.run(MessageID(id: id), gateway.context(for: request))
        } else {
          throw Self.notFound(uri)
        }
      }
    } catch InboxError.messageNotFound {
      // A message id that names nothing visible is a resource that is not there.
      throw Self.notFound(uri)
    } catch let error as RPCErrorConvertible where error.rpcError.code == .cursorTooOld {
      // As the tool says it, with the URI that named the cursor, as resource errors carry it.
      var refusal = error.rpcError
      if case .object(var data)? = refusal.data {
        data["uri"] = .string(uri)
        refusal.data = .object(data)
      }
      throw refusal
    }
    return ["contents": [["uri": .string(uri), "mimeType": .string(Self.json), "text": .string(value.jsonString)]]]
  }

  /// `inbox://changes{?since,limit}`: the query checked by `feed.changes`' contract, as the tool's
  /// arguments are (a bad one is -32602 naming the member), then the journal read.
  private func changes(_ params: JSONObject, _ request: RequestContext) throws -> JSONValue {
    try ParamsContract.forMethod(FeedChanges.name)?.check(Params(.object(params)))
    return try FeedChanges.run(FeedChangesParams(ParamsReader(params)), gateway.context(for: request))
  }

  /// `resources/subscribe {uri}` / `resources/unsubscribe {uri}` -> `{}` (handshake revisions).
  /// Past `ChangeFeed.maxSubscriptions` URIs a subscription is -32602, saying to unsubscribe first.
  func subscribe(_ request: RequestContext, _ on: Bool) throws -> JSONValue {
    let uri = try request.params.requiredString("uri")
    guard ResourceURI.isKnown(uri) else { throw Self.notFound(uri) }
    if on {
      guard gateway.changes.subscribe(uri) else { throw Self.tooManySubscriptions("uri") }
    } else {
      gateway.changes.unsubscribe(uri)
    }
    return [:]
  }

  /// -32602 for a subscription past the cap (`param`: where the URIs were given).
  static func tooManySubscriptions(_ param: String) -> RPCError {
    .invalidParams(
      param,
      "at most \(ChangeFeed.maxSubscriptions) resource subscriptions per session; "
        + "unsubscribe from some (resources/unsubscribe) first")
  }

  static func notFound(_ uri: String) -> RPCError {
    RPCError(.resourceNotFound, "Resource not found: \(uri)", data: ["uri": .string(uri)])
  }
}

extension ErrorCode {
  /// MCP's "resource not found": an unknown URI, or a message that is not visible. `data: {uri}`.
  static let resourceNotFound = ErrorCode(rawValue: -32002)
}
