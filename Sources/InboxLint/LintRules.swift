import InboxCore
import LintReport

/// The rules `lint` reports under, each described once (SARIF's `tool.driver.rules`): the input
/// schema, refusals, files that cannot be read, and one per engine warning code.
public enum LintRules {
  static let all: [Rule] = [
    Rule(id: "schema", summary: "The payload breaks the input schema in Schemas/.", severity: .error),
    Rule(id: "notInboxMessage", summary: "The payload is not an inbox message; nothing is shown.", severity: .error),
    Rule(id: "notJSON", summary: "The file is not JSON.", severity: .error),
    Rule(id: "unreadable", summary: "The file or directory cannot be read.", severity: .error),
    warning(.degraded, "A rich card falls back to classic."),
    warning(.unknownDisplayType, "displayType names no known kind; the heuristic decides."),
    warning(.buttonDropped, "A button is dropped."),
    warning(.unknownButtonAction, "A button's action is not dismiss, markRead or custom."),
    warning(.invalidButtonURL, "A button's url has no scheme; the button does not open it."),
    warning(.slideDropped, "A carousel slide is dropped."),
    warning(.invalidCustomData, "u is not an object nor a JSON string of one."),
    warning(.invalidField, "An optional field is malformed and ignored or defaulted."),
    warning(.unsafeScheme, "A link or image uses a scheme the host does not allow."),
    Rule(
      id: missingLanguage, summary: "A language has a title but no body, or a body but no title.", severity: .warning),
    Rule(
      id: LabelFallbacks.rule, summary: "A word the card draws has no wording in the locale's language; it is English.",
      severity: .note),
    Rule(id: explain, summary: "A rule the resolver applied (--explain), with the value it read.", severity: .note),
  ]

  /// `--explain`: a rule the resolver applied.
  static let explain = "explain"
  /// The same, for a face that shows the reasons its own way (the language server's hover).
  public static var explainRule: String { explain }

  /// A text field of a send request lacks a language another field is written in.
  static let missingLanguage = "missingLanguage"

  private static func warning(_ code: Warning.Code, _ summary: String) -> Rule {
    Rule(id: code.rawValue, summary: summary, severity: .warning)
  }

  /// The catalogue, with a rule for any warning code it does not list yet (so every finding's
  /// rule is described).
  public static func catalogue(citedBy findings: [Finding]) -> [Rule] {
    var rules = all
    for finding in findings where !rules.contains(where: { $0.id == finding.ruleId }) {
      rules.append(Rule(id: finding.ruleId, summary: "An engine warning.", severity: finding.severity))
    }
    return rules
  }
}
