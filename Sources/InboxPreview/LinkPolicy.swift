import InboxCore

/// Which payload URLs may become an `href` or an image `src` in the preview.
///
/// A link is an http(s) URL with a host, or an app deep link (`myapp://product/1`: a scheme, then
/// `//`). Schemes a browser runs or reads locally are never links, whatever follows them
/// (`javascript://%0Aalert(1)` runs script in a browser): the engine accepts any parseable URL for
/// buttons and slides because the app decides, but a page in a browser must not.
public enum LinkPolicy {
  /// Schemes that run script, read local or embedded data, or hand over to another app's resolver.
  static let refusedSchemes: Set<String> = [
    "javascript", "vbscript", "livescript", "jscript", "data", "file", "filesystem", "blob", "intent",
    "about", "view-source", "chrome", "chrome-extension", "mhtml", "jar", "res", "resource", "ms-its",
    "wyciwyg", "content",
  ]

  /// The URL to put in an `href`, or nil when `text` is not a link under the policy.
  public static func href(_ text: String) -> String? {
    if let web = ParseableURL(text, policy: .httpOnly) { return web.string }
    guard let url = ParseableURL(text, policy: .anyScheme), !refusedSchemes.contains(url.scheme) else { return nil }
    let rest = url.string.utf8.dropFirst(url.scheme.utf8.count + 1)
    return rest.starts(with: "//".utf8) ? url.string : nil
  }

  /// The URL to put in an image `src`: http(s) only, so rendering never reads a local file.
  public static func imageSource(_ text: String) -> String? {
    ParseableURL(text, policy: .httpOnly)?.string
  }
}
