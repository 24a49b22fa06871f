import InboxCore
import LintReport

/// One diagnostic per problem and place. A request naming several platforms is linted once per
/// platform (`platforms: [1, 3]`: a verdict on ios, one on android), and each verdict finds what the
/// payload gets wrong: a schema break twice as the same words, an engine warning as `on ios: …`
/// and `on android: …`. An editor shows each once, saying where it holds: `on ios and android: …`.
enum SharedFindings {
  static func merged(_ findings: [Finding]) -> [Finding] {
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
