import InboxApp
import JSON

/// One payload's resolved cards as `lint --snapshot` keeps them: a small JSON file named by the
/// payload's derived id (its card's id: a send request's `sr-…`, a push or backend message's own
/// id), holding where the payload was and each verdict's card (per platform and locale asked).
///
/// The text is the whole comparison: a snapshot matches when the file holds these bytes, and a
/// difference is shown as a diff of its lines (`LineDiff`).
public struct CardSnapshot: Sendable, Equatable {
  /// The derived id.
  public var id: String
  /// The file as named on the command line, and the payload's place in it.
  public var file: String
  public var label: String
  /// The file's text: 2-space indented JSON, ending in a line break.
  public var text: String

  /// The file name in the snapshot directory: the id, each byte outside RFC 3986's unreserved set
  /// percent-encoded (an id is any string a payload gives), a leading dot too (a hidden file is
  /// not listed), then `.json`.
  public var fileName: String {
    let encoded = PercentEncoding.encode(id, keeping: "")
    return (encoded.hasPrefix(".") ? "%2E" + encoded.dropFirst() : encoded) + ".json"
  }

  /// Where the payload is, as messages say it: `payloads/sale.json request.notifications[0]`.
  public var source: String { "\(file) \(label)" }

  /// The snapshots of a file's verdicts: one per payload the engine makes a card of (a refused
  /// payload has no card; its refusal is a finding). A payload's verdicts are consecutive.
  public static func snapshots(file: String, reports: [PayloadLint.Report]) -> [CardSnapshot] {
    var snapshots: [CardSnapshot] = []
    var start = reports.startIndex
    while start < reports.endIndex {
      let pointer = reports[start].pointer
      let end = reports[start...].firstIndex { $0.pointer != pointer } ?? reports.endIndex
      if let snapshot = snapshot(file: file, verdicts: reports[start..<end]) { snapshots.append(snapshot) }
      start = end
    }
    return snapshots
  }

  private static func snapshot(file: String, verdicts: ArraySlice<PayloadLint.Report>) -> CardSnapshot? {
    guard let first = verdicts.first, let id = first.card?.id else { return nil }
    let cards: [JSONValue] = verdicts.map { verdict in
      var object: JSONObject = [:]
      if let platform = verdict.platform { object["platform"] = .string(platform.name) }
      if let locale = verdict.locale { object["locale"] = .string(locale) }
      object["card"] = verdict.card?.json ?? .null
      return .object(object)
    }
    let document: JSONValue = [
      "id": .string(id), "source": ["file": .string(file), "payload": .string(first.label)], "verdicts": .array(cards),
    ]
    return CardSnapshot(id: id, file: file, label: first.label, text: IndentedJSON.text(document) + "\n")
  }
}

/// JSON as people read a file: one member or item a line, two spaces a level, members in their order.
enum IndentedJSON {
  static func text(_ value: JSONValue) -> String {
    var out = ""
    write(value, indent: "", into: &out)
    return out
  }

  private static func write(_ value: JSONValue, indent: String, into out: inout String) {
    let inner = indent + "  "
    if let object = value.objectValue, !object.isEmpty {
      out += "{\n"
      for (index, member) in object.members.enumerated() {
        out += inner + JSONValue.string(member.key).jsonString + ": "
        write(member.value, indent: inner, into: &out)
        out += index == object.count - 1 ? "\n" : ",\n"
      }
      out += indent + "}"
    } else if let items = value.arrayValue, !items.isEmpty {
      out += "[\n"
      for (index, item) in items.enumerated() {
        out += inner
        write(item, indent: inner, into: &out)
        out += index == items.count - 1 ? "\n" : ",\n"
      }
      out += indent + "]"
    } else {
      out += value.jsonString
    }
  }
}
