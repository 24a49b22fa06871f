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
  static func render(_ report: Report) -> String {
    let lines = report.subjects.flatMap(lines)
    return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
  }

  /// A subject's lines: its name, then a line per finding, or `ok`.
  static func lines(_ subject: Report.Subject) -> [String] {
    var lines = [
      ("\(subject.file) \(subject.name)" + (subject.summary.map { ": \($0)" } ?? "")).escapingControlCharacters
    ]
    for finding in subject.findings { lines.append("  " + line(finding)) }
    if subject.findings.isEmpty { lines.append("  ok") }
    return lines
  }

  /// `file:line:column: severity [rule] message`, the shape compilers print.
  /// Control characters in the file name or message are shown escaped.
  static func line(_ finding: Finding) -> String {
    let text =
      "\(finding.file):\(finding.position): \(finding.severity.rawValue) [\(finding.ruleId)] \(finding.message)"
    return text.escapingControlCharacters
  }
}
