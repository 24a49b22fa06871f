import InboxApp
import InboxCore
import JSON
import LintReport

/// The payloads of a file that lists them (an array of notifications, a createMessage request's
/// `notifications`), kept as spans of its text: each is parsed, linted and placed on its own, on
/// any core, so neither the tree of the whole file nor a walk of it on one core stands between
/// reading the file and reporting on it, and a corpus exported as one file costs what its payloads
/// as separate files cost.
public struct ListedPayloads: Sendable {
  public let file: String
  public let text: SourceText
  private let list: PayloadLint.PayloadList
  private let items: JSONItems
  /// Where the parsed text starts in the file (past a byte order mark).
  private let base: Int

  /// The list in `text`; nil when the file lists none, or breaks outside its items (it is then
  /// read whole, `LintInput.parse`, which says where).
  public init?(file: String, text: SourceText) {
    guard case .listed(let found) = Self.find(in: text.bytes) else { return nil }
    self.init(file: file, text: text, found)
  }

  private init(file: String, text: SourceText, _ found: Found) {
    (self.file, self.text, list, items, base) = (file, text, found.list, found.items, found.base)
  }

  /// A file's text and the list in it. A large file's lines are indexed (`SourceText`) while its
  /// items are found, each on a core of its own: both read the whole text before any payload can
  /// be linted.
  /// A large object that lists nothing comes back parsed (`whole`): it is not parsed twice.
  public static func read(file: String, bytes: [UInt8]) -> (
    text: SourceText, listed: ListedPayloads?, whole: JSONValue?
  ) {
    let (text, found) =
      bytes.count >= largeObject
      ? Parallel.both({ SourceText(bytes) }, { find(in: bytes) }) : (SourceText(bytes), find(in: bytes))
    switch found {
    case .listed(let found): return (text, ListedPayloads(file: file, text: text, found), nil)
    case .whole(let value): return (text, nil, value)
    case nil: return (text, nil, nil)
    }
  }

  /// What `find` reads of a text: the kind of list, its items, where the parsed text starts.
  private struct Found: Sendable {
    let list: PayloadLint.PayloadList
    let items: JSONItems
    let base: Int
  }

  /// What `find` made of a text.
  private enum Reading: Sendable {
    /// The list and its items.
    case listed(Found)
    /// A text read whole that lists no payloads (a large notification): its value.
    case whole(JSONValue)
  }

  /// The list in `bytes`, a file's text, or the value of a large object with none; nil when it
  /// lists none or breaks outside its items.
  private static func find(in bytes: [UInt8]) -> Reading? {
    let base = SourceText.bomLength(bytes)
    let json = bytes[base...]
    let first = json.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    let list: PayloadLint.PayloadList = first == UInt8(ascii: "[") ? .array : .requestNotifications
    // An object is read whole unless it is large: reaching a request's list parses the members on the
    // way one by one, which a single notification (the usual object file) would pay for nothing.
    guard list == .array || json.count >= Self.largeObject else { return nil }
    // The file's own bytes when no byte order mark comes first: no copy of a corpus's text.
    let parsed = base == 0 ? bytes : Array(json)
    guard let read = try? JSONValue.parse(bytes: parsed, options: LintInput.options, deferringItemsAt: list.path)
    else { return nil }
    // No list at the path: the value is whole, parsed as `LintInput.parse` would parse it.
    guard let items = read.items else { return list == .array ? nil : .whole(read.value) }
    return .listed(Found(list: list, items: items, base: base))
  }

  /// The size from which an object file is read a payload at a time.
  static let largeObject = 256 * 1024

  public var count: Int { items.count }

  /// Payload `index` linted, its findings placed in the file; nil when it is not JSON (the file
  /// is then read whole, which says where it breaks).
  public func lint(_ index: Int, attributes: Attributes, now: Int64, options: PayloadLint.Options)
    -> (reports: [PayloadLint.Report], subjects: [Report.Subject])?
  {
    guard let item = try? items.item(at: index), let payload = try? item.value() else { return nil }
    // The id a notification derives, written from the parser's tree rather than built again.
    let reports = PayloadLint.lint(
      item: payload, at: index, of: list, attributes: attributes, now: now, options: options,
      id: { StableID.derive(canonical: item.serializedSortingKeys()) })
    let places = PayloadPlaces(text, payloadAt: list.pointer(index), offset: base + items.span(at: index).lowerBound)
    return (reports, reports.map { LintFindings.subject($0, in: file, places: places, payload: payload) })
  }
}
