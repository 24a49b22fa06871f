import JSON
import Testing

@testable import InboxCore

/// The message model read from the three wire shapes (docs/engine.md#payload-shapes,
/// docs/sync.md#the-backend-contract).
@Suite struct IngestTests {
  private func ingest(_ payload: JSONValue, id: String? = nil, now: Int64 = 1_780_000_000) throws
    -> (message: InboxMessage, warnings: [Warning])
  {
    try Engine.ingest(payload: payload, context: IngestContext(id: id, now: now))
  }

  /// Backend: every field lands in the model; `order` keeps all digits, also past 2^53.
  @Test func backendFields() throws {
    let (message, warnings) = try ingest([
      "inbox_id": "avde1c792cd", "order": 9_007_199_254_740_993, "rt": "1893456000", "send_date": 1_780_000_000,
      "title": "New!", "text": "Hi!", "image": "https://cdn.example.com/i.png", "action_type": 1,
      "action_params": "{\"l\":\"https://example.com\",\"u\":\"{\\\"k\\\":1}\"}", "status": "4", "hash": "1C",
    ])
    #expect(warnings.isEmpty)
    #expect(message.id == "avde1c792cd")
    #expect(message.order == "9007199254740993")
    #expect(message.expiresAt == 1_893_456_000)
    #expect(message.sentAt == 1_780_000_000)
    #expect(message.title == "New!")
    #expect(message.body == "Hi!")
    #expect(message.image == "https://cdn.example.com/i.png")
    #expect(message.status == .deletedByUser)
    #expect(message.status.isRead && message.status.isActionPerformed && message.status.isDeleted)
    #expect(message.hash == "1C")
    #expect(message.source == .backend)
    #expect(message.actionParams["l"] == "https://example.com")
    #expect(message.customData == ["k": 1])
  }

  /// Backend: an order given as a string is kept verbatim (no float round trip).
  @Test func backendOrderString() throws {
    let (message, _) = try ingest(["inbox_id": "x", "order": " 123456789012345678 ", "rt": 1, "status": 1, "text": ""])
    #expect(message.order == "123456789012345678")
    #expect(message.body == nil)
  }

  /// Push: the whole payload is the action params, status delivered, no order, hash from `p`.
  @Test func pushFields() throws {
    let payload: JSONValue = [
      "aps": ["alert": ["title": "T", "body": "B"]], "pw_inbox": 42, "inbox_params": ["rt": "2026-06-30"],
      "p": "HASH", "l": "myapp://x",
    ]
    let (message, warnings) = try ingest(payload, id: "ignored")
    #expect(warnings.isEmpty)
    #expect(message.id == "42")
    #expect(message.expiresAt == 1_782_863_999)  // 2026-06-30T23:59:59Z, the iOS date form
    #expect(message.sentAt == 1_780_000_000)
    #expect(message.status == .delivered)
    #expect(message.order == nil)
    #expect(message.hash == "HASH")
    #expect(message.source == .push)
    #expect(JSONValue.object(message.actionParams) == payload)
  }

  /// Push: an inbox_params string that is not JSON warns; the message has no expiry and no image.
  @Test func pushBadInboxParams() throws {
    let (message, warnings) = try ingest(["pw_inbox": "p1", "header": "T", "title": "B", "inbox_params": "{rt"])
    #expect(message.expiresAt == nil && message.image == nil)
    #expect(message.title == "T" && message.body == "B")
    #expect(warnings.map(\.code) == [.invalidField])
    #expect(warnings.first?.reason.hasPrefix("inbox_params is a string that is not valid JSON") == true)
  }

  /// Send request: `inbox_date` wins over `inbox_days`; data becomes `u`; the caller's id is used.
  @Test func sendRequestDates() throws {
    let (message, warnings) = try ingest(
      ["inbox_date": "2026-06-30", "inbox_days": 2, "content": "B", "data": ["a": 1]], id: "given")
    #expect(warnings.isEmpty)
    #expect(message.id == "given")
    #expect(message.expiresAt == 1_782_863_999)
    #expect(message.actionParams == ["u": ["a": 1]])
    #expect(message.customData == ["a": 1])
    #expect(message.source == .sendRequest)
    #expect(message.status == .delivered)
  }

  /// Send request: a send_date that is neither "now" nor "YYYY-MM-DD HH:mm" warns and means now.
  @Test func sendRequestBadSendDate() throws {
    let (message, warnings) = try ingest(["inbox_days": 1, "send_date": "tomorrow"], id: "s", now: 1000)
    #expect(message.sentAt == 1000)
    #expect(message.expiresAt == Int64(1000 + 86_400))
    #expect(warnings.map(\.code) == [.invalidField])
    #expect(warnings.first?.messageId == "s")
  }

