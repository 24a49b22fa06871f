import InboxApp
import JSON
import JSONRPC

/// `feed.seen {appeared?, disappeared?}` -> `{seen, read, unknown}`: the rows on screen (the unread
/// ones become seen) and those that left it; with `automaticReadOnDisappear` on, the unread ones
/// that left become read in one transaction.
enum FeedSeen: Operation {
  static let name = "feed.seen"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: FeedSeenParams, _ context: OperationContext) throws -> JSONValue {
    let outcome = try context.inbox.seen(appeared: params.appeared, disappeared: params.disappeared)
    context.report(outcome.effects)
    return [
      "seen": .array(outcome.seen.map(JSONValue.string)),
      "read": .array(outcome.read.map(JSONValue.string)), "unknown": .array(outcome.unknown.map(JSONValue.string)),
    ]
  }
}
