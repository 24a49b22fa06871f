import JSON
import Testing

@testable import InboxBackend

/// The double's answers, called directly (no listener): the token, statuses that only go up per
/// user, a deleted message gone from the list, and notifications listed as the service lists them.
@Suite struct BackendDoubleTests {
  private static let fixture: JSONValue = [
    ["inbox_id": "a", "order": "11", "text": "A", "status": "1"],
    ["inbox_id": "b", "order": 12, "text": "B", "status": 1],
    ["inbox_id": "gone", "order": "13", "text": "G", "status": 5],
  ]

  private func double(token: String? = "t", faults: [FaultRule] = []) throws -> BackendDouble {
    var settings = BackendDouble.Settings()
    settings.token = token
    let inbox = BackendInbox(try BackendFixture.read(Self.fixture, now: 1_000))
    return BackendDouble(settings: settings, inbox: inbox, faults: FaultPlan(faults), log: nil)
  }

  private func call(_ double: BackendDouble, _ method: String, _ fields: JSONObject = [:], token: String? = "t")
    throws -> (status: Int, reply: JSONValue?)
  {
    var request: JSONObject = ["application": "A", "userId": "u"]
    for member in fields { request[member.key] = member.value }
    let reply = double.handle(
      HTTPRequest(
        method: "POST", path: "/json/1.3/\(method)", authorization: token.map { "Token \($0)" },
        body: JSONValue.object(["request": .object(request)]).serialized()))
    return (reply.status, try? JSONValue.parse(bytes: reply.body))
  }

  private func statuses(_ double: BackendDouble, user: String = "u") throws -> [String: String] {
    let listed = try call(double, "getInboxMessages", ["userId": .string(user)]).reply?["response"]?["messages"]
    var found: [String: String] = [:]
    for message in listed?.arrayValue ?? [] {
      found[message["inbox_id"]?.stringValue ?? ""] = message["status"].map { $0.stringValue ?? $0.jsonString }
    }
    return found
  }

  @Test func aWrongOrMissingTokenIsRefused() throws {
    let double = try double()
    #expect(try call(double, "getInboxMessages", token: "x").status == 401)
    #expect(try call(double, "getInboxMessages", token: nil).status == 401)
    #expect(try call(double, "getInboxMessages").status == 200)
    #expect(try call(try self.double(token: nil), "getInboxMessages", token: "anything").status == 200)
  }

  @Test func statusesOnlyGoUpKeepTheirTypeAndAreEachUsersOwn() throws {
    let double = try double()
    #expect(try statuses(double) == ["a": "1", "b": "1"])
    _ = try call(double, "inboxStatus", ["inbox_code": "11", "status": 3])
    _ = try call(double, "inboxStatus", ["inbox_code": "11", "status": 2])
    _ = try call(double, "inboxStatus", ["inbox_code": "12", "status": 4])
    #expect(try statuses(double) == ["a": "3"])
    #expect(try statuses(double, user: "v") == ["a": "1", "b": "1"])
    let deleted = try call(double, "getInboxMessages").reply?["response"]?["deleted"]
    #expect(deleted == ["gone"])
  }

  @Test func aStatusTheServiceDoesNotKnowIsAnArgumentError() throws {
    let reply = try call(try double(), "inboxStatus", ["inbox_code": "11", "status": 9]).reply
    #expect(reply?["status_code"] == 210)
  }

  @Test func aRefusingFaultLeavesTheRequestUnappliedAndADelayAppliesIt() throws {
    let double = try double(faults: [try FaultRule("inboxStatus:503"), try FaultRule("inboxStatus:delay=5")])
    #expect(try call(double, "inboxStatus", ["inbox_code": "11", "status": 2]).status == 503)
    #expect(try statuses(double)["a"] == "1")
    #expect(try call(double, "inboxStatus", ["inbox_code": "11", "status": 2]).status == 200)
    #expect(try statuses(double)["a"] == "2")
  }

  @Test func notificationsAreListedAsTheServiceListsThem() throws {
    let fixture = try BackendFixture.read(
      [
        "request": [
          "notifications": [
            ["ios_title": "T", "content": "B", "inbox_days": 2, "data": ["k": 1], "link": "https://e.com"],
            ["id": "given", "age": 60, "payload": ["content": "C", "inbox_days": 1]],
          ]
        ]
      ], now: 10_000)
    let first = fixture.messages[0]
    #expect(first["inbox_id"]?.stringValue?.hasPrefix("sr-") == true)
    #expect(first["order"] == "50000000000000001" && first["send_date"] == 10_000 && first["rt"] == 182_800)
    #expect(first["title"] == "T" && first["text"] == "B" && first["status"] == 1)
    #expect(first["action_params"] == #"{"l":"https://e.com","u":"{\"k\":1}"}"#)
    #expect(fixture.messages[1]["inbox_id"] == "given" && fixture.messages[1]["send_date"] == 9_940)
    #expect(fixture.messages[1]["order"] == "50000000000000002" && fixture.messages[1]["rt"] == 96_340)
  }
}
