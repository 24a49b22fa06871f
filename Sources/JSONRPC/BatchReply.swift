import JSON

/// The reply array of one batch, encoded member by member as each one finishes: a batch holds its
/// replies as bytes (not as trees, and never twice), and only as many as the budget allows.
struct BatchReply: ~Copyable {
  private let budget: ReplyBudget
  private var body: [UInt8] = [UInt8(ascii: "[")]
  private var reserved = 0
  private var members = 0

  init(budget: ReplyBudget) { self.budget = budget }

  /// Adds one member's reply; one that does not fit the budget is replaced by a -32600 naming the limit.
  mutating func append(_ reply: JSONValue) {
    var bytes = reply.serialized()
    if budget.reserve(bytes.count) {
      reserved += bytes.count
    } else {
      bytes = Response.error(id: reply["id"] ?? .null, .replyTooLarge(size: bytes.count, limit: budget.limit))
        .serialized()
    }
    if members > 0 { body.append(UInt8(ascii: ",")) }
    body.append(contentsOf: bytes)
    members += 1
  }

  /// The encoded array, or nil when no member had a reply (a batch of notifications); hands the
  /// budget back once `write` has sent it.
  consuming func finish(_ write: ([UInt8]) -> Void) {
    defer { budget.release(reserved) }
    guard members > 0 else { return }
    body.append(UInt8(ascii: "]"))
    write(body)
  }
}
