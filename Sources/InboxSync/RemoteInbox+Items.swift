import InboxCore
import JSON

/// The listed items of a `getInboxMessages` response, read one at a time: by the merge of a sync,
/// which lets each message go before it reads the next, and by `RemoteInbox.parse`.
extension RemoteInbox {
  /// The response's list and the members beside it, checked as `RemoteInbox` describes.
  struct Listing {
    var items: Items
    var deleted: [String] = []
    var next: String?
    /// What was ignored in `deleted`.
    var warnings: [Warning] = []

    /// The listing of an envelope's response, its items as the parser left them.
    init(_ envelope: BackendEnvelope) throws(SyncError) {
      try self.init(response: envelope.response, items: envelope.messageItems)
    }

    /// `response`'s listing; `items`, when given, is its `messages`, taken out of it by the parser.
    init(response: JSONValue?, items deferred: JSONItems?) throws(SyncError) {
      let method = BackendMethod.getInboxMessages.rawValue
      guard let response else {
        throw .malformedReply(method: method, path: "response", reason: "response is missing or null")
      }
      guard case .object(let object) = response else {
        throw .malformedReply(
          method: method, path: "response", reason: "response is \(response.typeName), not an object")
      }
      if let deferred {
        items = .deferred(deferred)
      } else if case .array(let values)? = object["messages"] {
        items = .values(values)
      } else {
        let found = object["messages"].map { $0.typeName } ?? "missing"
        throw .malformedReply(
          method: method, path: "response.messages", reason: "messages is \(found); an array is required")
      }
      switch object["deleted"] {
      case nil, .null?: break
      case .array(let ids)?:
        for (index, value) in ids.enumerated() {
          if let id = RemoteInbox.identifier(value) {
            deleted.append(id)
          } else {
            warnings.append(skip("response.deleted[\(index)]", "a deleted id must be a string or an integer"))
          }
        }
      case let other?:
        warnings.append(skip("response.deleted", "deleted is \(other.typeName), not an array; ignored"))
      }
      next = object["next"].flatMap(RemoteInbox.identifier)
    }
  }

  /// The items of `messages`: spans of the reply's text, or values (a response built in memory).
  enum Items {
    case deferred(JSONItems)
    case values([JSONValue])

    var count: Int {
      switch self {
      case .deferred(let items): items.count
      case .values(let values): values.count
      }
    }

    /// Item `index`, read once for everything the reader asks of it.
    func entry(at index: Int) throws(JSONError) -> Entry {
      switch self {
      case .deferred(let items): .parsed(try items.item(at: index))
      case .values(let values): .value(values[index])
      }
    }
  }

  /// One listed item: parsed from the reply's text, or a value.
  enum Entry {
    case parsed(JSONItems.Item)
    case value(JSONValue)

    func text(upTo limit: Int) -> (text: String?, size: Int) {
      switch self {
      case .parsed(let item): return item.text(upTo: limit)
      case .value(let value):
        let text = value.jsonString
        return (text.utf8.count <= limit ? text : nil, text.utf8.count)
      }
    }

    func value() throws(JSONError) -> JSONValue {
      switch self {
      case .parsed(let item): try item.value()
      case .value(let value): value
      }
    }

    /// The `inbox_id` of an item that is an object, read alone.
    var id: String? {
      switch self {
      case .parsed(let item): RemoteInbox.identifier(item.member("inbox_id"))
      case .value(let value): RemoteInbox.identifier(value["inbox_id"])
      }
    }
  }

  /// Reads listed items one at a time through the engine, remembering what a merge needs of those
  /// it skipped: each skip's warning, and the ids of listed messages that could not be read.
  struct Reader {
    private let items: Items
    private let now: Int64
    private let limit: MessageSizeLimit
    private var seen = Set<String>()
    private(set) var unreadableIDs = Set<String>()
    private(set) var warnings: [Warning] = []

    /// Items read between two questions to `isCancelled`.
    static let itemsPerCheck = 256

    init(_ items: Items, now: Int64, limit: MessageSizeLimit) {
      self.items = items
      self.now = now
      self.limit = limit
    }

    /// The message listed at `index` with its payload text, or nil when it is skipped (with a
    /// warning): not an object, no `inbox_id`, listed twice (the first copy is kept), past the size
    /// limit, refused by the engine, or without an `order`.
    /// An item that is not JSON at all makes the reply not JSON (`SyncError.malformedReply`, thrown):
    /// the list's items are first parsed here (`JSONItems`).
    mutating func read(_ index: Int) throws(SyncError) -> (message: InboxMessage, payload: String)? {
      var place: String { "response.messages[\(index)]" }  // made only for a skip's warning
      let entry: Entry
      do {
        entry = try items.entry(at: index)
      } catch {
        if error.kind == .tooDeep { return skip(place, "it cannot be read: \(error)") }
        throw .notJSON(method: BackendMethod.getInboxMessages.rawValue, error)
      }
      guard let id = entry.id else {
        let value: JSONValue
        do { value = try entry.value() } catch { return skip(place, "it cannot be read: \(error)") }
        guard case .object = value else { return skip(place, "it is \(value.typeName), not an object") }
        return skip(place, "it has no inbox_id")
      }
      guard seen.insert(id).inserted else { return skip(id, "inbox_id \(id) is listed twice; the first copy is kept") }
      let (text, size) = entry.text(upTo: limit.bytes)
      guard let text else { return unreadable(id, limit.reason(size: size)) }
      let message: InboxMessage
      var warnings: [Warning] = []
      do throws(IngestError) {
        let value: JSONValue
        do { value = try entry.value() } catch {
          return unreadable(id, "it cannot be read: \(error.description)")
        }
        message = try InboxMessage.ingest(value, context: IngestContext(now: now), warnings: &warnings)
      } catch {
        return unreadable(id, error.reason)
      }
      guard message.order != nil else {
        return unreadable(id, "it has no readable order, so its status changes could not be sent")
      }
      self.warnings += warnings
      return (message, text)
    }

    private mutating func unreadable(_ id: String, _ reason: String) -> (InboxMessage, String)? {
      unreadableIDs.insert(id)
      return skip(id, reason)
    }

    private mutating func skip(_ subject: String, _ reason: String) -> (InboxMessage, String)? {
      warnings.append(RemoteInbox.skip(subject, reason))
      return nil
    }
  }

  /// The warning of an item the sync skipped.
  static func skip(_ subject: String, _ reason: String) -> Warning {
    Warning(messageId: subject, reason: "skipped by sync: " + reason, code: skipped)
  }
}
