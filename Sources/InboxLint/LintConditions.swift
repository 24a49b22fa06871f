import InboxApp
import InboxCore
import JSON

/// What payloads are linted under: the host the cards are resolved for (its platform, which also
/// narrows a request's `platforms`, and its locale), the send time, and whether each language a
/// payload is written in gets a verdict of its own.
public struct LintConditions: Sendable {
  public var attributes: Attributes
  public var now: Int64
  public var everyLocale: Bool
  /// Whether each verdict says the resolver's rules in order (`--explain`).
  public var explains = false

  public init(attributes: Attributes = Attributes(), now: Int64, everyLocale: Bool = false, explains: Bool = false) {
    self.attributes = attributes
    self.now = now
    self.everyLocale = everyLocale
    self.explains = explains
  }

  /// What the conditions ask of `PayloadLint` beyond the attributes.
  public var options: PayloadLint.Options {
    PayloadLint.Options(platform: attributes.platform, everyLocale: everyLocale, explains: explains)
  }

  /// What each payload of a parsed file becomes under these conditions, its findings not placed.
  public func verdicts(of value: JSONValue) -> [PayloadLint.Report] {
    PayloadLint.lint(value, attributes: attributes, now: now, options: options)
  }
}
