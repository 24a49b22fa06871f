import InboxCore
import InboxStore
import JSON
import JSONRPC

/// `feed.list {cursor?, limit?, unreadOnly?, kinds?}` -> `{items, nextCursor, counts}` in feed order.
///
/// Keyset pages: a message never appears twice nor is skipped while a host pages, whatever is
/// inserted or dismissed between pages. `kinds` filters on the resolved kind, so the store is read
/// in batches until the page is full; at most `scanLimit` messages are read for one page, and a page
/// that hits it comes back short with a cursor to go on from.
enum FeedList: RPCMethod {
  static let name = "feed.list"
  static let defaultLimit = 20
  static let maxLimit = 200

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    let params = request.params
    let limit = Int(try params.int("limit") ?? Int64(defaultLimit))
    guard (1...maxLimit).contains(limit) else {
      throw RPCError.invalidParams("limit", "must be between 1 and \(maxLimit)")
    }
    let unreadOnly = try params.bool("unreadOnly") ?? false
    let kinds = try kindFilter(params)
    let unreadFirst = server.attributes.unreadFirst
    var cursor: FeedCursor?
    if let token = try params.string("cursor") {
      do {
        cursor = try FeedCursor(token: token, storeID: server.store.storeID, unreadFirst: unreadFirst)
      } catch {
        throw RPCError.invalidParams("cursor", error.reason)
      }
    }
    try server.purgeExpired(request)
    let now = server.clock.now

    var items: [JSONValue] = []
    var next: FeedCursor? = cursor
    var scanned = 0
    let scanLimit = max(10 * limit, 1_000)
    repeat {
      let batch = try server.store.page(
        after: next, limit: kinds == nil ? limit - items.count : limit, unreadOnly: unreadOnly,
        unreadFirst: unreadFirst, now: now)
      next = batch.next
      for stored in batch.messages {
        scanned += 1
        let card = try server.card(stored, request)
        guard kinds?.contains(card.kind) ?? true else { continue }
        items.append(card.json)
        if items.count == limit {
          // Full: resume right after this message (later ones of the batch are read again).
          next =
            batch.messages.last == stored ? batch.next : server.store.cursor(after: stored, unreadFirst: unreadFirst)
          break
        }
      }
    } while items.count < limit && next != nil && scanned < scanLimit

    return [
      "items": .array(items),
      "nextCursor": next.map { .string($0.token) } ?? .null,
      "counts": try server.store.counts(now: now).json,
    ]
  }

  private static func kindFilter(_ params: Params) throws -> Set<CardKind>? {
    guard let value = try params.value("kinds") else { return nil }
    guard let items = value.arrayValue else {
      throw RPCError.invalidParams("kinds", "expected an array of card kinds, got \(value.typeName)")
    }
    var kinds = Set<CardKind>()
    for (index, item) in items.enumerated() {
      guard let name = item.stringValue, let kind = CardKind(rawValue: name) else {
        throw RPCError.invalidParams(
          "kinds[\(index)]", "expected one of \(CardKind.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      kinds.insert(kind)
    }
    return kinds
  }
}
