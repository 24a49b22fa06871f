import InboxCore
import InboxStore
import JSON
import Testing

@testable import InboxSync

/// One merge rule: the local history, the fetched page, and what the merge must decide.
///
/// Local steps run against a real store (so rows and outbox are exactly what the engine makes), at
/// `ingestTime`; the merge runs at `mergeTime`. `feed` is `id:status` of the visible messages after
/// the merge, `outbox` is `id:status@order` of the queued changes.
struct MergeCase: CustomTestStringConvertible, Sendable {
  enum Step: Sendable {
    /// A message the backend listed before (ingested as a backend message).
    case synced(JSONValue)
    /// A push received, not listed by the backend yet.
    case push(String)
    case read(String)
    case open(String)
    case dismiss(String)
    /// The backend confirmed every queued change.
    case confirmAll
  }

  var name: String
  var local: [Step]
  var remote: [JSONValue]
  var deleted: [String] = []
  var added: [String] = []
  var updated: [String] = []
  var removed: [String] = []
  var expired: [String] = []
  var feed: [String]
  var outbox: [String] = []
  /// Rows kept as tombstones (dismissed or deleted): `id:status`.
  var tombstones: [String] = []

  var testDescription: String { name }

  static let ingestTime: Int64 = 1_700_000_000
  static let mergeTime: Int64 = 1_800_000_000
  static let past: Int64 = 1_750_000_000

