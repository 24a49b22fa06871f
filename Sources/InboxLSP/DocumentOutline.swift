import InboxCore
import JSON
import LintReport

/// `textDocument/documentSymbol`: the outline of a payload file. A createMessage request, its
/// notifications by title (else their text, else their place), and each notification's buttons
/// and slides by title. A file of notifications or a single payload has the same below its top.
/// As a tree of `DocumentSymbol` where the client takes one, else as flat `SymbolInformation`.
enum DocumentOutline {
  struct Symbol {
    var name: String
    var detail: String?
    var kind: Int64
    var pointer: JSONPointer
    /// The member whose value names it (`title`), selected when the symbol is chosen.
    var nameMember: String?
    var children: [Symbol] = []
  }

  /// LSP's SymbolKind values used.
  enum Kind {
    static let module: Int64 = 2
    static let field: Int64 = 8
    static let `struct`: Int64 = 23
    static let event: Int64 = 24
  }

  static func symbols(_ value: JSONValue) -> [Symbol] {
    if let notifications = value["request"]?["notifications"]?.arrayValue {
      let base = JSONPointer(["request", "notifications"])
      let request = Symbol(
        name: "request", detail: value["request"]?["application"]?.stringValue, kind: Kind.module,
        pointer: JSONPointer(["request"]),
        children: notifications.enumerated().map { payload($1, at: base.appending(index: $0), index: $0) })
      return [request]
    }
    if let items = value.arrayValue {
      return items.enumerated().map { payload($1, at: JSONPointer().appending(index: $0), index: $0) }
    }
    return value.objectValue == nil ? [] : [payload(value, at: JSONPointer(), index: nil)]
  }

  private static func payload(_ value: JSONValue, at pointer: JSONPointer, index: Int?) -> Symbol {
    let named = ["title", "content", "header", "android_header", "ios_title", "alert"].first { text(value[$0]) != nil }
    let fallback = index.map { "notification \($0)" } ?? "payload"
    var symbol = Symbol(
      name: named.flatMap { text(value[$0]) } ?? fallback, detail: nil, kind: Kind.struct, pointer: pointer,
      nameMember: named)
    // Custom data: a send request's `data`, a push payload's `u` or `userdata` (when not a string).
    guard let key = ["data", "u", "userdata"].first(where: { value[$0]?.objectValue != nil }), let data = value[key]
    else { return symbol }
    let at = pointer.appending(key)
    symbol.detail = data["displayType"]?.stringValue
    for (number, button) in (data["buttons"]?.arrayValue ?? []).enumerated() {
      symbol.children.append(
        Symbol(
          name: text(button["title"]) ?? "button \(number)",
          detail: button["action"]?.stringValue ?? text(button["url"]),
          kind: Kind.event, pointer: at.appending("buttons").appending(index: number),
          nameMember: text(button["title"]) == nil ? nil : "title"))
    }
    for (number, slide) in (data["carousel"]?.arrayValue ?? []).enumerated() {
      symbol.children.append(
        Symbol(
          name: text(slide["title"]) ?? "slide \(number)", detail: text(slide["image"]), kind: Kind.field,
          pointer: at.appending("carousel").appending(index: number),
          nameMember: text(slide["title"]) == nil ? nil : "title"))
    }
    return symbol
  }

  /// A text to name a symbol by: a non-blank string, or a language object's first one.
  private static func text(_ value: JSONValue?) -> String? {
    if let string = value?.stringValue?.trimmingWhitespace(), !string.isEmpty {
      return string.escapingControlCharacters
    }
    return value?.objectValue?.members.lazy.compactMap { text($0.value) }.first
  }

  /// The symbols as LSP answers them, placed in `document`.
  static func json(
    _ symbols: [Symbol], in document: TextDocument, encoding: PositionEncoding, tree: Bool
  ) -> JSONValue {
    let index = ValueIndex(SourceText(document.bytes))
    func span(_ pointer: JSONPointer) -> JSONValue {
      let start = index.offset(of: pointer)
      return Diagnostics.range(start, JSONScanner.valueEnd(document.bytes, at: start), in: document, encoding: encoding)
    }
    func node(_ symbol: Symbol) -> JSONValue {
      var object: JSONObject = [
        "name": .string(symbol.name), "kind": .int(symbol.kind), "range": span(symbol.pointer),
        "selectionRange": span(symbol.nameMember.map(symbol.pointer.appending) ?? symbol.pointer),
      ]
      if let detail = symbol.detail { object["detail"] = .string(detail) }
      if !symbol.children.isEmpty { object["children"] = .array(symbol.children.map(node)) }
      return .object(object)
    }
    guard !tree else { return .array(symbols.map(node)) }
    var flat: [JSONValue] = []
    func add(_ symbol: Symbol, in container: String?) {
      var object: JSONObject = [
        "name": .string(symbol.name), "kind": .int(symbol.kind),
        "location": ["uri": .string(document.uri), "range": span(symbol.pointer)],
      ]
      if let container { object["containerName"] = .string(container) }
      flat.append(.object(object))
      for child in symbol.children { add(child, in: symbol.name) }
    }
    for symbol in symbols { add(symbol, in: nil) }
    return .array(flat)
  }
}
