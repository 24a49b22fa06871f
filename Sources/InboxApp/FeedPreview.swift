import InboxCore
import InboxPreview
import InboxStore
import JSON

/// The cards of a preview page (`inbox-rpc preview`, `lint --html`), from a store or from linted
/// payloads; `InboxPreview` draws them.
public enum FeedPreview {
  /// Every visible message of `store` in feed order, resolved under the attributes saved with the
  /// store with `patch` (an AttributesPatch, such as `{"platform": "ios"}`) applied over them.
  public static func entries(store: InboxStore, patch: JSONValue, now: Int64) throws -> [PreviewEntry] {
    let attributes = try self.attributes(store: store, patch: patch)
    var entries: [PreviewEntry] = []
    var cursor: FeedCursor?
    repeat {
      let page = try store.page(
        after: cursor, limit: 200, unreadOnly: false, unreadFirst: attributes.unreadFirst, now: now)
      for stored in page.messages {
        let (card, warnings) = Resolver.resolve(try stored.message(), attributes: attributes, state: stored.localState)
        entries.append(PreviewEntry(card: card, warnings: warnings))
      }
      cursor = page.next
    } while cursor != nil
    return entries
  }

  /// The attributes saved with `store` with `patch` applied over them: what its preview is drawn under.
  public static func attributes(store: InboxStore, patch: JSONValue) throws -> Attributes {
    let saved = try store.setting(Inbox.attributesKey).map { try Attributes(json: $0) } ?? Attributes()
    return try saved.merging(patch)
  }

  /// One entry per linted payload, labelled with its file and place in it, schema breaks beside it.
  public static func entries(file: String, reports: [PayloadLint.Report]) -> [PreviewEntry] {
    reports.map { report in
      let problems = report.schemaProblems.map { "\($0.path): \($0.message)" }
      let label = "\(file) \(report.verdictLabel)"
      guard let card = report.card else {
        return PreviewEntry(refusal: report.refusal ?? "", problems: problems, label: label)
      }
      return PreviewEntry(card: card, warnings: report.warnings, problems: problems, label: label)
    }
  }

  /// Entries in feed order (pinned first, newest first); payloads that are no card go last.
  public static func feedOrdered(_ entries: [PreviewEntry], attributes: Attributes) -> [PreviewEntry] {
    let order = FeedOrder(attributes: attributes)
    let cards = entries.compactMap { entry in entry.card.map { (entry, $0.sortKey) } }
    let sorted = cards.sorted { order.areInIncreasingOrder($0.1, $1.1) }.map(\.0)
    return sorted + entries.filter { $0.card == nil }
  }
}
