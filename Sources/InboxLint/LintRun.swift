import InboxApp
import InboxPreview
import LintReport

/// What a run has seen so far: whether it fails, and what the formats that write once at the end
/// (SARIF, JUnit) and the HTML page need.
public struct LintRun {
  static let tool = Report.Tool(name: "inbox-rpc lint", version: ServerInfo.version)

  let format: ReportFormat
  let failOn: FailOn
  let keepsEntries: Bool
  private var kept: [Report.Subject] = []
  public private(set) var entries: [PreviewEntry] = []
  public private(set) var unreadable = false
  public private(set) var fails = false

  public init(format: ReportFormat, failOn: FailOn, keepsEntries: Bool) {
    self.format = format
    self.failOn = failOn
    self.keepsEntries = keepsEntries
  }

  /// Takes `files` in the order they were named; returns what the formats that write file by file
  /// say of them.
  public mutating func add(_ files: [LintedFile]) -> String {
    for file in files {
      unreadable = unreadable || file.unreadable
      fails = fails || failOn.fails(worst: file.worst)
      if format.writesAtEnd { kept += file.subjects }
      if keepsEntries { entries += file.entries }
    }
    return files.map(\.output).joined()
  }

  /// The whole run as the formats that write at the end say it, with the rules its findings cite.
  public var report: Report {
    Report(tool: Self.tool, rules: LintRules.catalogue(citedBy: kept.flatMap(\.findings)), subjects: kept)
  }
}