  static let all: [MergeCase] = [
    MergeCase(
      name: "a new backend message is added", local: [], remote: [wireMessage("a", order: "101")],
      added: ["a"], feed: ["a:1"]),
    MergeCase(
      name: "an unchanged message changes nothing", local: [.synced(wireMessage("a", order: "101"))],
      remote: [wireMessage("a", order: "101")], feed: ["a:1"]),
    MergeCase(
      name: "a changed copy replaces the payload and counts as updated",
      local: [.synced(wireMessage("a", order: "101"))], remote: [wireMessage("a", order: "101", title: "New title")],
      updated: ["a"], feed: ["a:1"]),
    MergeCase(
      name: "the same message in the other wire shape is stored but is no update",
      local: [.synced(wireMessage("a", order: "101"))],
      remote: [
        [
          "inbox_id": "a", "order": 101, "rt": 4_102_444_800, "send_date": 1_700_000_000, "title": "Title a",
          "text": "Body", "action_type": "1", "action_params": ["l": "https://example.com"], "status": "1",
          "hash": "H-a",
        ]
      ], feed: ["a:1"]),
    MergeCase(
      name: "a message the list no longer has leaves",
      local: [.synced(wireMessage("a", order: "101")), .synced(wireMessage("b", order: "102"))],
      remote: [wireMessage("b", order: "102")], removed: ["a"], feed: ["b:1"]),
    MergeCase(
      name: "deleted on the server while read locally: stays while the read is pending",
      local: [.synced(wireMessage("a", order: "101")), .read("a")], remote: [], feed: ["a:2"], outbox: ["a:2@101"]),
    MergeCase(
      name: "deleted on the server while read locally: leaves once the read is confirmed",
      local: [.synced(wireMessage("a", order: "101")), .read("a"), .confirmAll], remote: [], removed: ["a"], feed: []),
    MergeCase(
      name: "an id in deleted leaves even with a pending change, which stays queued",
      local: [.synced(wireMessage("a", order: "101")), .read("a")], remote: [wireMessage("a", order: "101")],
      deleted: ["a"], removed: ["a"], feed: [], outbox: ["a:2@101"]),
    MergeCase(
      name: "a local dismiss of a message the server still returns: stays dismissed, queued once",
      local: [.synced(wireMessage("a", order: "101")), .dismiss("a")], remote: [wireMessage("a", order: "101")],
      feed: [], outbox: ["a:4@101"], tombstones: ["a:4"]),
    MergeCase(
      name: "a confirmed dismiss the server forgot is sent again",
      local: [.synced(wireMessage("a", order: "101")), .dismiss("a"), .confirmAll],
      remote: [wireMessage("a", order: "101")], feed: [], outbox: ["a:4@101"], tombstones: ["a:4"]),
    MergeCase(
      name: "a dismissed message the list no longer has stays a tombstone",
      local: [.synced(wireMessage("a", order: "101")), .dismiss("a"), .confirmAll], remote: [], feed: [],
      tombstones: ["a:4"]),
    MergeCase(
      name: "a push-only message not listed yet stays, and its read waits for an order",
      local: [.push("p"), .read("p")], remote: [], feed: ["p:2"], outbox: ["p:2@-"]),
    MergeCase(
      name: "a push-only message listed at last gets the order, its read becomes sendable",
      local: [.push("p"), .read("p")], remote: [wireMessage("p", order: "555")], updated: ["p"], feed: ["p:2"],
      outbox: ["p:2@555"]),
    MergeCase(
      name: "a push-only message the service deleted unlisted: it leaves, its orderless read is dropped",
      local: [.push("p"), .read("p")], remote: [], deleted: ["p"], removed: ["p"], feed: [], outbox: []),
    MergeCase(
      name: "a push-only message dismissed, then deleted unlisted: the tombstone and the dismiss go",
      local: [.push("p"), .dismiss("p")], remote: [], deleted: ["p"], feed: [], outbox: []),
    MergeCase(
      name: "a push-only message dismissed, then listed: stays dismissed, the dismiss gets the order",
      local: [.push("p"), .dismiss("p")], remote: [wireMessage("p", order: "555")], feed: [],
      outbox: ["p:4@555"], tombstones: ["p:4"]),
    MergeCase(
      name: "status downgrade from the server: the local read stays and is sent again",
      local: [.synced(wireMessage("a", order: "101")), .read("a"), .confirmAll],
      remote: [wireMessage("a", order: "101", status: 1)], feed: ["a:2"], outbox: ["a:2@101"]),
    MergeCase(
      name: "opened locally and pending, read on the server: opened stays, nothing queued twice",
      local: [.synced(wireMessage("a", order: "101")), .open("a")],
      remote: [wireMessage("a", order: "101", status: 2)], feed: ["a:3"], outbox: ["a:2@101", "a:3@101"]),
    MergeCase(
      name: "the server is ahead (opened on another device): the status rises",
      local: [.synced(wireMessage("a", order: "101"))], remote: [wireMessage("a", order: "101", status: 3)],
      updated: ["a"], feed: ["a:3"]),
    MergeCase(
      name: "deleted by the user elsewhere (status 4): leaves, kept as a tombstone",
      local: [.synced(wireMessage("a", order: "101"))], remote: [wireMessage("a", order: "101", status: 4)],
      removed: ["a"], feed: [], tombstones: ["a:4"]),
    MergeCase(
      name: "deleted by the service (status 5): leaves, kept as a tombstone",
      local: [.synced(wireMessage("a", order: "101")), .read("a")],
      remote: [wireMessage("a", order: "101", status: 5)], removed: ["a"], feed: [], outbox: ["a:2@101"],
      tombstones: ["a:5"]),
    MergeCase(
      name: "a new message the server counts as deleted is not added", local: [],
      remote: [wireMessage("a", order: "101", status: 4), wireMessage("b", order: "102", status: 5)], feed: []),
    MergeCase(
      name: "an expired local message leaves as expired",
      local: [.synced(wireMessage("a", order: "101", rt: past)), .synced(wireMessage("b", order: "102"))],
      remote: [wireMessage("b", order: "102")], expired: ["a"], feed: ["b:1"]),
    MergeCase(
      name: "a listed message that has expired leaves, and a new expired one is not added",
      local: [.synced(wireMessage("a", order: "101"))],
      remote: [wireMessage("a", order: "101", rt: past), wireMessage("b", order: "102", rt: past)],
      expired: ["a"], feed: []),
    MergeCase(
      name: "an expired tombstone is purged without a count",
      local: [.synced(wireMessage("a", order: "101", rt: past)), .dismiss("a"), .confirmAll], remote: [], feed: []),
    MergeCase(
      name: "an unreadable copy (no order) does not remove the good local one",
      local: [.synced(wireMessage("a", order: "101"))],
      remote: [.object((wireMessage("a").objectValue ?? [:]).removing(["order"]))], feed: ["a:1"]),
    MergeCase(
      name: "an unreadable copy (no text) does not remove the good local one",
      local: [.synced(wireMessage("a", order: "101"))],
      remote: [.object((wireMessage("a").objectValue ?? [:]).removing(["text"]))], feed: ["a:1"]),
    MergeCase(
      name: "a dismissed message never comes back, whatever the list says",
      local: [.synced(wireMessage("a", order: "101")), .dismiss("a"), .confirmAll],
      remote: [wireMessage("a", order: "101", status: 1, title: "Again")], feed: [], outbox: ["a:4@101"],
      tombstones: ["a:4"]),
    MergeCase(
      name: "numbers as strings and action_params as an object are read alike",
      local: [],
      remote: [
        [
          "inbox_id": "s", "order": "7", "rt": "4102444800", "send_date": "1700000000", "text": "t", "status": "2",
          "action_type": "1", "action_params": ["l": "https://example.com"], "hash": "h",
        ],
        ["inbox_id": 12345, "order": 8, "rt": 4_102_444_800, "text": "t", "status": 1, "action_params": "{}"],
      ],
      added: ["s", "12345"], feed: ["12345:1", "s:2"]),
  ]
}

