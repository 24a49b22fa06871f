import InboxCore

/// Dates as the preview shows them: `2026-11-30 09:05 UTC`, with the RFC 3339 form for `<time>`.
enum PreviewDate {
  /// `<time datetime="2026-11-30T09:05:00Z">2026-11-30 09:05 UTC</time>` with a leading word, or "".
  static func element(_ seconds: Int64?, _ word: String, className: String) -> String {
    guard let seconds, let stamp = RFC3339.string(fromUnixSeconds: seconds) else { return "" }
    let shown = stamp.prefix(10) + " " + stamp.dropFirst(11).prefix(5) + " UTC"
    return "<time class=\"\(className)\" datetime=\"\(stamp)\">\(word)\(shown)</time>"
  }
}
