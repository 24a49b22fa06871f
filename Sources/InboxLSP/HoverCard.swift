import InboxApp
import InboxCore
import JSON

/// The card a payload becomes, per verdict (platform, language), as Markdown for a hover: kind,
/// degradation and why, title and body, buttons with their resolved actions, slides. Every text
/// from the payload, or quoting it (a reason, a warning), is a code span (`Markdown.code`); buttons
/// and slides are numbered from 0, as the engine's messages number them.
enum HoverCard {
  static func markdown(_ reports: [PayloadLint.Report]) -> String {
    reports.map(section).joined(separator: "\n\n---\n\n")
  }

  private static func section(_ report: PayloadLint.Report) -> String {
    var lines = ["**\(Markdown.code(report.verdictLabel))**", ""]
    guard let card = report.card else {
      lines.append("Not an inbox message: \(Markdown.code(report.refusal ?? "nothing is shown"))")
      return lines.joined(separator: "\n")
    }
    lines.append("- kind: `\(card.kind.rawValue)`")
    if let degradation = card.degradation {
      lines.append("- degraded from `\(degradation.from.rawValue)`: \(Markdown.code(degradation.reason))")
    }
    if let title = card.title { lines.append("- title: \(Markdown.code(title))") }
    if let body = card.body { lines.append("- body: \(Markdown.code(body))") }
    if let image = card.image { lines.append("- image: \(Markdown.code(image))") }
    lines.append("- on tap: \(Markdown.code(card.rowAction.json.jsonString))")
    for (index, button) in card.buttons.enumerated() {
      lines.append(
        "- button \(index): \(Markdown.code(button.title)) → \(Markdown.code(button.action.json.jsonString))")
    }
    for (index, slide) in card.slides.enumerated() {
      let title = slide.title.map { " \(Markdown.code($0))" } ?? ""
      let url = slide.url.map { " → \(Markdown.code($0))" } ?? ""
      lines.append("- slide \(index):\(title) \(Markdown.code(slide.image))\(url)")
    }
    for warning in report.warnings {
      lines.append("- ⚠ `\(warning.code.rawValue)`: \(Markdown.code(warning.reason))")
    }
    // Why, rule by rule, as `message.explain` and `lint --explain` say it (docs/engine.md's words).
    if !report.reasons.isEmpty { lines.append("- why, rule by rule:") }
    for (index, reason) in report.reasons.enumerated() { lines.append("  \(index + 1). \(Markdown.code(reason.text))") }
    return lines.joined(separator: "\n")
  }
}