struct MergeTests {
  @Test(arguments: MergeCase.all)
  func mergeRule(_ rule: MergeCase) throws {
    let temp = try rule.prepare()
    let store = temp.store
    let remote = try RemoteInbox.parse(rule.response, now: MergeCase.mergeTime)

    let plan = try merge(store, remote)
    #expect(plan.added == rule.added, "added")
    #expect(plan.updated == rule.updated, "updated")
    #expect(plan.removed == rule.removed, "removed")
    #expect(plan.expired == rule.expired, "expired")
    #expect(try store.feed(now: MergeCase.mergeTime) == rule.feed.sorted(), "feed")
    #expect(try store.outboxSummary().sorted() == rule.outbox.sorted(), "outbox")
    let tombstones = try store.syncTransaction { try $0.messages() }.filter(\.isDismissed)
      .map { "\($0.id):\($0.status.rawValue)" }.sorted()
    #expect(tombstones == rule.tombstones.sorted(), "tombstones")

    // The same page merged again changes nothing: the merge converges in one step.
    let again = try merge(store, remote)
    #expect(again.isEmpty && again.added.isEmpty && again.updated.isEmpty && again.removed.isEmpty, "second merge")
  }

  private func merge(_ store: InboxStore, _ remote: RemoteInbox) throws -> MergePlan {
    try store.syncTransaction { transaction in
      let plan = Merge.plan(
        local: try transaction.messages(), pending: try transaction.pendingOutbox(), remote: remote,
        now: MergeCase.mergeTime)
      try plan.apply(to: transaction, now: MergeCase.mergeTime)
      return plan
    }
  }

  /// The plan is a value computed from its inputs alone: the same inputs give the same plan.
  @Test func planIsAPureFunctionOfItsInputs() throws {
    let temp = try TemporaryStore()
    try temp.store.ingest(wireMessage("a", order: "1"), now: MergeCase.ingestTime)
    try temp.store.ingest(pushPayload("p"), now: MergeCase.ingestTime)
    _ = try temp.store.markRead(ids: ["p"], now: MergeCase.ingestTime)
    let (local, pending) = try temp.store.syncTransaction { (try $0.messages(), try $0.pendingOutbox()) }
    let remote = try RemoteInbox.parse(
      ["messages": [wireMessage("b", order: "2"), wireMessage("p", order: "3")]], now: MergeCase.mergeTime)
    let first = Merge.plan(local: local, pending: pending, remote: remote, now: MergeCase.mergeTime)
    let second = Merge.plan(local: local, pending: pending, remote: remote, now: MergeCase.mergeTime)
    #expect(first == second)
    #expect(first.added == ["b"])
    #expect(first.removed == ["a"])
    #expect(first.orderFills == [MergePlan.OrderFill(messageID: "p", order: "3", hash: "H-p")])
    // The queued change keeps the hash it had (the push's `p`); only a missing one is filled.
    try temp.store.syncTransaction { try first.apply(to: $0, now: MergeCase.mergeTime) }
    #expect(try temp.store.outbox().map(\.hash) == ["P-p"])
  }

  /// A client never sends 5; it re-sends its own status only when it is ahead and at least "read".
  @Test(
    arguments: [
      (1, 1, nil), (2, 1, 2), (3, 2, 3), (4, 1, 4), (5, 1, 4), (2, 2, nil), (2, 3, nil), (5, 4, nil),
    ] as [(Int64, Int64, Int64?)])
  func resendStatus(local: Int64, server: Int64, expected: Int64?) {
    let status = Merge.resendStatus(local: MessageStatus(rawValue: local), server: MessageStatus(rawValue: server))
    #expect(status?.rawValue == expected)
  }
}

extension MergeCase {
  /// A store holding the rule's local state.
  func prepare() throws -> TemporaryStore {
    let temp = try TemporaryStore()
    let store = temp.store
    for step in local {
      switch step {
      case .synced(let payload): try store.ingest(payload, now: Self.ingestTime)
      case .push(let id): try store.ingest(pushPayload(id), now: Self.ingestTime)
      case .read(let id): _ = try store.markRead(ids: [id], now: Self.ingestTime)
      case .open(let id): _ = try store.markOpened(id: id, now: Self.ingestTime)
      case .dismiss(let id): _ = try store.dismiss(id: id, now: Self.ingestTime)
      case .confirmAll: for entry in try store.outbox() { try store.confirm(entry) }
      }
    }
    return temp
  }

  /// The backend's `response` of the rule.
  var response: JSONValue {
    ["messages": .array(remote), "deleted": .array(deleted.map(JSONValue.string))]
  }
}
