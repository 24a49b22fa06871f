import JSON

/// A reply the backend accepted: `{"status_code": 200, "status_message": "OK", "response": ..., "base_url"?}`.
///
/// `decode(method:httpStatus:body:)` is the one place that decides success, as every SDK does
/// (docs/sync.md#the-backend-contract): HTTP 200 **and** `status_code` 200 (a number or a numeric
/// string). Anything else is a `SyncError`: `.refused` for another HTTP status or `status_code`,
/// `.malformedReply` for an empty body, text that is not JSON, or a reply without a readable
/// `status_code`.
public struct BackendEnvelope: Sendable, Hashable {
  /// The `response` member; nil when absent or null (`inboxStatus` answers `null`).
  public var response: JSONValue?
  /// The `base_url` the backend asks later calls to use, as sent (checked by the caller).
  public var baseURL: String?
  /// For `getInboxMessages`, the items of `response.messages`, taken out of `response` and kept as
  /// spans of the reply's text: a sync parses, merges and lets go of one message at a time
  /// (`ListMerge`), so no tree of the whole reply is ever built.
  /// Nil otherwise, and when `messages` is not an array (it is then left in `response`).
  public var messageItems: JSONItems?
  /// For `getInboxMessages`, the reply body as received, to tell a reply that repeats the last one.
  public var body: [UInt8]?

  public init(response: JSONValue?, baseURL: String? = nil, messageItems: JSONItems? = nil, body: [UInt8]? = nil) {
    self.response = response
    self.baseURL = baseURL
    self.messageItems = messageItems
    self.body = body
  }

  /// True for a reply that repeats a known one and was not parsed: `response` and `messageItems`
  /// are nil, `parsed()` reads `body` when they are needed after all.
  public var isRepeat = false

  /// This reply again, unparsed, if `body` with `httpStatus` is it: decoding is a function of the two,
  /// and this one decoded without error.
  public func repeated(httpStatus: Int, body: [UInt8]) -> BackendEnvelope? {
    guard httpStatus == 200, let known = self.body, known == body else { return nil }
    var copy = BackendEnvelope(response: nil, baseURL: baseURL, body: known)
    copy.isRepeat = true
    return copy
  }

  /// The envelope with its `response` read: itself, or its body parsed again if it is a repeat.
  public func parsed() throws(SyncError) -> BackendEnvelope {
    guard isRepeat, let body else { return self }
    return try Self.decode(method: .getInboxMessages, httpStatus: 200, body: body)
  }

  /// Longest reply read by default (`--max-sync-reply-bytes`); a larger one is refused as malformed
  /// rather than filling the memory. 32 MiB holds 16,000 messages of 2 KiB: a real card is under
  /// 1 KiB (a title, a body, an image URL, action params) and a real inbox holds tens to hundreds of
  /// them, as the backend drops each when it expires; and it holds a reply with one message far past
  /// the per-message limit, so that message is skipped and the rest merged rather than the whole
  /// reply refused. A sync's peak memory grows with the reply (about twice its size: the reply
  /// copied out of the transfer; then the reply, one message's values, and the ids; see
  /// bench/RESULTS.md), so this limit is what bounds it.
  public static let maxReplyBytes = 32 * 1024 * 1024

  /// Reads an HTTP reply of `method`; `isCancelled` is asked while an inbox is parsed (a cancel
  /// throws `.cancelled`). The body is kept for telling a repeat only when `RepeatedReply` would.
  public static func decode(
    method: BackendMethod, httpStatus: Int, body: consuming [UInt8], location: String? = nil,
    isCancelled: (@Sendable () -> Bool)? = nil
  ) throws(SyncError) -> BackendEnvelope {
    let name = method.rawValue
    guard httpStatus == 200 else {
      let parsed = try? JSONValue.parse(bytes: body, options: JSONReadOptions(maxDepth: 64))
      // A refusal's body often says why; keep what it says, never fail on it.
      throw .refused(
        method: name, httpStatus: httpStatus, statusCode: parsed.flatMap { statusCode($0["status_code"]) },
        statusMessage: parsed?["status_message"]?.stringValue.map(clip), location: location)
    }
    guard body.contains(where: { !Self.isWhitespace($0) }) else {
      throw .malformedReply(method: name, path: "$", reason: "the reply body is empty")
    }
    let value: JSONValue
    var items: JSONItems?
    // Kept to tell a repeat only when `RepeatedReply` would keep it (the list's items share it).
    let kept = method == .getInboxMessages && body.count <= RepeatedReply.maxBodyBytes ? body : nil
    do {
      if method == .getInboxMessages {
        (value, items) = try JSONValue.parse(
          bytes: body, options: JSONReadOptions(maxDepth: 64), deferringItemsAt: ["response", "messages"],
          isCancelled: isCancelled ?? { false })
      } else {
        value = try JSONValue.parse(bytes: body, options: JSONReadOptions(maxDepth: 64))
      }
    } catch {
      if error.kind == .cancelled { throw .cancelled }
      throw .notJSON(method: name, error)
    }
    guard case .object(let object) = value else {
      throw .malformedReply(method: name, path: "$", reason: "the reply is \(value.typeName), not an object")
    }
    guard let code = statusCode(object["status_code"]) else {
      let found = object["status_code"].map { $0.typeName } ?? "missing"
      throw .malformedReply(
        method: name, path: "status_code", reason: "status_code is \(found); a number is required")
    }
    let message = object["status_message"]?.stringValue.map(clip)
    guard code == 200 else {
      throw .refused(method: name, httpStatus: httpStatus, statusCode: code, statusMessage: message, location: nil)
    }
    var response = object["response"]
    if response == .null { response = nil }
    return BackendEnvelope(
      response: response, baseURL: object["base_url"]?.stringValue, messageItems: response == nil ? nil : items,
      body: kept)
  }

  /// `200` or `"200"`.
  private static func statusCode(_ value: JSONValue?) -> Int64? {
    switch value {
    case .int(let number)?: return number
    case .double?: return value?.intValue
    case .string(let text)?: return Int64(text.trimmingWhitespace())
    default: return nil
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// A backend message kept to a sane length for an error's data.
  private static func clip(_ text: String) -> String {
    text.count > 500 ? String(text.prefix(500)) + "…" : text
  }
}
