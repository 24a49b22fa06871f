import InboxApp
import InboxSync
import JSON
import JSONRPC

/// `feed.sync {force?: false}` -> `{added, updated, removed, expired, pushed, pending, failed, throttled}`
/// (docs/sync.md#what-a-sync-does): pull-to-refresh.
///
/// Pushes every queued status change (an explicit sync does not wait for retry times), fetches the
/// inbox unless the last fetch is more recent than the minimum interval (10 s by default;
/// `force: true` fetches anyway, `throttled` says when it did not), merges it, and pushes what the
/// merge made sendable. Notifies `sync.progress {stage, done?, total?}` (push, fetch, merge, done) and
/// `feed.changed {reason: "sync"}` once the merge has committed. Runs on the synchronizer's queue; `$/cancelRequest`
/// aborts a transfer in flight and answers -32800, leaving the store consistent. Errors: -32030
/// unavailable, -32031 refused, -32032 malformed reply, -32033 not configured, each with
/// `data.pushed` and `data.pending`; the local feed keeps working. A pull (`pull: true`) is refused
/// with `GestureDisabled` (-32005) before anything is sent while `pullToRefresh` is off.
enum FeedSync: DeferredOperation {
  typealias Params = FeedSyncParams
  static let name = "feed.sync"

  /// Queued behind the sync in progress, if any, on the synchronizer's own queue: no thread waits.
  static func start(_ params: FeedSyncParams, _ context: OperationContext, _ reply: Reply) {
    if params.pull == true {
      do { try context.inbox.allow(.pull) } catch {
        reply(.failure(error))
        return
      }
    }
    context.inbox.sync(
      force: params.force ?? false, observer: context.syncObserver(progress: true), cancellation: context.cancellation
    ) { outcome in
      reply(outcome.map(\.json).mapError { $0 })
    }
  }
}
