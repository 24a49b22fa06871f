import InboxCore

/// The whole preview: one self-contained HTML page (CSS inline, no script, nothing fetched but the
/// payloads' own images) showing the entries in the order given, at phone width.
public enum PreviewPage {
  /// Light or dark, as the host's appearance.
  public enum Theme: String, Sendable, CaseIterable {
    case light, dark
  }

  /// What the page says about itself.
  public struct Options: Sendable {
    /// The heading and the document title.
    public var title = "Inbox preview"
    /// A line under the heading (where the cards come from, the platform).
    public var subtitle: String?
    public var theme = Theme.light
    /// Whether each card shows the delete action a swipe reveals (the `swipeToDelete` attribute).
    public var swipeToDelete = true
    /// Whether the feed has a refresh control (the `pullToRefresh` attribute).
    public var pullToRefresh = true
    /// The language of the page's own words (the refresh control): the attributes' locale.
    public var words = CardWords.english

    /// Options for a feed shown under `attributes`: their switches and their locale's words.
    public init(
      title: String = "Inbox preview", subtitle: String? = nil, theme: Theme = .light,
      attributes: Attributes = Attributes()
    ) {
      self.title = title
      self.subtitle = subtitle
      self.theme = theme
      swipeToDelete = attributes.swipeToDelete
      pullToRefresh = attributes.pullToRefresh
      words = CardWords.forLocale(attributes.locale)
    }
  }

  /// The page. A Content-Security-Policy forbids every script and every load but images over http(s),
  /// a second wall behind the escaping.
  public static func html(_ entries: [PreviewEntry], options: Options = Options()) -> String {
    var html =
      "<!doctype html>\n<html lang=\"\(options.words.language)\" data-theme=\"\(options.theme.rawValue)\"><head><meta charset=\"utf-8\">"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    html += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src http: https:; "
    html += "style-src 'unsafe-inline'; script-src 'none'; form-action 'none'; base-uri 'none'\">"
    html += "<meta name=\"referrer\" content=\"no-referrer\">"
    html += "<title>\(HTML.escape(options.title))</title><style>\(PreviewStyle.css)</style></head><body>"
    html += "<main class=\"ik-feed\"><header class=\"ik-head\"><h1>\(HTML.escape(options.title))</h1>"
    let count = entries.count == 1 ? "1 card" : "\(entries.count) cards"
    html += "<p>\(count)\(options.subtitle.map { " · " + HTML.escape($0) } ?? "")</p></header>"
    if options.pullToRefresh { html += refreshControl(options.words) }
    for entry in entries { html += CardHTML.entry(entry, swipeToDelete: options.swipeToDelete) }
    return html + "</main></body></html>\n"
  }

  /// What a pull reveals at the top of the feed, in the page's language: it stands for
  /// `feed.sync {pull: true}`.
  static func refreshControl(_ words: CardWords) -> String {
    "<div class=\"ik-refresh\"><button type=\"button\" class=\"ik-refresh-control\" title=\"feed.sync (pull)\">"
      + "<span aria-hidden=\"true\">\(Glyph.refresh)</span>\(HTML.escape(words[.refresh]))</button></div>"
  }

  /// One entry for embedding in a host's page: the fragment in a themed wrapper (pair it with
  /// `PreviewStyle.css`), with the delete action a swipe reveals when `swipeToDelete` is on.
  public static func fragment(_ entry: PreviewEntry, theme: Theme = .light, swipeToDelete: Bool = true) -> String {
    "<div class=\"ik-root\" data-theme=\"\(theme.rawValue)\">\(CardHTML.entry(entry, swipeToDelete: swipeToDelete))</div>"
  }
}
