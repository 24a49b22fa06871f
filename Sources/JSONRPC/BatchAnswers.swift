import JSON
import Synchronization

/// The members of one batch, answered as each finishes and in any order: the array is written
/// when the last has answered, so a member that answers later (a deferred method: a sync queued
/// behind another) holds no thread while the batch waits for it.
final class BatchAnswers: Sendable {
  private struct Members: ~Copyable {
    var reply: BatchReply?
    var waiting: Int
  }

  private let members: Mutex<Members>
  private let done: @Sendable (consuming BatchReply) -> Void

  /// `count` members; `done` gets the array once all have answered.
  init(budget: ReplyBudget, count: Int, done: @escaping @Sendable (consuming BatchReply) -> Void) {
    members = Mutex(Members(reply: BatchReply(budget: budget), waiting: count))
    self.done = done
  }

  /// One member has finished: `reply` is its reply, nil for a notification or a request a cancel
  /// answered already. Called once per member, from any thread.
  func answer(_ reply: JSONValue?) {
    let finished = members.withLock { members -> BatchReply? in
      if let reply { members.reply?.append(reply) }
      members.waiting -= 1
      return members.waiting == 0 ? members.reply.take() : nil
    }
    if let finished { done(finished) }
  }
}
