import JSON

/// What the client said in `initialize` it can take, for the answers that have more than one form:
/// snippets in completions, the documentation's format, a tree of symbols, a cap on folding ranges.
struct ClientFeatures: Sendable, Equatable {
  /// `completionItem.snippetSupport`: an item may insert `"key": ${1}` with a placeholder.
  var snippets = false
  /// `completionItem.documentationFormat`, in the client's order of preference (none: a plain string).
  var documentationFormats: [String] = []
  /// `documentSymbol.hierarchicalDocumentSymbolSupport`: `DocumentSymbol` trees, else `SymbolInformation`.
  var symbolTree = false
  /// `foldingRange.rangeLimit`.
  var foldingRangeLimit: Int?

  init() {}

  init(_ capabilities: JSONValue?) {
    let document = capabilities?["textDocument"]
    let item = document?["completion"]?["completionItem"]
    snippets = item?["snippetSupport"]?.boolValue == true
    documentationFormats = item?["documentationFormat"]?.arrayValue?.compactMap(\.stringValue) ?? []
    symbolTree = document?["documentSymbol"]?["hierarchicalDocumentSymbolSupport"]?.boolValue == true
    foldingRangeLimit = document?["foldingRange"]?["rangeLimit"]?.intValue.map { Int(clamping: $0) }
  }

  /// A description as the client reads documentation: MarkupContent of the first format it lists
  /// that the server writes, else a plain string.
  func documentation(_ text: String) -> JSONValue {
    guard let format = documentationFormats.first(where: { $0 == "markdown" || $0 == "plaintext" }) else {
      return .string(text)
    }
    return ["kind": .string(format), "value": .string(text)]
  }
}
