import JSON

#if canImport(Glibc)
  import Glibc
#endif

/// A report written as its subjects come, in any `ReportFormat`, for a checker whose subjects would
/// not fit in memory together (`check-trace` on a trace of millions of frames): each subject is
/// written when it is added, and only what a format must say before its subjects (JUnit's counts)
/// waits, in an anonymous spool file, never in memory. The output is what `ReportFormat.render`
/// writes for the same subjects, but for the order of members: JSON's `rules` come last (only the
/// rules cited, known at the end), and SARIF lists every rule of the catalogue, so each result's
/// `ruleIndex` is known when it is written.
public final class ReportStream {
  private let format: ReportFormat
  private let failOn: FailOn
  private let tool: Report.Tool
  private let rules: [Rule]
  private let ruleIndices: [String: Int]
  private let write: (String) -> Void
  private var buffer = ""
  private var started = false
  private var cited = Set<String>()
  /// Subjects with a summary, for SARIF's `verdicts` (lint's; a trace's subjects have none).
  private var verdicts: [JSONValue] = []
  private var junit: JUnitSpool?

  /// True once a finding at or above `failOn` was added: the run fails.
  public private(set) var fails = false

  public init(
    format: ReportFormat, failOn: FailOn, tool: Report.Tool, rules: [Rule], write: @escaping (String) -> Void
  ) {
    self.format = format
    self.failOn = failOn
    self.tool = tool
    self.rules = rules
    ruleIndices = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    self.write = write
  }

  public func add(_ subject: Report.Subject) {
    if failOn.fails(subject.findings) { fails = true }
    for finding in subject.findings { cited.insert(finding.ruleId) }
    switch format {
    case .text: emit(TextFormat.lines(subject).map { $0 + "\n" }.joined())
    case .github: emit(subject.findings.map { WorkflowCommands.command($0) + "\n" }.joined())
    case .json: element(ReportFormat.json(subject).jsonString, opening: jsonOpening)
    case .sarif:
      if let verdict = SARIFFormat.verdict(subject) { verdicts.append(verdict) }
      for finding in subject.findings {
        element(SARIFFormat.result(finding, ruleIndex: ruleIndices[finding.ruleId]).jsonString, opening: sarifOpening)
      }
    case .junit:
      if junit == nil { junit = JUnitSpool() }
      junit?.add(subject, failOn: failOn)
    }
    if buffer.utf8.count >= 1 << 16 { flush() }
  }

  /// Writes the rest: what closes the document, or a format's whole output held until now.
  public func finish() {
    switch format {
    case .text, .github: break
    case .json:
      if !started { emit(jsonOpening) }
      let cited = rules.filter { self.cited.contains($0.id) }.map {
        ["id": .string($0.id), "summary": .string($0.summary), "severity": .string($0.severity.rawValue)] as JSONValue
      }
      emit("],\"rules\":" + JSONValue.array(cited).jsonString + "}\n")
    case .sarif:
      if !started { emit(sarifOpening) }
      var driver: JSONObject = ["name": .string(tool.name), "version": .string(tool.version)]
      if let uri = tool.informationURI { driver["informationUri"] = .string(uri) }
      driver["rules"] = .array(rules.map(SARIFFormat.descriptor))
      let tail: JSONValue = ["driver": .object(driver)]
      emit(
        "],\"tool\":" + tail.jsonString + ",\"properties\":" + (["verdicts": .array(verdicts)] as JSONValue).jsonString)
      emit("}]}\n")
    case .junit:
      flush()
      (junit ?? JUnitSpool()).finish(tool: tool, write: write)
    }
    flush()
  }

  private var jsonOpening: String {
    "{\"tool\":" + (["name": .string(tool.name), "version": .string(tool.version)] as JSONValue).jsonString
      + ",\"subjects\":["
  }

  private var sarifOpening: String {
    "{\"$schema\":" + JSONValue.string(SARIFFormat.schemaURI).jsonString
      + ",\"version\":\"2.1.0\",\"runs\":[{\"columnKind\":\"utf16CodeUnits\",\"results\":["
  }

  /// One member of the document's array, after its opening (the first) or a comma.
  private func element(_ json: String, opening: String) {
    if !started {
      emit(opening)
      started = true
    } else {
      emit(",")
    }
    emit(json)
  }

  private func emit(_ text: String) { buffer += text }

  private func flush() {
    guard !buffer.isEmpty else { return }
    write(buffer)
    buffer = ""
  }
}

/// JUnit's test cases, kept in anonymous temporary files until the counts their suites open with
/// are known: one for the file being read, one for the suites already closed.
private final class JUnitSpool {
  private let suites = Spool()
  private var current: (file: String, cases: Spool, tests: Int, failures: Int)?
  private var tests = 0
  private var failures = 0

  func add(_ subject: Report.Subject, failOn: FailOn) {
    if current?.file != subject.file {
      closeSuite()
      current = (subject.file, Spool(), 0, 0)
    }
    let failed = failOn.fails(subject.findings)
    current?.cases.append(JUnitFormat.testCase(subject, failOn: failOn))
    current?.tests += 1
    tests += 1
    if failed {
      current?.failures += 1
      failures += 1
    }
  }

  func finish(tool: Report.Tool, write: (String) -> Void) {
    closeSuite()
    write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
    write("<testsuites name=\"\(JUnitFormat.escape(tool.name))\" tests=\"\(tests)\" failures=\"\(failures)\">\n")
    suites.copy(to: write)
    write("</testsuites>\n")
  }

  private func closeSuite() {
    guard let suite = current else { return }
    current = nil
    suites.append(
      "  <testsuite name=\"\(JUnitFormat.escape(file: suite.file))\" tests=\"\(suite.tests)\" "
        + "failures=\"\(suite.failures)\" errors=\"0\">\n")
    suite.cases.copy { suites.append($0) }
    suites.append("  </testsuite>\n")
  }
}

/// Text written to an anonymous temporary file (`tmpfile`: gone when closed or at exit), and read
/// back once. From the first write the file refuses (a full or missing /tmp), the rest is kept in
/// memory instead: a full disk costs memory, not the report.
private final class Spool {
  private let file = tmpfile()
  private var inMemory: [UInt8] = []
  private var failed = false

  deinit { if let file { fclose(file) } }

  func append(_ text: String) {
    let bytes = Array(text.utf8)
    guard let file, !failed else { return inMemory += bytes }
    let count = fwrite(bytes, 1, bytes.count, file)
    if count < bytes.count {
      failed = true
      inMemory += bytes[count...]
    }
  }

  /// Hands the text back in chunks, each cut after an ASCII byte, so no chunk splits a character.
  func copy(to write: (String) -> Void) {
    var carried: [UInt8] = []
    if let file {
      fflush(file)
      rewind(file)
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      while case let count = fread(&chunk, 1, chunk.count, file), count > 0 {
        carried += chunk[..<count]
        let cut = carried.lastIndex { $0 < 0x80 }.map { $0 + 1 } ?? 0
        write(String(decoding: carried[..<cut], as: UTF8.self))
        carried.removeFirst(cut)
      }
    }
    write(String(decoding: carried + inMemory, as: UTF8.self))
  }
}
