import InboxCore
import JSON
import Synchronization

/// Every user's inbox as the service keeps it: each a copy of the fixture, made on the user's
/// first call. Statuses only go up (1 delivered, 2 read, 3 opened, 4 deleted by the user, 5
/// deleted by the service); a message at 4 or 5 leaves the list, and one at 5 is reported in
/// `deleted`.
public final class BackendInbox: Sendable {
  /// One listed entry: the wire object as given, with its status kept apart.
  struct Entry: Sendable {
    var wire: JSONValue
    var order: String?
    var status: Int64
  }

  public struct Full: Error {}

  private let fixture: BackendFixture
  private let maxUsers: Int
  private let users = Mutex<[String: [Entry]]>([:])

  public init(_ fixture: BackendFixture, maxUsers: Int = 1024) {
    self.fixture = fixture
    self.maxUsers = maxUsers
  }

  private func entries() -> [Entry] {
    fixture.messages.map { wire in
      guard let object = wire.objectValue, object["inbox_id"] != nil else {
        return Entry(wire: wire, order: nil, status: 0)
      }
      let order = object["order"].flatMap { $0.stringValue ?? $0.intValue.map(String.init) }
      let status = object["status"].flatMap { $0.intValue ?? $0.stringValue.flatMap { Int64($0) } } ?? 1
      return Entry(wire: wire, order: order, status: status)
    }
  }

  private func withInbox<T>(_ user: String, _ body: (inout [Entry]) -> T) throws(Full) -> T {
    let result: T? = users.withLock { users in
      if users[user] == nil {
        guard users.count < maxUsers else { return nil }
        users[user] = entries()
      }
      return body(&users[user]!)
    }
    guard let result else { throw Full() }
    return result
  }

  /// The `response` of `getInboxMessages` for `user`.
  public func listing(for user: String) throws(Full) -> JSONValue {
    let (listed, deleted) = try withInbox(user) { inbox in
      let listed = inbox.filter { $0.status < 4 }.map(\.listed)
      let deleted = inbox.filter { $0.status == 5 }.compactMap { $0.wire["inbox_id"] }
      return (listed, deleted)
    }
    return [
      "messages": .array(listed), "deleted": .array(deleted + fixture.deleted), "next": "",
      "new_inbox": .int(Int64(listed.count)),
    ]
  }

  /// Applies one `inboxStatus`: the messages with that order take the status when it is higher.
  /// Returns whether any message changed.
  public func apply(status: Int64, order: String, for user: String) throws(Full) -> Bool {
    try withInbox(user) { inbox in
      var changed = false
      for index in inbox.indices where inbox[index].order == order && inbox[index].status < status {
        inbox[index].status = status
        changed = true
      }
      return changed
    }
  }
}

extension BackendInbox.Entry {
  /// The wire object with its current status, in the type the fixture gave it (a number or a string).
  var listed: JSONValue {
    // An entry without a status (the client reads it as delivered) is listed so until it changes.
    guard status > 0, var object = wire.objectValue, object["status"] != nil || status != 1 else { return wire }
    object["status"] = object["status"]?.stringValue != nil ? .string(String(status)) : .int(status)
    return .object(object)
  }
}
