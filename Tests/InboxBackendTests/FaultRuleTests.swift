import Testing

@testable import InboxBackend

/// `--fault METHOD:KIND[:COUNT]`: each kind read, the bad ones refused with the grammar's words, and
/// the rules taken in order, each for its count.
@Suite struct FaultRuleTests {
  @Test(arguments: [
    ("inboxStatus:500:2", FaultRule(method: "inboxStatus", kind: .http(500), count: 2)),
    ("getInboxMessages:code=210", FaultRule(method: "getInboxMessages", kind: .code(210), count: 1)),
    ("*:delay=1500:*", FaultRule(method: nil, kind: .delay(1500), count: nil)),
    ("*:drip=300", FaultRule(method: nil, kind: .drip(300))),
    ("inboxStatus:reset", FaultRule(method: "inboxStatus", kind: .reset)),
    ("*:garbage", FaultRule(method: nil, kind: .garbage)),
    ("*:empty:3", FaultRule(method: nil, kind: .empty, count: 3)),
  ])
  func readsEachKind(_ text: String, _ expected: FaultRule) throws {
    #expect(try FaultRule(text) == expected)
  }

  @Test(arguments: [
    "inboxStatus", "send:500", "inboxStatus:200", "inboxStatus:600", "inboxStatus:code=200", "inboxStatus:delay=x",
    "inboxStatus:500:0", "inboxStatus:500:-1", "inboxStatus:500:2:1", "*:drip=0",
  ])
  func refusesWhatTheGrammarDoesNotSay(_ text: String) {
    #expect(throws: FaultRule.Invalid.self) { try FaultRule(text) }
  }

  @Test func rulesAreTakenInOrderEachForItsCount() throws {
    let plan = FaultPlan([try FaultRule("inboxStatus:500:2"), try FaultRule("*:reset")])
    #expect(plan.take(for: "getInboxMessages")?.kind == .reset)
    #expect(plan.take(for: "inboxStatus")?.kind == .http(500))
    #expect(plan.take(for: "inboxStatus")?.kind == .http(500))
    #expect(plan.take(for: "inboxStatus") == nil)
  }

  @Test func onlyDelayAndDripApplyTheRequest() {
    let kinds: [FaultRule.Kind] = [.http(500), .code(210), .delay(1), .drip(1), .reset, .garbage, .empty]
    #expect(kinds.filter(\.handlesRequest) == [.delay(1), .drip(1)])
  }
}
