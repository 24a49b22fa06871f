import JSON

/// Turns a message into the card the host renders, deciding kind, degradation and buttons in one pass.
///
/// Pure: the same message, attributes and local state always give the same card and warnings.
public enum Resolver {
  /// Resolves a message (fresh from ingest or from the store) into a card and the warnings it caused.
  ///
  /// 1. The image is the message's own, else `data.image` (a parseable URL) through the one lookup, else
  ///    the action params' `b`, then `attachment` (the Control Panel's banner picture).
  /// 2. The requested kind is `attributes.forceCellKind`, else `displayType` (case-insensitive; an unknown
  ///    value warns and is ignored), else the heuristic: image and no title -> banner; image, title and
  ///    body -> captioned; otherwise classic (so image + title without body is classic).
  /// 3. The requested kind checks its required fields (docs/engine.md#card-kinds); when one is missing or malformed the
  ///    card is classic with a `Degradation` and a `degraded` warning naming the reason.
  /// 4. Buttons are decoded for captioned and classic cards only; on other kinds they are dropped with one
  ///    warning.
  /// 5. No image, row link, button URL or slide handed to the host uses a scheme `SchemeGuard` denies
  ///    (unless `attributes.allowedSchemes` names it): each is dropped with an `unsafeScheme` warning.
  /// 6. Title and body are those of `attributes.locale` when the payload wrote them by language
  ///    (`LocalizedText`), and the accessibility labels are in that locale's language.
  /// Ingest warnings (custom data, lenient fields) are not repeated here: they were returned by ingest.
  public static func resolve(
    _ message: InboxMessage, attributes: Attributes = Attributes(), state: LocalState? = nil
  ) -> (card: Card, warnings: [Warning]) {
    var reasons = ResolverReasons(recording: false)
    return resolve(message, attributes: attributes, state: state, &reasons)
  }

  /// Resolves as `resolve` does, and says why: the rules applied in order, each with the value it
  /// read and where, ending in the card (`ResolverReason`).
  public static func explain(
    _ message: InboxMessage, attributes: Attributes = Attributes(), state: LocalState? = nil
  ) -> (card: Card, warnings: [Warning], reasons: [ResolverReason]) {
    var reasons = ResolverReasons(recording: true)
    let (card, warnings) = resolve(message, attributes: attributes, state: state, &reasons)
    return (card, warnings, reasons.list)
  }

  private static func resolve(
    _ message: InboxMessage, attributes: Attributes, state: LocalState?, _ reasons: inout ResolverReasons
  ) -> (card: Card, warnings: [Warning]) {
    var message = message
    message.title = message.title(for: attributes.locale)
    message.body = message.body(for: attributes.locale)
    var diagnostics = Diagnostics(messageId: message.id)
    let schemes = attributes.schemeGuard
    var step = diagnostics.warnings.count
    let found = resolvedImage(message, &diagnostics)
    let image = schemes.image(found.url, &diagnostics)
    reasons.add(ResolverExplaining.image(found, kept: image))
    ResolverExplaining.schemes(diagnostics, since: &step, into: &reasons)
    let requested = requestedKind(message, image: image, attributes: attributes, &diagnostics, &reasons)

    var degradation: Degradation?
    let content: Card.Content
    switch build(requested, message: message, image: image, attributes: attributes, &diagnostics) {
    case .ok(let built): content = built
    case .fail(let reason):
      degradation = Degradation(from: requested, reason: reason)
      diagnostics.warn(.degraded, reason + "; shown as classic")
      content = .classic(Avatar(id: message.id, title: message.title, body: message.body))
    }
    reasons.add(ResolverExplaining.requiredFields(requested, degradation: degradation))
    if case .carousel(let slides) = content {
      reasons.add(ResolverExplaining.slides(message, shown: slides.count, diagnostics.warnings[step...]))
    }
    ResolverExplaining.schemes(diagnostics, since: &step, into: &reasons)

    var buttons: [InlineButton] = []
    if content.kind.showsButtons {
      buttons = InlineButton.decodeAll(message.data, schemes: schemes, diagnostics: &diagnostics)
    } else if let items = message.value(for: "buttons")?.arrayValue, !items.isEmpty {
      diagnostics.warn(
        .buttonDropped,
        "\(content.kind.rawValue) cards show no buttons; \(items.count) button\(items.count == 1 ? "" : "s") "
          + "not shown")
    }
    reasons.add(
      ResolverExplaining.buttons(message, kind: content.kind, shown: buttons.count, diagnostics.warnings[step...]))
    ResolverExplaining.schemes(diagnostics, since: &step, into: &reasons)

    let status = message.status
    var card = Card(
      id: message.id, requestedKind: requested, degradation: degradation, title: message.title,
      body: message.body, image: image, sentAt: message.sentAt, expiresAt: message.expiresAt,
      read: status.isRead || state?.read == true || state?.opened == true,
      actionPerformed: status.isActionPerformed || state?.opened == true, pinned: message.isPinned,
      buttons: buttons, customData: message.customData,
      rowAction: schemes.rowAction(RowAction(actionParams: message.actionParams), &diagnostics),
      content: content, labels: CardWords.forLocale(attributes.locale))
    card.seen = card.read || state?.seen == true
    reasons.add(ResolverExplaining.rowAction(message, card.rowAction))
    ResolverExplaining.schemes(diagnostics, since: &step, into: &reasons)
    reasons.add(ResolverExplaining.card(card))
    return (card, diagnostics.stamped(requested: requested, used: content.kind))
  }

