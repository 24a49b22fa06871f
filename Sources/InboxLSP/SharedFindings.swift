import InboxCore
import LintReport

/// One diagnostic per problem and place. A request naming several platforms is linted once per
/// platform (`platforms: [1, 3]`: a verdict on ios, one on android), and each verdict finds what the
/// payload gets wrong: a schema break twice as the same words, an engine warning as `on ios: …`
/// and `on android: …`. An editor shows each once, saying where it holds: `on ios and android: …`.
/// A schema break and the engine's warning at the same value (`"action": "dismis"`: the contract's
/// allowed values, and the button's action ignored) are one problem too: one diagnostic, the
/// engine's rule (its quick fix and its page) at the break's severity, saying both.
enum SharedFindings {
  static func merged(_ findings: [Finding]) -> [Finding] {
    folded(perPlatform(findings))
  }

  private static func perPlatform(_ findings: [Finding]) -> [Finding] {
    struct Problem: Hashable {
      var rule: String
      var position: SourcePosition
      var severity: Severity
      var message: Substring
      var perPlatform: Bool
    }
    var order: [Problem] = []
    var found: [Problem: (first: Finding, platforms: [String])] = [:]
    for finding in findings {
      let (platform, message) = split(finding.message)
      let problem = Problem(
        rule: finding.ruleId, position: finding.position, severity: finding.severity, message: message,
        perPlatform: platform != nil)
      if found[problem] == nil {
        order.append(problem)
        found[problem] = (finding, [])
      }
      if let platform, found[problem]?.platforms.contains(platform) == false {
        found[problem]?.platforms.append(platform)
      }
    }
    return order.compactMap { problem in
      guard let group = found[problem] else { return nil }
      var finding = group.first
      if !group.platforms.isEmpty { finding.message = "on \(listed(group.platforms)): \(problem.message)" }
      return finding
    }
  }

  /// Each schema break at a value the engine also warns about, said in that warning.
  private static func folded(_ findings: [Finding]) -> [Finding] {
    var breaks: [SourcePosition: Finding] = [:]
    for finding in findings where finding.ruleId == schemaRule {
      breaks[finding.position] = breaks[finding.position] ?? finding
    }
    let warned = Set(findings.lazy.filter { $0.ruleId != schemaRule }.map(\.position))
    var told: Set<SourcePosition> = []
    return findings.compactMap { finding in
      guard finding.ruleId != schemaRule else { return warned.contains(finding.position) ? nil : finding }
      guard let schema = breaks[finding.position], told.insert(finding.position).inserted else { return finding }
      var said = finding
      said.message = "\(finding.message); \(schema.message)"
      said.severity = max(finding.severity, schema.severity)
      said.schemaPath = schema.schemaPath
      return said
    }
  }

  private static let schemaRule = "schema"

  /// A message's platform (`on android: ...`, as `LintFindings` says it) and the rest.
  static func split(_ message: String) -> (platform: String?, rest: Substring) {
    guard message.hasPrefix("on "), let colon = message.firstRange(of: ": ") else { return (nil, message[...]) }
    let name = String(message[message.index(message.startIndex, offsetBy: 3)..<colon.lowerBound])
    guard TargetPlatform.table.contains(where: { $0.name == name }) else { return (nil, message[...]) }
    return (name, message[colon.upperBound...])
  }

  /// `ios`, `ios and android`, `ios, android and huawei`.
  static func listed(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names.last!
  }
}
