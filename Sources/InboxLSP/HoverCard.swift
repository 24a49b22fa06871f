import InboxApp
import InboxCore
import JSON

/// The card a payload becomes, per verdict (platform, language), as Markdown for a hover: kind,
/// degradation and why, title and body, buttons with their resolved actions, slides.
enum HoverCard {
  static func markdown(_ reports: [PayloadLint.Report]) -> String {
    reports.map(section).joined(separator: "\n\n---\n\n")
  }

  private static func section(_ report: PayloadLint.Report) -> String {
    var lines = ["**\(Markdown.text(report.verdictLabel))**", ""]
    guard let card = report.card else {
      lines.append("Not an inbox message: \(Markdown.text(report.refusal ?? "nothing is shown"))")
      return lines.joined(separator: "\n")
    }
    lines.append("- kind: `\(card.kind.rawValue)`")
    if let degradation = card.degradation {
      lines.append(
        "- degraded from `\(degradation.from.rawValue)`: \(Markdown.text(degradation.reason))")
    }
    if let title = card.title { lines.append("- title: \(Markdown.text(title))") }
    if let body = card.body { lines.append("- body: \(Markdown.text(body))") }
    if let image = card.image { lines.append("- image: \(Markdown.text(image))") }
    lines.append("- on tap: \(Markdown.text(describe(card.rowAction)))")
    for (index, button) in card.buttons.enumerated() {
      lines.append(
        "- button \(index): \(Markdown.text(button.title)) → \(Markdown.text(button.action.json.jsonString))")
    }
    for (index, slide) in card.slides.enumerated() {
      let title = slide.title.map { " \(Markdown.text($0))" } ?? ""
      let url = slide.url.map { " → \(Markdown.text($0))" } ?? ""
      lines.append("- slide \(index):\(title) \(Markdown.text(slide.image))\(url)")
    }
    for warning in report.warnings {
      lines.append("- ⚠ \(Markdown.text(warning.code.rawValue)): \(Markdown.text(warning.reason))")
    }
    return lines.joined(separator: "\n")
  }

  private static func describe(_ action: RowAction) -> String {
    action.json.jsonString
  }
}
