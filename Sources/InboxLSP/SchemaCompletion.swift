import InboxApp
import JSON

/// Completion of member names and values from the input schemas in Schemas/ (the contract the
/// server embeds): the members the object at the cursor may have, and the values a member takes
/// (an `enum`, or the words of a case-insensitive pattern such as `displayType`'s kinds), each with
/// the schema's description as its documentation.
struct SchemaCompletion {
  struct Item: Equatable {
    var label: String
    var detail: String?
    var documentation: String?
    var isKey: Bool
    /// For a member: the values it takes (an `enum`, a caseless pattern's words), a snippet's choices.
    var choices: [String] = []
  }

  private let schemas: JSONObject

  init(document: JSONValue = Contract.document) {
    schemas = document["components"]?["schemas"]?.objectValue ?? [:]
  }

  /// What fits at `place` in a file whose top-level value is `root` (a request, notifications or a payload).
  func items(at place: JSONCursor.Place, rootIsRequest: Bool) -> [Item] {
    guard let schema = schema(at: place.pointer, rootIsRequest: rootIsRequest) else { return [] }
    if place.atKey {
      return properties(schema).map { name, member in
        Item(
          label: name, detail: type(member), documentation: description(member), isKey: true, choices: values(member))
      }
    }
    return values(schema).map {
      Item(label: $0, detail: type(schema), documentation: description(schema), isKey: false)
    }
  }

  /// The schema of the value at `pointer` in a file whose top-level value is a request (else a
  /// notification, a list of them or a payload).
  func schema(at pointer: [String], rootIsRequest: Bool) -> JSONValue? {
    var path = pointer[...]
    var schema: JSONValue?
    if rootIsRequest {
      schema = schemas["CreateMessageRequest"]
    } else {
      if let first = path.first, Int(first) != nil { path = path.dropFirst() }
      schema = schemas["SendRequestNotification"]
      if path.first == "u" {  // a push payload's custom data is the send request's `data`
        path = path.dropFirst()
        schema = schemas["MarketerData"]
      }
    }
    for token in path { schema = schema.flatMap { child($0, token) } }
    return schema
  }

  /// The schemas a value meets at once: itself, its `$ref` and the members of `allOf`/`anyOf`/`oneOf`.
  private func parts(_ schema: JSONValue, depth: Int = 0) -> [JSONValue] {
    guard depth < 16 else { return [] }
    var found = [schema]
    if let ref = schema["$ref"]?.stringValue, let name = ref.split(separator: "/").last,
      let target = schemas[String(name)]
    {
      found += parts(target, depth: depth + 1)
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
      for option in schema[keyword]?.arrayValue ?? [] { found += parts(option, depth: depth + 1) }
    }
    return found
  }

  private func properties(_ schema: JSONValue) -> [(String, JSONValue)] {
    var seen = Set<String>()
    var out: [(String, JSONValue)] = []
    for part in parts(schema) {
      for member in part["properties"]?.objectValue?.members ?? [] where seen.insert(member.key).inserted {
        out.append((member.key, member.value))
      }
    }
    return out
  }

  private func child(_ schema: JSONValue, _ token: String) -> JSONValue? {
    for part in parts(schema) {
      if Int(token) != nil, let items = part["items"] { return items }
      if let member = part["properties"]?[token] { return member }
    }
    return nil
  }

  private func values(_ schema: JSONValue) -> [String] {
    var out: [String] = []
    for part in parts(schema) {
      out += (part["enum"]?.arrayValue ?? []).compactMap(\.stringValue)
      if let constant = part["const"]?.stringValue { out.append(constant) }
      if let pattern = part["pattern"]?.stringValue {
        out += Self.words(ofCaseless: pattern, spelledAs: description(schema) ?? "")
      }
    }
    return out
  }

  /// The words of `^([Dd][Ii]...|...)$`, spelled as the description spells them (`markRead`).
  static func words(ofCaseless pattern: String, spelledAs description: String) -> [String] {
    guard pattern.hasPrefix("^("), pattern.hasSuffix(")$") else { return [] }
    let body = pattern.dropFirst(2).dropLast(2)
    let spelled = description.split(whereSeparator: { !$0.isLetter }).map(String.init)
    return body.split(separator: "|").compactMap { alternative -> String? in
      var word = ""
      var rest = Substring(alternative)
      while let open = rest.first {
        guard open == "[", rest.count >= 4, rest.dropFirst(3).first == "]" else { return nil }
        word.append(Character(rest.dropFirst().first!.lowercased()))
        rest = rest.dropFirst(4)
      }
      return spelled.first { $0.lowercased() == word } ?? word
    }
  }

  func description(_ schema: JSONValue) -> String? {
    parts(schema).lazy.compactMap { $0["description"]?.stringValue }.first
  }

  func type(_ schema: JSONValue) -> String? {
    parts(schema).lazy.compactMap { $0["type"]?.stringValue }.first
  }
}
