import InboxApp
import JSON
import LintReport

/// The json format of `lint`: one `LintReport` (Schemas/shapes/LintReport) per file, a line each,
/// with the findings beside the payloads.
public enum LintJSON {
  public static func line(file: String, reports: [PayloadLint.Report], _ subjects: [Report.Subject]) -> String {
    // The name as every output shows it: a byte that is not UTF-8 as `\xE9` (`escapingControlCharacters`).
    var object = PayloadLint.json(reports, file: file.escapingControlCharacters).objectValue ?? [:]
    object["findings"] = .array(subjects.flatMap(\.findings).map(\.json))
    return JSONValue.object(object).jsonString + "\n"
  }
}
