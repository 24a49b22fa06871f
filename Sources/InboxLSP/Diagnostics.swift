import JSON
import LintReport

/// Lint findings as LSP diagnostics, one a problem and place (`SharedFindings`): each over the
/// whole value it is about, with its severity, rule code and, where the rules' page is found
/// (`rulesPage`: docs/editors.md lists them, one anchor a rule), a link to the rule's description.
enum Diagnostics {
  static func href(_ rule: String, on rulesPage: String) -> String { "\(rulesPage)#rule-\(rule.lowercased())" }

  static func json(
    _ findings: [Finding], in document: TextDocument, encoding: PositionEncoding, rulesPage: String?
  ) -> JSONValue {
    // Where each value ends, found once: many findings sit at one large value (a language object).
    var ends: [Int: Int] = [:]
    return .array(
      SharedFindings.merged(findings).map { finding in
        let start = document.offset(lintLine: finding.position.line, column: finding.position.column)
        let end =
          finding.ruleId == "notJSON"
          ? min(start + 1, document.bytes.count) : ends.memo(start) { JSONScanner.valueEnd(document.bytes, at: start) }
        return diagnostic(finding, from: start, to: end, in: document, encoding: encoding, rulesPage: rulesPage)
      })
  }

  private static func diagnostic(
    _ finding: Finding, from start: Int, to end: Int, in document: TextDocument, encoding: PositionEncoding,
    rulesPage: String?
  ) -> JSONValue {
    var object: JSONObject = [
      "range": range(start, end, in: document, encoding: encoding),
      "severity": .int(severity(finding.severity)),
      "code": .string(finding.ruleId),
      "source": "inbox-rpc",
      // Plain text: clients show a diagnostic's message as it is, never as Markdown.
      "message": .string(finding.message),
    ]
    if let rulesPage { object["codeDescription"] = ["href": .string(href(finding.ruleId, on: rulesPage))] }
    // For tools: the value's pointer, and for a schema break the keyword's place in the schema.
    var data: JSONObject = [:]
    if let pointer = finding.pointer { data["pointer"] = .string(pointer.description) }
    if let schemaPath = finding.schemaPath { data["schemaPath"] = .string(schemaPath) }
    if !data.isEmpty { object["data"] = .object(data) }
    return .object(object)
  }

  static func range(_ start: Int, _ end: Int, in document: TextDocument, encoding: PositionEncoding) -> JSONValue {
    let from = document.position(ofOffset: start, encoding: encoding)
    let to = document.position(ofOffset: end, encoding: encoding)
    return [
      "start": ["line": .int(Int64(from.line)), "character": .int(Int64(from.character))],
      "end": ["line": .int(Int64(to.line)), "character": .int(Int64(to.character))],
    ]
  }

  private static func severity(_ severity: Severity) -> Int64 {
    switch severity {
    case .error: 1
    case .warning: 2
    case .note: 3
    }
  }
}

extension Dictionary {
  /// The value at `key`, made by `make` and kept the first time it is asked for.
  fileprivate mutating func memo(_ key: Key, _ make: () -> Value) -> Value {
    if let known = self[key] { return known }
    let made = make()
    self[key] = made
    return made
  }
}
