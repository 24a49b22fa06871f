import JSON

/// The `junit` format: the JUnit XML that CI test reports read (Jenkins, GitLab, Azure, GitHub
/// test-report actions): a `<testsuite>` per file and a `<testcase>` per subject.
///
/// A subject fails with one `<failure>` per finding that fails the run under `--fail-on`; findings
/// below that line are listed in its `<system-out>`. Text is XML-escaped, and characters XML 1.0
/// cannot hold (control characters a payload may carry) are written as `\u{…}`.
enum JUnitFormat {
  static func render(_ report: Report, failOn: FailOn) -> String {
    var files: [String] = []
    var byFile: [String: [Report.Subject]] = [:]
    for subject in report.subjects {
      if byFile[subject.file] == nil { files.append(subject.file) }
      byFile[subject.file, default: []].append(subject)
    }
    let failing = report.subjects.filter { failOn.fails($0.findings) }.count
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml +=
      "<testsuites name=\"\(escape(report.tool.name))\" tests=\"\(report.subjects.count)\" failures=\"\(failing)\">\n"
    for file in files {
      let subjects = byFile[file] ?? []
      let failures = subjects.filter { failOn.fails($0.findings) }.count
      xml +=
        "  <testsuite name=\"\(escape(file: file))\" tests=\"\(subjects.count)\" failures=\"\(failures)\" errors=\"0\">\n"
      for subject in subjects { xml += testCase(subject, failOn: failOn) }
      xml += "  </testsuite>\n"
    }
    return xml + "</testsuites>\n"
  }

  static func testCase(_ subject: Report.Subject, failOn: FailOn) -> String {
    let open =
      "    <testcase classname=\"\(escape(file: subject.file))\" name=\"\(escape(subject.name))\" file=\"\(escape(file: subject.file))\""
    guard !subject.findings.isEmpty else { return open + "/>\n" }
    var xml = open + ">\n"
    var below: [String] = []
    for finding in subject.findings {
      guard failOn.fails([finding]) else {
        below.append(TextFormat.line(finding))
        continue
      }
      let message = "\(finding.position): \(finding.message)"
      xml += "      <failure type=\"\(escape(finding.ruleId))\" message=\"\(escape(message))\">"
      xml += escape(TextFormat.line(finding)) + "</failure>\n"
    }
    if !below.isEmpty { xml += "      <system-out>\(escape(below.joined(separator: "\n")))</system-out>\n" }
    return xml + "    </testcase>\n"
  }

  /// A file's name as XML text: shown as in every text for people (`escapingControlCharacters`).
  static func escape(file: String) -> String { escape(file.escapingControlCharacters) }

  /// Text as XML character data or an attribute value.
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t", "\n", "\r": result += "&#\(scalar.value);"  // kept exactly, even in attributes
      case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
