import InboxCore
import JSON

extension ToolText {
  /// `explain_card`: the card, then why, rule by rule, in the words `lint --explain` uses.
  static func explanation(_ result: JSONValue) -> String {
    let reasons = (result["reasons"]?.arrayValue ?? []).enumerated().map { index, reason in
      "\(index + 1). "
        + ResolverReason.text(
          rule: reason["rule"]?.stringValue ?? "-", section: reason["section"]?.stringValue ?? "-",
          read: reason["read"]?.stringValue, from: reason["from"]?.stringValue ?? "",
          decided: reason["decided"]?.stringValue ?? "-")
    }
    return card(result["card"] ?? .null) + "\n" + text(["why:"] + reasons)
  }
}
