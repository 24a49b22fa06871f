import JSON

/// The `sarif` format: a SARIF 2.1.0 log with one run, read by GitHub code scanning, GitLab and
/// IDE viewers.
///
/// The rules are described once, in `tool.driver.rules`; each result cites its rule by `ruleId`
/// and `ruleIndex`. Regions are 1-based and the run says `columnKind: utf16CodeUnits`. A file
/// named by a relative path is a relative URI (what code scanning resolves against the checkout);
/// an absolute one is a `file://` URI. What each subject became (a payload's card on one platform,
/// say) is in the run's property bag, `verdicts`, since results only carry findings.
enum SARIFFormat {
  static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

  static func document(_ report: Report) -> JSONValue {
    var driver: JSONObject = ["name": .string(report.tool.name), "version": .string(report.tool.version)]
    if let uri = report.tool.informationURI { driver["informationUri"] = .string(uri) }
    driver["rules"] = .array(report.rules.map(descriptor))
    let indices = Dictionary(report.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    let run: JSONValue = [
      "tool": ["driver": .object(driver)],
      "columnKind": "utf16CodeUnits",
      "results": .array(report.findings.map { result($0, ruleIndex: indices[$0.ruleId]) }),
      "properties": ["verdicts": .array(report.subjects.compactMap(verdict))],
    ]
    return ["$schema": .string(schemaURI), "version": "2.1.0", "runs": [run]]
  }

  /// `{uri, subject, verdict, findings}` for a subject with a summary.
  static func verdict(_ subject: Report.Subject) -> JSONValue? {
    guard let summary = subject.summary else { return nil }
    return [
      "uri": .string(uri(subject.file)), "subject": .string(subject.name), "verdict": .string(summary),
      "findings": .int(Int64(subject.findings.count)),
    ]
  }

  static func descriptor(_ rule: Rule) -> JSONValue {
    [
      "id": .string(rule.id),
      "shortDescription": ["text": .string(rule.summary)],
      "defaultConfiguration": ["level": .string(level(rule.severity))],
    ]
  }

  static func result(_ finding: Finding, ruleIndex: Int?) -> JSONValue {
    var object: JSONObject = ["ruleId": .string(finding.ruleId)]
    if let ruleIndex { object["ruleIndex"] = .int(Int64(ruleIndex)) }
    object["level"] = .string(level(finding.severity))
    object["message"] = ["text": .string(finding.message)]
    var region: JSONObject = [
      "startLine": .int(Int64(finding.position.line)), "startColumn": .int(Int64(finding.position.column)),
    ]
    if let end = finding.end {
      region["endLine"] = .int(Int64(end.line))
      region["endColumn"] = .int(Int64(end.column))
    }
    object["locations"] = [
      ["physicalLocation": ["artifactLocation": ["uri": .string(uri(finding.file))], "region": .object(region)]]
    ]
    var properties: JSONObject = [:]
    if let pointer = finding.pointer { properties["jsonPointer"] = .string(pointer.description) }
    if let schemaPath = finding.schemaPath { properties["schemaPath"] = .string(schemaPath) }
    if !properties.isEmpty { object["properties"] = .object(properties) }
    return .object(object)
  }

  private static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .note: "note"
    }
  }

  /// A path as a URI reference: each byte outside RFC 3986's unreserved set and `/` percent-encoded.
  static func uri(_ path: String) -> String {
    let encoded = PercentEncoding.encode(path, keeping: "/")
    return path.hasPrefix("/") ? "file://" + encoded : encoded
  }
}
