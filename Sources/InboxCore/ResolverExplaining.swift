import JSON

/// The reasons each step of `Resolver` gives, worded as docs/engine.md words its rules; made only
/// when a resolve is explained.
enum ResolverExplaining {
  static func image(_ found: (url: String?, source: String?), kept: String?) -> ResolverReason {
    guard let url = found.url, let source = found.source else {
      return ResolverReason(.images, read: nil, from: "inbox_image, data.image, b or attachment", decided: "no image")
    }
    let decided = kept == nil ? "its scheme is not allowed: no image" : "the card's image"
    return ResolverReason(
      .images, read: JSONValue.string(url).jsonString, from: source, decided: decided,
      field: source == "data.image" ? "image" : nil)
  }

  static func displayType(_ given: JSONValue?, asks kind: CardKind?) -> ResolverReason {
    let read = given.map(InboxMessage.describe)
    guard let kind else {
      return ResolverReason(
        .cardKinds, read: read, from: "displayType in the custom data",
        decided: "names no kind (unknownDisplayType): ignored, the heuristic decides", field: "displayType")
    }
    return ResolverReason(
      .cardKinds, read: read, from: "displayType in the custom data", decided: "asks for \(kind.rawValue)",
      field: "displayType")
  }

  /// The heuristic's branch (docs/engine.md#card-kinds, rule 3).
  static func heuristic(image: String?, title: String?, body: String?, kind: CardKind) -> ResolverReason {
    let has = { (named: String, name: String, value: String?) in value == nil ? "no \(name)" : named }
    let read = [has("an image", "image", image), has("a title", "title", title), has("a body", "body", body)]
      .joined(separator: ", ")
    let branch =
      switch (image != nil, title != nil, body != nil) {
      case (false, _, _): "no image: classic"
      case (true, false, _): "an image and no title: banner"
      case (true, true, true): "an image, a title and a body: captioned"
      case (true, true, false): "an image and a title without a body: classic"
      }
    return ResolverReason(
      .cardKinds, read: read, from: "the message (no displayType)", decided: "the heuristic: \(branch)")
  }

  static func requiredFields(_ requested: CardKind, degradation: Degradation?) -> ResolverReason {
    guard let degradation else {
      return ResolverReason(.requiredFields, read: nil, from: "", decided: "\(requested.rawValue) has what it needs")
    }
    return ResolverReason(
      .requiredFields, read: nil, from: "",
      decided: "\(requested.rawValue) cannot be drawn: \(degradation.reason); shown as classic (degraded)",
      field: requiredField(requested))
  }

  static func slides(_ message: InboxMessage, shown: Int, _ warnings: ArraySlice<Warning>) -> ResolverReason {
    let given = message.value(for: "carousel")?.arrayValue?.count ?? 0
    let dropped = warnings.filter { $0.code == .slideDropped }.map(\.reason)
    return ResolverReason(
      .carouselSlides, read: "\(given) slide(s)", from: "carousel in the custom data",
      decided: "\(shown) shown" + (dropped.isEmpty ? "" : "; " + dropped.joined(separator: "; ")), field: "carousel")
  }

  static func buttons(_ message: InboxMessage, kind: CardKind, shown: Int, _ warnings: ArraySlice<Warning>)
    -> ResolverReason
  {
    let given = message.value(for: "buttons")?.arrayValue?.count ?? 0
    let from = "buttons in the custom data"
    guard given > 0 else { return ResolverReason(.buttons, read: nil, from: from, decided: "no buttons") }
    guard kind.showsButtons else {
      return ResolverReason(
        .buttons, read: "\(given) button(s)", from: from, decided: "\(kind.rawValue) cards show no buttons: none shown",
        field: "buttons")
    }
    let dropped = warnings.filter { [.buttonDropped, .unknownButtonAction, .invalidButtonURL].contains($0.code) }
    return ResolverReason(
      .buttons, read: "\(given) button(s)", from: from,
      decided: "\(shown) shown" + (dropped.isEmpty ? "" : "; " + dropped.map(\.reason).joined(separator: "; ")),
      field: "buttons")
  }

  static func rowAction(_ message: InboxMessage, _ action: RowAction) -> ResolverReason {
    let keys = ["l", "rm", "h", "r"].filter { message.actionParams[$0] != nil }
    let read = keys.isEmpty ? nil : keys.map { "\($0) \(InboxMessage.describe(message.actionParams[$0] ?? .null))" }
    let decided =
      switch action {
      case .openURL(let url): "a row tap opens \(url)"
      case .deeplink(let url): "a row tap opens the deep link \(url)"
      case .richMedia(let code): "a row tap shows rich media \(code)"
      case .none: "a row tap does nothing"
      }
    return ResolverReason(
      .rowActions, read: read?.joined(separator: ", "), from: "the action params (l, rm, h, r)", decided: decided)
  }

  static func card(_ card: Card) -> ResolverReason {
    let asked = card.degradation.map { " (asked for \($0.from.rawValue))" } ?? ""
    return ResolverReason(
      .card, read: nil, from: "", decided: "a \(card.kind.rawValue) card\(asked), \(card.buttons.count) button(s)")
  }

  /// Each image, link, button or slide the scheme guard dropped since `step`, as a reason of its own.
  static func schemes(_ diagnostics: Diagnostics, since step: inout Int, into reasons: inout ResolverReasons) {
    for warning in diagnostics.warnings[step...] where warning.code == .unsafeScheme {
      reasons.add(ResolverReason(.unsafeSchemes, read: nil, from: "the scheme guard", decided: warning.reason))
    }
    step = diagnostics.warnings.count
  }

  /// The custom-data field a kind cannot render without.
  private static func requiredField(_ kind: CardKind) -> String? {
    switch kind {
    case .carousel, .video, .wallet: kind.rawValue
    case .banner, .captioned: "image"
    case .classic: nil
    }
  }
}
