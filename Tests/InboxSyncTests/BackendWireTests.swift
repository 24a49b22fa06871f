import InboxCore
import JSON
import Testing

@testable import InboxSync

/// The wire rules: which base URLs are allowed, when a reply counts as success, how a page is read.
struct BackendWireTests {
  /// https anywhere; http only to loopback; never credentials, a query, another scheme.
  @Test(arguments: [
    ("https://api.example.com/json/1.3/", "https://api.example.com/json/1.3/"),
    ("https://api.example.com/json/1.3", "https://api.example.com/json/1.3/"),
    ("HTTPS://api.example.com", "https://api.example.com/"),
    ("http://127.0.0.1:8080/json/1.3/", "http://127.0.0.1:8080/json/1.3/"),
    ("http://127.1.2.3/", "http://127.1.2.3/"),
    ("http://localhost:9/x", "http://localhost:9/x/"),
    ("http://[::1]:8080/", "http://[::1]:8080/"),
    ("  https://api.example.com/  ", "https://api.example.com/"),
  ])
  func acceptedURL(_ input: String, _ normalised: String) throws {
    #expect(try BackendURL(input).string == normalised)
  }

  @Test(arguments: [
    ("http://api.example.com/", "not loopback"),
    ("http://128.0.0.1/", "not loopback"),
    ("http://10.0.0.1/", "not loopback"),
    ("http://localhost.example.com/", "not loopback"),
    ("http://[::2]/", "not loopback"),
    ("ftp://api.example.com/", "must use https"),
    ("file:///etc/passwd", "no host"),
    ("https://user:secret@api.example.com/", "must not carry credentials"),
    ("https://api.example.com/?token=secret", "query"),
    ("api.example.com", "not an absolute URL"),
    ("", "empty"),
  ])
  func refusedURL(_ input: String, _ fragment: String) {
    do {
      _ = try BackendURL(input)
      Issue.record("accepted \(input)")
    } catch {
      #expect(error.reason.contains(fragment), "\(error.reason)")
      #expect(!error.reason.contains("secret"), "a refused URL's secret part is never echoed")
    }
  }

  @Test func pushwooshDefaultURL() throws {
    #expect(
      try BackendURL.pushwooshDefault(application: "ABCDE-12345").string
        == "https://ABCDE-12345.api.pushwoosh.com/json/1.3/")
    #expect(throws: BackendURL.Invalid.self) { try BackendURL.pushwooshDefault(application: "a b/c") }
  }

  /// Success is HTTP 200 and status_code 200, nothing else.
  @Test(arguments: [
    (200, #"{"status_code":200,"status_message":"OK","response":null}"#, "ok"),
    (200, #"{"status_code":"200","response":{"messages":[]}}"#, "ok"),
    (200, #"{"status_code":210,"status_message":"Argument error","response":null}"#, "refused 200 210 Argument error"),
    (500, #"{"status_code":500,"status_message":"Internal"}"#, "refused 500 500 Internal"),
    (503, "Service Unavailable", "refused 503 - -"),
    (302, "", "refused 302 - -"),
    (200, "", "malformed $"),
    (200, "  \n", "malformed $"),
    (200, "{not json", "malformed $"),
    (200, "[1,2]", "malformed $"),
    (200, #"{"response":{}}"#, "malformed status_code"),
    (200, #"{"status_code":"OK"}"#, "malformed status_code"),
  ])
  func envelope(_ status: Int, _ body: String, _ expected: String) {
    do {
      _ = try BackendEnvelope.decode(method: .inboxStatus, httpStatus: status, body: Array(body.utf8))
      #expect(expected == "ok")
    } catch {
      switch error {
      case .refused(let method, let http, let code, let message, _):
        #expect(method == "inboxStatus")
        #expect(expected == "refused \(http) \(code.map(String.init) ?? "-") \(message ?? "-")")
      case .malformedReply(_, let path, _):
        #expect(expected == "malformed \(path)")
      default:
        Issue.record("unexpected \(error)")
      }
    }
  }

  @Test func envelopeKeepsBaseURLAndResponse() throws {
    let body = #"{"status_code":200,"response":{"messages":[]},"base_url":"https://x.example.com/json/1.3/"}"#
    let envelope = try BackendEnvelope.decode(method: .getInboxMessages, httpStatus: 200, body: Array(body.utf8))
    #expect(envelope.baseURL == "https://x.example.com/json/1.3/")
    // The list is left in the parser's tree, to be read one message at a time.
    #expect(envelope.response == [:])
    #expect(envelope.messageItems?.count == 0)
  }

  /// A page is read leniently; what cannot be read is skipped with a warning, never fatal.
  @Test func remoteInboxToleratesTheQuirks() throws {
    let response: JSONValue = [
      "messages": [
        wireMessage("ok", order: "1"),
        ["inbox_id": "no-order", "text": "t", "rt": "4102444800", "status": 1],
        ["inbox_id": "no-text", "order": "3"],
        ["order": "4", "text": "no id"],
        "not an object",
        wireMessage("ok", order: "5"),
        ["inbox_id": "obj", "order": 6, "text": "t", "action_params": ["l": "https://e.com"], "status": "3"],
      ],
      "deleted": ["gone", 77, ["bad"]],
      "next": "123",
    ]
    let inbox = try RemoteInbox.parse(response, now: 1_800_000_000)
    #expect(inbox.messages.map(\.id) == ["ok", "obj"])
    #expect(inbox.messages.map(\.order) == ["1", "6"])
    #expect(inbox.messages.last?.status == .opened)
    #expect(inbox.unreadableIDs == ["no-order", "no-text"])
    #expect(inbox.deleted == ["gone", "77"])
    #expect(inbox.next == "123")
    #expect(inbox.warnings.filter { $0.code == RemoteInbox.skipped }.count == 6)
  }

  @Test(
    arguments: [
      (nil, "response"), (JSONValue.array([]), "response"), (["deleted": []], "response.messages"),
      (["messages": nil], "response.messages"), (["messages": "[]"], "response.messages"),
    ] as [(JSONValue?, String)])
  func remoteInboxWithoutAListIsMalformed(_ response: JSONValue?, _ path: String) {
    do {
      _ = try RemoteInbox.parse(response, now: 0)
      Issue.record("accepted \(String(describing: response))")
    } catch {
      guard case .malformedReply(let method, let found, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(method == "getInboxMessages")
      #expect(found == path)
    }
  }

  /// Exponential, capped, jittered downwards, never negative.
  @Test func retryPolicy() {
    let policy = RetryPolicy(base: 5, cap: 3600, jitter: 0.5)
    #expect(policy.delay(afterFailures: 1, random: 0) == 5)
    #expect(policy.delay(afterFailures: 2, random: 0) == 10)
    #expect(policy.delay(afterFailures: 5, random: 0) == 80)
    #expect(policy.delay(afterFailures: 50, random: 0) == 3600)
    #expect(policy.delay(afterFailures: 1_000_000, random: 0) == 3600)
    #expect(policy.delay(afterFailures: 3, random: 0.999_999) > 10)
    #expect(policy.delay(afterFailures: 3, random: 1) == 10)
  }

  /// The token never shows in a description, whatever prints it.
  @Test func tokenIsRedacted() throws {
    let token = try #require(APIToken("  s3cr3t-token \n"))
    #expect(token.secret == "s3cr3t-token")
    #expect("\(token)" == "<API token>")
    #expect(String(reflecting: token) == "<API token>")
    #expect(APIToken(" \n") == nil)
  }
}
