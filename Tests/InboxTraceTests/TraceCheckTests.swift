import Foundation
import JSON
import LintReport
import Testing

@testable import InboxTrace

/// A trace checked against the contract, subject by subject as each completes.
struct TraceCheckTests {
  /// The subjects `check-trace` reports for a trace of `records` (`{"t", "dir", "frame"}` each).
  static func subjects(_ records: [JSONValue]) throws -> [Report.Subject] {
    let path = NSTemporaryDirectory() + "trace-\(UUID().uuidString).trace"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = records.map { $0.jsonString + "\n" }.joined()
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    var found: [Report.Subject] = []
    try TraceContract().check(path) { found.append($0) }
    return found
  }

  static func record(_ direction: String, _ frame: JSONValue, at time: Int64 = 1_764_493_500_000) -> JSONValue {
    ["t": .int(time), "dir": .string(direction), "frame": frame]
  }

  @Test func eachSubjectComesWhenItsReplyComesAndAnUnansweredOneAtTheEnd() throws {
    let subjects = try Self.subjects([
      Self.record("in", ["jsonrpc": "2.0", "id": 1, "method": "feed.counts"]),
      Self.record("in", ["jsonrpc": "2.0", "id": 2, "method": "rpc.ping"]),
      Self.record("out", ["jsonrpc": "2.0", "id": 2, "result": "pong"]),
      Self.record("in", ["jsonrpc": "2.0", "method": "feed.nuke"]),
    ])
    #expect(subjects.map(\.name) == ["line 2: rpc.ping (id 2)", "line 4: feed.nuke", "line 1: feed.counts (id 1)"])
    #expect(subjects[0].findings.isEmpty)
    #expect(subjects[1].findings.map(\.ruleId) == ["unknown-method"])
    #expect(subjects[2].findings.map(\.ruleId) == ["no-reply"])
    #expect(subjects[2].findings.first?.position.line == 1)
  }

  @Test func aReplyIsCheckedAgainstItsRequestsResultSchema() throws {
    let subjects = try Self.subjects([
      Self.record("in", ["jsonrpc": "2.0", "id": "a", "method": "feed.counts"]),
      Self.record("out", ["jsonrpc": "2.0", "id": "a", "result": ["total": "many"]]),
    ])
    #expect(subjects.count == 1)
    #expect(subjects[0].findings.map(\.ruleId) == ["result"])
    #expect(subjects[0].findings.first?.position.line == 2)
  }

  @Test func whatIsAboutNoMessageOfTheHostsIsASubjectOfItsLine() throws {
    let subjects = try Self.subjects([
      Self.record("out", ["jsonrpc": "2.0", "id": 9, "result": "pong"]),
      Self.record("out", ["jsonrpc": "2.0", "method": "feed.exploded", "params": [:]]),
    ])
    #expect(subjects.map(\.name) == ["line 1: the trace", "line 2: the trace"])
    #expect(subjects.flatMap(\.findings).map(\.ruleId) == ["unmatched-reply", "unknown-notification"])
  }

  @Test func aRepliedRecordedValueDiffersByPath() {
    var diff = ReplyDiff()
    #expect(diff.firstDifference(["id": 1, "result": ["a": 1]], ["id": 1, "result": ["a": 1]]) == nil)
    let found = diff.firstDifference(["id": 1, "result": ["a": 1]], ["id": 1, "result": ["a": 2]])
    #expect(found?.contains("result.a") == true)
  }
}