  // MARK: - Steps

  /// The message's image, else `data.image` (a parseable URL, through the one lookup), else the banner
  /// picture the Control Panel sends in the action params root: `b` (the web and Android SDKs read it),
  /// then `attachment` (Android's inbox). A present value that is not a parseable URL warns and the next
  /// source is tried.
  static func resolvedImage(_ message: InboxMessage, _ diagnostics: inout Diagnostics) -> (
    url: String?, source: String?
  ) {
    if let image = message.image { return (image, "the message's image (inbox_image)") }
    let sources: [(name: String, value: JSONValue?)] = [
      ("data.image", message.value(for: "image")), ("b", message.actionParams["b"]),
      ("attachment", message.actionParams["attachment"]),
    ]
    for (name, value) in sources {
      guard let value, value != .null, value.stringValue?.isBlank != true else { continue }
      if let url = ParseableURL(value, policy: .anyScheme) { return (url.string, name) }
      diagnostics.warn(.invalidField, "\(name) \(InboxMessage.describe(value)) is not a parseable URL; ignored")
    }
    return (nil, nil)
  }

  /// The kind asked for: `attributes.forceCellKind`, else `displayType`, else the heuristic.
  private static func requestedKind(
    _ message: InboxMessage, image: String?, attributes: Attributes, _ diagnostics: inout Diagnostics,
    _ reasons: inout ResolverReasons
  ) -> CardKind {
    if let forced = attributes.forceCellKind {
      reasons.add(
        ResolverReason(
          .cardKinds, read: "\"\(forced.rawValue)\"", from: "attributes.forceCellKind",
          decided: "asks for \(forced.rawValue)"))
      return forced
    }
    let given = message.value(for: "displayType")
    if let kind = displayType(message, &diagnostics) {
      reasons.add(ResolverExplaining.displayType(given, asks: kind))
      return kind
    }
    if let given, given != .null, given.stringValue?.isBlank != true {
      reasons.add(ResolverExplaining.displayType(given, asks: nil))
    }
    let kind = heuristic(image: image, title: message.title, body: message.body)
    reasons.add(ResolverExplaining.heuristic(image: image, title: message.title, body: message.body, kind: kind))
    return kind
  }

  /// The kind named by `displayType`, or nil (with a warning when a value was given but names no kind).
  static func displayType(_ message: InboxMessage, _ diagnostics: inout Diagnostics) -> CardKind? {
    guard let value = message.value(for: "displayType"), value != .null, value.stringValue?.isBlank != true else {
      return nil
    }
    if let text = value.stringValue, let kind = CardKind(lenient: text) { return kind }
    let found = value.stringValue != nil ? InboxMessage.describe(value) : "is \(InboxMessage.describe(value)), which"
    diagnostics.warn(
      .unknownDisplayType,
      "displayType \(found) is not one of \(CardKind.allNames); ignored, the heuristic decides")
    return nil
  }

  /// The kind a message without `displayType` gets (docs/engine.md#card-kinds, rule 3).
  static func heuristic(image: String?, title: String?, body: String?) -> CardKind {
    guard image != nil else { return .classic }
    if title == nil { return .banner }
    return body == nil ? .classic : .captioned
  }

  /// The content of `kind`, or the reason it cannot render.
  static func build(
    _ kind: CardKind, message: InboxMessage, image: String?, attributes: Attributes, _ diagnostics: inout Diagnostics
  ) -> Outcome<Card.Content> {
    switch kind {
    case .classic:
      return .ok(.classic(Avatar(id: message.id, title: message.title, body: message.body)))
    case .banner:
      guard image != nil else {
        return .fail("banner needs an image (inbox_image, data.image, b or attachment); the message has none")
      }
      return .ok(.banner)
    case .captioned:
      let missing = missingFields(image: image, title: message.title, body: message.body, needImage: true)
      guard missing.isEmpty else {
        return .fail("captioned needs an image, a title and a body; missing: \(missing.joined(separator: ", "))")
      }
      return .ok(.captioned)
    case .carousel:
      let missing = missingFields(image: image, title: message.title, body: message.body, needImage: false)
      guard missing.isEmpty else {
        return .fail("carousel needs a title and a body; missing: \(missing.joined(separator: ", "))")
      }
      switch CarouselSlide.decodeAll(message.data, schemes: attributes.schemeGuard, diagnostics: &diagnostics) {
      case .ok(let slides): return .ok(.carousel(slides))
      case .fail(let reason): return .fail(reason)
      }
    case .video:
      switch VideoContent.decode(message.data, diagnostics: &diagnostics) {
      case .ok(let video): return .ok(.video(video))
      case .fail(let reason): return .fail(reason)
      }
    case .wallet:
      switch WalletPass.decode(message.data, image: image) {
      case .ok(let pass):
        if let refusal = attributes.walletRefusal { return .fail(refusal) }
        return .ok(.wallet(pass))
      case .fail(let reason): return .fail(reason)
      }
    }
  }

  private static func missingFields(image: String?, title: String?, body: String?, needImage: Bool) -> [String] {
    var missing: [String] = []
    if needImage, image == nil { missing.append("image") }
    if title == nil { missing.append("title") }
    if body == nil { missing.append("body") }
    return missing
  }
}
