import JSON

/// The `github` format: GitHub Actions workflow commands, which the runner turns into annotations
/// on the pull request's lines: `::error file=cards.json,line=7,col=19,title=degraded::message`.
///
/// Escaping is GitHub's: in the message `%`, CR and LF become `%25`, `%0D`, `%0A`; in a property
/// value `:` and `,` also become `%3A` and `%2C`. A finding's message cannot end the command early
/// nor start another; other control characters are shown escaped (`\u001b`, as in every text for
/// people: `String.escapingControlCharacters`).
enum WorkflowCommands {
  static func render(_ report: Report) -> String {
    report.findings.map(command).map { $0 + "\n" }.joined()
  }

  static func command(_ finding: Finding) -> String {
    let properties = [
      ("file", finding.file), ("line", String(finding.position.line)), ("col", String(finding.position.column)),
      ("title", finding.ruleId),
    ]
    let listed = properties.map { "\($0)=\(escapeProperty($1))" }.joined(separator: ",")
    return "::\(level(finding.severity)) \(listed)::\(escapeData(finding.message))"
  }

  private static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .note: "notice"
    }
  }

  static func escapeData(_ text: String) -> String { escape(text, "%\r\n") }

  static func escapeProperty(_ text: String) -> String { escape(text, "%\r\n:,") }

  /// Each scalar of `text` listed in `special` as `%XX`; by scalar, since CR LF is one `Character`.
  private static func escape(_ text: String, _ special: String) -> String {
    var result = ""
    for scalar in text.escapingControlCharacters(keeping: ["\r", "\n"]).unicodeScalars {
      if special.unicodeScalars.contains(scalar) {
        result += "%" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
