import JSON
import LintReport

/// Completion items as edits of the text at the cursor: the name or value being typed is replaced
/// by the word, quoted, and a member's name by `"name": ` with, where the client takes snippets, a
/// placeholder for its value (a choice of the values an enum allows, `"$1"` for a string, `{$1}`
/// for an object). In a string already opened, the edit starts after its opening quote, so the
/// word typed so far is the prefix every client filters by (Eglot 1.9 takes the symbol at point,
/// VS Code and Neovim the edit's start). Documentation comes in the format the client lists.
struct CompletionEdits {
  var features: ClientFeatures

  /// The bytes the chosen word replaces, and whether an opening quote before them is kept.
  struct Target: Equatable {
    var range: Range<Int>
    var afterQuote: Bool
  }

  /// The rest of the string the cursor is in (its closing quote included), else the bare word before it.
  static func target(_ bytes: [UInt8], at cursor: Int) -> Target {
    if let string = JSONCursor.string(bytes, around: cursor), string.lowerBound < cursor {
      return Target(range: (string.lowerBound + 1)..<max(string.upperBound, cursor), afterQuote: true)
    }
    var start = cursor
    while start > 0, isWordByte(bytes[start - 1]) { start -= 1 }
    return Target(range: start..<cursor, afterQuote: false)
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
      || (0x61...0x7A).contains(byte)
  }

  /// The items, each an edit of what is typed at byte `cursor` of `document`.
  func json(
    _ items: [SchemaCompletion.Item], at cursor: Int, in document: TextDocument, encoding: PositionEncoding
  ) -> [JSONValue] {
    let bytes = document.bytes
    let target = Self.target(bytes, at: cursor)
    let after = JSONScanner.skipSpace(bytes, target.range.upperBound)
    let colonFollows = after < bytes.count && bytes[after] == UInt8(ascii: ":")
    let range = Diagnostics.range(target.range.lowerBound, target.range.upperBound, in: document, encoding: encoding)
    return items.map { json($0, target: target, range: range, colonFollows: colonFollows) }
  }

  /// The item for `item`, its edit replacing `target` (`range`: its LSP form); `colonFollows`: a
  /// member's name is followed by its colon already.
  func json(_ item: SchemaCompletion.Item, target: Target, range: JSONValue, colonFollows: Bool) -> JSONValue {
    let quoted = JSONValue.string(item.label).jsonString
    let word = target.afterQuote ? String(quoted.dropFirst()) : quoted
    var newText = word
    var snippet = false
    if item.isKey, !colonFollows {
      newText += ": "
      if features.snippets, let placeholder = Self.placeholder(type: item.detail, choices: item.choices) {
        newText = Self.snippetText(word) + ": " + placeholder
        snippet = true
      }
    }
    var object: JSONObject = [
      "label": .string(item.label), "kind": .int(item.isKey ? 10 : 20),
      "textEdit": ["range": range, "newText": .string(newText)], "insertTextFormat": .int(snippet ? 2 : 1),
    ]
    if let detail = item.detail { object["detail"] = .string(detail) }
    if let documentation = item.documentation { object["documentation"] = features.documentation(documentation) }
    return .object(object)
  }

  /// A value's placeholder by its schema: the values it may take, else an empty one of its type.
  static func placeholder(type: String?, choices: [String]) -> String? {
    if !choices.isEmpty {
      let listed = choices.map { JSONValue.string($0).jsonString.dropFirst().dropLast() }
      return "\"${1|" + listed.map { choiceText(String($0)) }.joined(separator: ",") + "|}\""
    }
    switch type {
    case "string": return "\"$1\""
    case "object": return "{$1}"
    case "array": return "[$1]"
    case "boolean": return "${1|true,false|}"
    case "integer", "number": return "${1:0}"
    default: return nil
    }
  }

  /// Text in a snippet: `$`, `}` and `\` escaped so they stay text.
  static func snippetText(_ text: String) -> String {
    escaped(text, ["$", "}", "\\"])
  }

  /// A choice in `${1|a,b|}`: `,`, `|` and `\` escaped.
  static func choiceText(_ text: String) -> String {
    escaped(text, [",", "|", "\\"])
  }

  private static func escaped(_ text: String, _ special: Set<Character>) -> String {
    var out = ""
    for character in text {
      if special.contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }
}
