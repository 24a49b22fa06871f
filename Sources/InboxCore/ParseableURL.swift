import Foundation
import JSON

/// The one URL check of the engine (SPEC.md §1 "parseable URL"), so buttons, slides, video and wallet agree.
///
/// A parseable URL is a string that, after trimming surrounding whitespace, is non-empty and parses as a URL
/// with a non-empty scheme. `example.com` has no scheme and is refused; `myapp://product/1` and
/// `mailto:a@b.c` pass under `.anyScheme`. Non-ASCII characters are accepted (the parser percent-encodes
/// them), spaces inside are not. The URL keeps the text as the marketer wrote it (trimmed), not a
/// re-encoded form, so the host opens exactly what was sent.
public struct ParseableURL: Sendable, Hashable, CustomStringConvertible {
  /// Which schemes a field accepts.
  public enum Policy: Sendable, Hashable {
    /// Any scheme: deep links (`myapp://...`), `mailto:`, `https:`. For buttons, slides, images and links.
    case anyScheme
    /// Only `http` or `https` with a host. For video and wallet URLs: the player and the pass downloader
    /// would otherwise happily read `file://` (local files) or talk `ftp://`, so a payload could make the
    /// host open things it never meant to fetch from the network.
    case httpOnly
  }

  /// The trimmed text of the URL.
  public let string: String
  /// The scheme, lower-cased (`https`, `myapp`).
  public let scheme: String

  /// Checks `text` against `policy`; nil when it is not a parseable URL under that policy.
  public init?(_ text: String, policy: Policy) {
    let trimmed = text.trimmingWhitespace()
    guard !trimmed.isEmpty, let url = URL(string: trimmed), let scheme = url.scheme, !scheme.isEmpty else {
      return nil
    }
    let folded = scheme.lowercased()
    if policy == .httpOnly {
      guard folded == "http" || folded == "https", let host = url.host, !host.isEmpty else { return nil }
    }
    self.string = trimmed
    self.scheme = folded
  }

  /// Checks a JSON value: only strings can be URLs.
  public init?(_ value: JSONValue?, policy: Policy) {
    guard let text = value?.stringValue else { return nil }
    self.init(text, policy: policy)
  }

  /// True for `http` and `https`.
  public var isHTTP: Bool { scheme == "http" || scheme == "https" }

  /// The URL text.
  public var description: String { string }
}
