import JSON

/// The requests about a document's layout, which read its text alone (no lint): the outline,
/// formatting of the whole or a range, folding ranges.
extension LanguageServer {
  func documentSymbols(_ params: JSONValue?) -> JSONValue {
    // Another JSON file's outline is its JSON language server's to give.
    guard let (document, encoding, features) = open(params), PayloadKind.recognises(document.bytes),
      let value = try? JSONValue.parse(bytes: document.bytes[...])
    else { return [] }
    return DocumentOutline.json(
      DocumentOutline.symbols(value), in: document, encoding: encoding, tree: features.symbolTree)
  }

  /// `textDocument/formatting` and, with a `range`, `textDocument/rangeFormatting`: one edit that
  /// lays out the document's value, or the innermost object or array holding the range.
  func formatting(_ params: JSONValue?) -> JSONValue {
    guard let (document, encoding, _) = open(params) else { return [] }
    let bytes = document.bytes
    var span = JSONFormatter.documentSpan(bytes)
    if let range = params?["range"] {
      func offset(_ position: JSONValue?) -> Int {
        document.offset(
          line: Int(position?["line"]?.intValue ?? 0), character: Int(position?["character"]?.intValue ?? 0),
          encoding: encoding)
      }
      let (start, end) = (offset(range["start"]), offset(range["end"]))
      span = JSONFormatter.span(holding: start..<max(start, end), in: bytes)
    }
    guard
      let text = JSONFormatter.formatted(bytes, span: span, indent: JSONFormatter.indent(params?["options"]))
    else { return [] }
    return [
      [
        "range": Diagnostics.range(span.lowerBound, span.upperBound, in: document, encoding: encoding),
        "newText": .string(String(decoding: text, as: UTF8.self)),
      ]
    ]
  }

  func foldingRanges(_ params: JSONValue?) -> JSONValue {
    guard let (document, _, features) = open(params) else { return [] }
    return FoldingRanges.json(document, limit: features.foldingRangeLimit)
  }
}
