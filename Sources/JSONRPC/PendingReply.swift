import JSON

/// The one reply a request owes, made when the request is accepted and consumed by the one path
/// that answers it with its handler's result or error; a cancel that reaches the request before
/// it starts answers -32800 through the same claim (`CancellationToken.claimReply`).
///
/// Noncopyable, so no path holds it twice; the claim it shares with the request's cancellation
/// token is atomic, so of the handler and a cancel only the first answers; and one dropped
/// without an answer (a defect) answers -32603 itself, so a request never goes unanswered.
struct PendingReply: ~Copyable {
  let id: JSONValue
  /// The token whose claim decides between the handler and a cancel; nil when nothing else can
  /// answer this request (inline requests: the reader cannot read a cancel while it runs them).
  private let token: CancellationToken?
  private let writer: OutputWriter
  private var answered = false

  init(id: JSONValue, token: CancellationToken?, writer: OutputWriter) {
    self.id = id
    self.token = token
    self.writer = writer
  }

  /// The reply to write for `outcome`, or nil when a cancel has answered already.
  consuming func answer(_ outcome: Result<JSONValue, RPCError>) -> JSONValue? {
    let claimed = token?.claimReply() ?? true
    let reply: JSONValue =
      switch outcome {
      case .success(let result): Response.result(id: id, result)
      case .failure(let error): Response.error(id: id, error)
      }
    answered = true
    // Not `claimed ? reply : nil`: JSONValue takes nil as a literal, so that would answer `null`.
    guard claimed else { return nil }
    return reply
  }

  deinit {
    guard !answered, token?.claimReply() ?? true else { return }
    writer.send(
      Response.error(id: id, RPCError(.internalError, "Internal error", data: ["reason": "the request was dropped"])))
  }
}
