import JSON

/// One rule the resolver applied, in the order it applied them: the value it read, where it read
/// it, and what the rule decided. `Resolver.explain` gives them, ending in the card; the words are
/// those of docs/engine.md, each rule linked to its section.
public struct ResolverReason: Sendable, Hashable {
  public var rule: ResolverRule
  /// The value read, as JSON or as the engine describes it; nil when there was none to read.
  public var read: String?
  /// Where it was read (`inbox_image`, `displayType in the custom data`, `attributes.forceCellKind`).
  public var from: String
  public var decided: String
  /// The custom-data key the value sits under, for a tool that places the reason in a file.
  public var field: String?

  public init(_ rule: ResolverRule, read: String?, from: String, decided: String, field: String? = nil) {
    self.rule = rule
    self.read = read
    self.from = from
    self.decided = decided
    self.field = field
  }

  /// `Card kinds (docs/engine.md#card-kinds): read "captioned" from displayType in the custom data; asks for captioned`.
  public var text: String { Self.text(rule: rule.title, section: rule.link, read: read, from: from, decided: decided) }

  /// A reason in words from its parts, as `text` says it (a client that holds its JSON says it alike).
  public static func text(rule: String, section: String, read: String?, from: String, decided: String) -> String {
    let head = "\(rule) (\(section)): "
    if from.isEmpty { return head + decided }
    return head + (read.map { "read \($0) from \(from)" } ?? "nothing at \(from)") + "; " + decided
  }

  /// `{rule, section, read, from, decided}`.
  public var json: JSONValue {
    [
      "rule": .string(rule.title), "section": .string(rule.link), "read": read.map(JSONValue.string) ?? .null,
      "from": .string(from), "decided": .string(decided),
    ]
  }
}

/// The resolver's rules, each a section of docs/engine.md.
public enum ResolverRule: String, Sendable, Hashable, CaseIterable {
  case images, cardKinds, requiredFields, carouselSlides, buttons, unsafeSchemes, rowActions, card

  /// The section's title.
  public var title: String {
    switch self {
    case .images: "Images"
    case .cardKinds: "Card kinds"
    case .requiredFields: "Card kinds: required fields"
    case .carouselSlides: "Carousel slides"
    case .buttons: "Buttons"
    case .unsafeSchemes: "Unsafe schemes"
    case .rowActions: "Row actions"
    case .card: "The card"
    }
  }

  /// The section in docs/engine.md.
  public var link: String {
    switch self {
    case .images: "docs/engine.md#images"
    case .cardKinds, .requiredFields, .card: "docs/engine.md#card-kinds"
    case .carouselSlides: "docs/engine.md#carousel-slides"
    case .buttons: "docs/engine.md#buttons"
    case .unsafeSchemes: "docs/engine.md#unsafe-schemes"
    case .rowActions: "docs/engine.md#row-actions"
    }
  }
}

/// The reasons of one resolve, kept only when asked for (`Resolver.explain`): a resolve that is
/// not explained makes no strings.
struct ResolverReasons {
  let isRecording: Bool
  private(set) var list: [ResolverReason] = []

  init(recording: Bool) { isRecording = recording }

  mutating func add(_ reason: @autoclosure () -> ResolverReason) {
    if isRecording { list.append(reason()) }
  }
}
