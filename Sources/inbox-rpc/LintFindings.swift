import InboxApp
import JSON
import LintReport

/// A payload's lint as a report subject: its schema problems, refusal and warnings as findings at
/// the places in the file they are about.
///
/// A schema problem sits at the offending value (for `required`, the object missing the member);
/// an engine warning at the field its code is about (`WarningPlace`), else at the payload, as a
/// refusal does.
enum LintFindings {
  static func subject(_ report: PayloadLint.Report, in input: LintInput, payload: JSONValue) -> Report.Subject {
    func finding(_ pointer: JSONPointer, _ rule: String, _ severity: Severity, _ message: String) -> Finding {
      Finding(
        file: input.file, position: input.text.position(of: pointer), pointer: pointer, ruleId: rule,
        severity: severity, message: message)
    }
    var findings = report.schemaProblems.map { problem in
      finding(problem.pointer, "schema", .error, "\(problem.path): \(problem.message)")
    }
    if let refusal = report.refusal {
      findings.append(finding(report.pointer, "notInboxMessage", .error, "not an inbox message: \(refusal)"))
    }
    findings += report.warnings.map { warning in
      let place = WarningPlace.pointer(for: warning, in: payload).map(report.pointer.appending) ?? report.pointer
      return finding(place, warning.code.rawValue, .warning, warning.reason)
    }
    return Report.Subject(file: input.file, name: report.label, summary: summary(report), findings: findings)
  }

  /// What the card becomes, as the text format's line about the payload says it.
  static func summary(_ report: PayloadLint.Report) -> String {
    guard let card = report.card else { return "not an inbox message" }
    var head = "\(card.kind.rawValue) card \"\(card.title ?? card.body ?? card.id)\""
    if let degradation = card.degradation { head += " (asked for \(degradation.from.rawValue))" }
    if !card.buttons.isEmpty { head += ", \(card.buttons.count) button(s)" }
    return head
  }

  /// A file that yields no payloads, as a subject of its own.
  static func subject(_ problem: LintInput.FileProblem) -> Report.Subject {
    Report.Subject(file: problem.finding.file, name: "file", summary: nil, findings: [problem.finding])
  }
}
