import InboxApp
import JSON
import LintReport

/// A payload's lint as a report subject: its schema problems, refusal and warnings as findings at
/// the places in the file they are about.
///
/// A schema problem sits at the offending value (for `required`, the object missing the member);
/// an engine warning at the field its code is about (`WarningPlace`), else at the payload, as a
/// refusal does; a language gap at the field that lacks the language. A verdict for one platform
/// of several says so in its name and in its engine warnings (`on android: ...`).
public enum LintFindings {
  public static func subject(
    _ report: PayloadLint.Report, in file: String, places: PayloadPlaces, payload: JSONValue
  )
    -> Report.Subject
  {
    func finding(
      _ pointer: JSONPointer, _ rule: String, _ severity: Severity, _ message: String, schemaPath: String? = nil
    ) -> Finding {
      let (start, end) = places.range(of: pointer, in: report)
      return Finding(
        file: file, position: start, end: end, pointer: pointer, ruleId: rule, severity: severity, message: message,
        schemaPath: schemaPath)
    }
    var findings = report.schemaProblems.map { problem in
      finding(problem.pointer, "schema", .error, "\(problem.path): \(problem.message)", schemaPath: problem.schemaPath)
    }
    if let refusal = report.refusal {
      findings.append(finding(report.pointer, "notInboxMessage", .error, "not an inbox message: \(refusal)"))
    }
    let verdict = report.platform.map { "on \($0.name): " } ?? ""
    let containers = WarningPlace.containers(payload)
    findings += report.warnings.map { warning in
      let place = WarningPlace.pointer(for: warning, in: containers).map(report.pointer.appending) ?? report.pointer
      return finding(place, warning.code.rawValue, .warning, verdict + warning.reason)
    }
    findings += report.languageGaps.map { gap in
      finding(report.pointer.appending(gap.field), LintRules.missingLanguage, .warning, gap.message)
    }
    findings += LabelFallbacks.messages(report).map { finding(report.pointer, LabelFallbacks.rule, .note, $0) }
    // `--explain`: each rule the resolver applied, at the field it read where the payload has one.
    findings += report.reasons.enumerated().map { index, reason in
      let place = reason.field.flatMap { WarningPlace.pointer(forKey: $0, in: containers) }
      return finding(
        place.map(report.pointer.appending) ?? report.pointer, LintRules.explain, .note,
        verdict + "\(index + 1). \(reason.text)")
    }
    return Report.Subject(file: file, name: report.verdictLabel, summary: summary(report), findings: findings)
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
  public static func subject(_ problem: LintInput.FileProblem) -> Report.Subject {
    Report.Subject(file: problem.finding.file, name: "file", summary: nil, findings: [problem.finding])
  }
}

/// Where each payload of a file starts, found in one walk of the array that holds them (or known
/// from reading the list a payload at a time), so a finding is placed from its payload rather than
/// from the file's start, and the objects and arrays on the way to it are walked once for all the
/// payload's findings (`ValueIndex`): a file of thousands of payloads, or a payload of thousands of
/// findings, costs time linear in its length.
public struct PayloadPlaces {
  private let index: ValueIndex
  /// Each payload's byte offset, by the payload's pointer.
  private var starts: [JSONPointer: Int] = [:]

  public init(_ text: SourceText, reports: [PayloadLint.Report]) {
    index = ValueIndex(text)
    for report in reports {
      guard let parent = Self.parent(report.pointer), let item = report.pointer.tokens.last.flatMap({ Int($0) })
      else { continue }
      let offsets = index.elements(ofArrayAt: index.offset(of: parent))
      if offsets.indices.contains(item) { starts[report.pointer] = offsets[item] }
    }
  }

  /// The one payload at `pointer`, which starts at byte `offset` of `text`.
  public init(_ text: SourceText, payloadAt pointer: JSONPointer, offset: Int) {
    index = ValueIndex(text)
    starts = [pointer: offset]
  }

  /// Where the value `pointer` names starts and ends (for a missing member, the object lacking it).
  func range(of pointer: JSONPointer, in report: PayloadLint.Report) -> (SourcePosition, SourcePosition) {
    let base = report.pointer.tokens
    let start =
      if let offset = starts[report.pointer], pointer.tokens.starts(with: base) {
        index.offset(of: JSONPointer(Array(pointer.tokens.dropFirst(base.count))), from: offset)
      } else {
        index.offset(of: pointer)
      }
    return (index.text.position(atOffset: start), index.text.position(atOffset: index.end(ofValueAt: start)))
  }

  private static func parent(_ pointer: JSONPointer) -> JSONPointer? {
    pointer.tokens.isEmpty ? nil : JSONPointer(Array(pointer.tokens.dropLast()))
  }
}
