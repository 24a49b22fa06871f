import JSON

extension PayloadLint {
  /// A lint's outcome as the `LintReport` shape of Schemas/: `{file?, payloads: [...]}`.
  public static func json(_ reports: [Report], file: String? = nil) -> JSONValue {
    var object: JSONObject = [:]
    if let file { object["file"] = .string(file) }
    object["payloads"] = .array(reports.map(\.json))
    return .object(object)
  }
}

extension PayloadLint.Report {
  /// `{label, platform?, locale?, card, refusal, warnings, schemaProblems, languageGaps}`.
  public var json: JSONValue {
    var object: JSONObject = [
      "label": .string(label),
      "card": card?.json ?? .null,
      "refusal": refusal.map(JSONValue.string) ?? .null,
      "warnings": .array(warnings.map(\.json)),
      "schemaProblems": .array(
        schemaProblems.map { ["path": .string($0.path), "rule": .string($0.rule), "message": .string($0.message)] }),
      "languageGaps": .array(languageGaps.map(\.json)),
    ]
    if let platform { object["platform"] = .string(platform.name) }
    if let locale { object["locale"] = .string(locale) }
    return .object(object)
  }
}
