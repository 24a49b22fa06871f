/// A rule a checker applies, described once per report (SARIF's `reportingDescriptor`).
public struct Rule: Sendable, Hashable {
  /// The stable id findings carry (`degraded`, `schema`, ...).
  public var id: String
  /// One sentence: what breaking it means.
  public var summary: String
  /// The severity its findings have.
  public var severity: Severity

  public init(id: String, summary: String, severity: Severity) {
    self.id = id
    self.summary = summary
    self.severity = severity
  }
}
