import JSON

/// The ways a `Report` can be written: `--format text|json|sarif|junit|github`.
///
/// Every format carries each finding's file, line, column, rule id, severity and message. Under
/// `failOn`, JUnit counts a subject as failed only for findings that fail the run, so the test
/// report and the exit status agree.
public enum ReportFormat: String, Sendable, CaseIterable {
  /// For people: a line per subject, then `file:line:column: severity [rule] message` per finding.
  case text
  /// `{"tool", "rules", "subjects": [{file, name, summary?, findings: [Finding.json]}]}`.
  case json
  /// SARIF 2.1.0, one run (`SARIFFormat`).
  case sarif
  /// JUnit XML, a test suite per file and a test case per subject (`JUnitFormat`).
  case junit
  /// GitHub Actions workflow commands, one `::error`/`::warning`/`::notice` line per finding.
  case github

  /// Reads `--format`'s value; nil for an unknown name.
  public init?(flag: String) { self.init(rawValue: flag) }

  /// The names, for usage text: `text|json|sarif|junit|github`.
  public static var names: String { allCases.map(\.rawValue).joined(separator: "|") }

  /// SARIF and JUnit write one document at the end of the run, of every file's subjects; the
  /// others write each file as it is linted.
  public var writesAtEnd: Bool { self == .sarif || self == .junit }

  /// The whole output, ending with a newline.
  public func render(_ report: Report, failOn: FailOn = .warning) -> String {
    switch self {
    case .text: TextFormat.render(report)
    case .json: Self.json(report).jsonString + "\n"
    case .sarif: SARIFFormat.document(report).jsonString + "\n"
    case .junit: JUnitFormat.render(report, failOn: failOn)
    case .github: WorkflowCommands.render(report)
    }
  }

  /// The JSON format's document.
  public static func json(_ report: Report) -> JSONValue {
    [
      "tool": ["name": .string(report.tool.name), "version": .string(report.tool.version)],
      "rules": .array(
        report.rules.map {
          ["id": .string($0.id), "summary": .string($0.summary), "severity": .string($0.severity.rawValue)]
        }),
      "subjects": .array(report.subjects.map(json)),
    ]
  }

  /// `{file, name, summary?, findings}`.
  public static func json(_ subject: Report.Subject) -> JSONValue {
    var object: JSONObject = ["file": .string(subject.file.escapingControlCharacters), "name": .string(subject.name)]
    if let summary = subject.summary { object["summary"] = .string(summary) }
    object["findings"] = .array(subject.findings.map(\.json))
    return .object(object)
  }
}
