/// What one run of a checker found, ready for any `ReportFormat`.
///
/// A report is a list of subjects — the things checked, one JUnit test case each (a payload in a
/// file, an exchange in a trace) — each with its findings, and the catalogue of rules the findings
/// cite.
public struct Report: Sendable {
  /// The checker, as SARIF's `tool.driver` and JUnit's suite names show it.
  public struct Tool: Sendable, Hashable {
    public var name: String
    public var version: String
    public var informationURI: String?

    public init(name: String, version: String, informationURI: String? = nil) {
      self.name = name
      self.version = version
      self.informationURI = informationURI
    }
  }

  /// One thing checked and what was found in it.
  public struct Subject: Sendable {
    /// The file it is in.
    public var file: String
    /// What it is within the file (`request.notifications[0]`).
    public var name: String
    /// A line for people about it (`classic card "Hello"`), shown by the text format.
    public var summary: String?
    public var findings: [Finding]

    public init(file: String, name: String, summary: String? = nil, findings: [Finding]) {
      self.file = file
      self.name = name
      self.summary = summary
      self.findings = findings
    }
  }

  public var tool: Tool
  /// Every rule a finding may cite, described once.
  public var rules: [Rule]
  public var subjects: [Subject]

  public init(tool: Tool, rules: [Rule], subjects: [Subject]) {
    self.tool = tool
    self.rules = rules
    self.subjects = subjects
  }

  /// Every finding, subject by subject.
  public var findings: [Finding] { subjects.flatMap(\.findings) }
}
