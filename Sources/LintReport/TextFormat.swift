import JSON

/// The text format: what a person reads in a terminal, with positions an editor can jump to.
///
/// ```
/// cards.json request.notifications[0]: classic card "Hi" (asked for carousel)
///   cards.json:7:19: warning [degraded] carousel has no usable slide: ...
/// cards.json request.notifications[1]: banner card "Sale"
///   ok
/// ```
enum TextFormat {
  /// Each subject's `lines`, each ended by a newline, appended to one string as they are made.
  static func render(_ report: Report) -> String {
    var text = ""
    for subject in report.subjects {
      text += heading(subject)
      text += "\n"
      for finding in subject.findings {
        text += "  "
        text += line(finding)
        text += "\n"
      }
      if subject.findings.isEmpty { text += "  ok\n" }
    }
    return text
  }

  /// A subject's lines: its name, then a line per finding, or `ok`.
  static func lines(_ subject: Report.Subject) -> [String] {
    var lines = [heading(subject)]
    for finding in subject.findings { lines.append("  " + line(finding)) }
    if subject.findings.isEmpty { lines.append("  ok") }
    return lines
  }

  /// `file name: summary`, control characters escaped.
  private static func heading(_ subject: Report.Subject) -> String {
    var text = subject.file
    text += " "
    text += subject.name
    if let summary = subject.summary {
      text += ": "
      text += summary
    }
    return text.escapingControlCharacters
  }

  /// `file:line:column: severity [rule] message`, the shape compilers print.
  /// Control characters in the file name or message are shown escaped.
  static func line(_ finding: Finding) -> String {
    let text =
      "\(finding.file):\(finding.position): \(finding.severity.rawValue) [\(finding.ruleId)] \(finding.message)"
    return text.escapingControlCharacters
  }
}
