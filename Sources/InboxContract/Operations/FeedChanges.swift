import InboxApp
import InboxStore
import JSON
import JSONRPC

/// `feed.changes {since?, limit?}` -> `{changes, cursor, more}`: what the store journalled after a
/// cursor, oldest first, from any process and across restarts (docs/many-processes.md#the-journal).
public enum FeedChanges: Operation {
  public static let name = "feed.changes"

  public static func run(_ params: FeedChangesParams, _ context: OperationContext) throws -> JSONValue {
    let inbox = context.inbox
    let (page, cursor) = try inbox.changes(since: params.since, limit: params.limit ?? FeedChangesParams.defaultLimit)
    let changes = page.entries.map { entry -> JSONValue in
      var object: JSONObject = [
        "id": .string(entry.id), "change": .string("\(entry.change)"), "cursor": .string(inbox.cursor(entry.seq)),
      ]
      if entry.change == .updated { object["fields"] = .array(entry.fields.names.map(JSONValue.string)) }
      return .object(object)
    }
    return ["changes": .array(changes), "cursor": .string(cursor), "more": .bool(page.more)]
  }
}

/// `feed.markAllSeen {customData?}` -> `{changed}`: the badge cleared as the inbox opens; kept in
/// the store alone.
enum FeedMarkAllSeen: Operation {
  static let name = "feed.markAllSeen"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: CustomDataParams, _ context: OperationContext) throws -> JSONValue {
    let result = try context.inbox.markAllSeen(customData: params.customData)
    context.report(result.effects)
    return ["changed": .int(Int64(result.seen.count))]
  }
}