  /// The derived id ignores key order and whitespace, changes with any value, and ignores the send time.
  @Test func derivedIdIsStable() throws {
    let one = try JSONValue.parse(#"{"inbox_days": 7, "content": "B", "data": {"x": 1, "y": [1, 2]}}"#)
    let two = try JSONValue.parse(#"{"data":{"y":[1,2],"x":1},"content":"B","inbox_days":7}"#)
    let three = try JSONValue.parse(#"{"data":{"y":[2,1],"x":1},"content":"B","inbox_days":7}"#)
    let first = try ingest(one, now: 1).message.id
    #expect(first.hasPrefix("sr-") && first.count == 19)
    #expect(try ingest(two, now: 2).message.id == first)
    #expect(try ingest(three).message.id != first)
    #expect(StableID.derive(from: one) == first)
  }

  /// The id hashes the compact text with keys in UTF-8 byte order at every depth: upper case before
  /// lower, a key before its extensions, an accented key after every ASCII one.
  @Test func derivedIdHashesTheKeysInByteOrder() throws {
    let payload = try JSONValue.parse(
      #"{"é": 1, "b": {"ab": [{"z": 1, "Z": 2}], "a": null}, "B": "x\u00e9/", "a": 1.5}"#)
    let canonical = #"{"B":"xé/","a":1.5,"b":{"a":null,"ab":[{"Z":2,"z":1}]},"é":1}"#
    #expect(StableID.derive(from: payload) == "sr-" + StableHash.hex16(StableHash.fnv1a64(Array(canonical.utf8))))
  }

  /// Re-ingesting `raw` with the stored id and ingest time reproduces the message, for each shape.
  @Test(
    arguments: [
      ["inbox_id": "b", "order": "1", "rt": 5, "status": 2, "text": "t", "action_params": "{\"u\":\"{}\"}"],
      ["pw_inbox": "p", "aps": ["alert": "hi"], "inbox_params": "{\"rt\":\"9\"}"],
      ["inbox_days": 3, "content": "c", "data": "{\"pinned\":true}"],
    ] as [JSONValue])
  func reingestIsDeterministic(_ payload: JSONValue) throws {
    let (message, _) = try ingest(payload, now: 77)
    let (again, _) = try ingest(message.raw, id: message.id, now: message.ingestedAt)
    #expect(again == message)
  }

  /// The one lookup: root, then u (object or string), then userdata; a null at the root still stops it.
  @Test func lookupOrder() throws {
    let (message, _) = try ingest([
      "inbox_id": "l", "text": "t", "order": "1", "rt": 1, "status": 1,
      "action_params": [
        "a": "root", "n": nil, "u": "{\"a\":\"u\",\"b\":\"u\",\"n\":\"u\"}",
        "userdata": ["b": "userdata", "c": "userdata"],
      ],
    ])
    #expect(message.value(for: "a") == "root")
    #expect(message.value(for: "b") == "u")
    #expect(message.value(for: "c") == "userdata")
    #expect(message.value(for: "n") == .null)
    #expect(message.value(for: "missing") == nil)
    #expect(message.customData == ["a": "u", "b": "u", "n": "u"])
  }

  /// u given as an object and as the same JSON string normalise to the same custom data, once.
  @Test func customDataFormsAgree() throws {
    func custom(_ u: JSONValue) throws -> InboxMessage {
      try ingest(["inbox_id": "c", "text": "t", "order": "1", "rt": 1, "status": 1, "action_params": ["u": u]]).message
    }
    let fromObject = try custom(["promo": "X", "n": [1, 2]])
    let fromString = try custom("{\"promo\":\"X\",\"n\":[1,2]}")
    #expect(fromObject.customData == fromString.customData)
    #expect(fromString.data.customIssue == nil)
    let broken = try custom("[1]")
    #expect(broken.customData == nil)
    #expect(broken.data.customIssue == "custom data u is a JSON string that decodes to an array, not an object")
  }

  /// A blank u is no custom data and no warning.
  @Test func blankCustomDataIsAbsent() throws {
    let (message, warnings) = try ingest(
      ["inbox_id": "c", "text": "t", "order": "1", "rt": 1, "status": 1, "action_params": ["u": "  "]])
    #expect(message.customData == nil)
    #expect(warnings.isEmpty)
  }

  /// Refusals carry a reason that names what was wrong.
  @Test(
    arguments: [
      (5, "payload is an integer, not an object; an inbox message is a JSON object"),
      (
        ["inbox_id": ["x"], "text": "t"],
        "backend message lacks required field inbox_id (an array; a non-empty string or integer is required)"
      ),
      (["inbox_id": "x", "text": 3], "backend message x lacks required field text (an integer; a string is required)"),
      (["pw_inbox": nil], "push payload's pw_inbox is null; expected a non-empty inbox id"),
    ] as [(JSONValue, String)])
  func refuses(payload: JSONValue, reason: String) {
    #expect(throws: IngestError.notAnInboxMessage(reason: reason)) { try ingest(payload) }
  }
}
