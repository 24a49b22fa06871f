import InboxCore
import InboxStore
import JSON

/// A card, its wire shape (`Card.json`, made once with the card), and what reading it caused.
public struct CardResult: Sendable, Hashable {
  public var card: Card
  public var json: JSONValue
  public var effects: Effects
}

/// A row tap: the card after it (with its wire shape), and the row action for the host to perform.
public struct TapOutcome: Sendable, Hashable {
  public var card: Card
  public var cardJSON: JSONValue
  public var action: RowAction
  public var effects: Effects
}

/// A button tap: the button's action, whether the engine performed it, and the card after it (nil
/// when the tap dismissed the message).
public struct ButtonOutcome: Sendable, Hashable {
  public var action: ButtonAction
  public var performed: Bool
  public var card: Card?
  /// The card's wire shape, made once with it.
  public var cardJSON: JSONValue?
  public var effects: Effects
}

/// A slide tap: the action for the host to open, and the card after it (with its wire shape).
public struct SlideOutcome: Sendable, Hashable {
  public var action: RowAction
  public var card: Card
  public var cardJSON: JSONValue
  public var effects: Effects
}

/// A dismissal: false when the message already was dismissed.
public struct DismissOutcome: Sendable, Hashable {
  public var dismissed: Bool
  public var effects: Effects
}

extension Inbox {
  /// The card of a visible message.
  public func card(id: String) throws -> CardResult {
    var effects = Effects()
    let found = try resolved(visibleMessage(id, now: clock.now), &effects)
    return CardResult(card: found.card, json: found.json, effects: effects)
  }

  /// A row tap (docs/engine.md#row-taps): marks the message read and opened, persistently, unless
  /// `performDefault` is false, and returns its row action.
  public func tap(id: String, performDefault: Bool = true) throws -> TapOutcome {
    let now = clock.now
    var effects = Effects()
    let stored = try visibleMessage(id, now: now, marking: performDefault) { edit in
      if try edit.markOpened() { effects.record(FeedChange(.opened, updated: [id])) }
    }
    let found = try resolved(stored, &effects)
    return TapOutcome(card: found.card, cardJSON: found.json, action: found.card.rowAction, effects: effects)
  }

  /// A button tap (docs/engine.md#button-taps). Unless `performDefault` is false (then nothing changes, as for a row
  /// tap), every tap marks the message opened, persistently: the SDKs report an open (status 3, which
  /// implies read) for each button tap, and the Control Panel counts opens. Then `dismiss` and
  /// `markRead` are performed by the engine; `openURL` and `custom` are for the host, never performed.
  public func tapButton(id: String, index: Int, performDefault: Bool = true) throws -> ButtonOutcome {
    let now = clock.now
    var effects = Effects()
    return try editVisible(id, now: now) { edit in
      var found = try resolved(edit.row, &effects)
      guard found.card.buttons.indices.contains(index) else {
        throw InboxError.invalidArgument(
          argument: "button",
          reason: "no button \(index): the card has \(found.card.buttons.count) (indexes start at 0)")
      }
      let action = found.card.buttons[index].action
      guard performDefault else {
        return ButtonOutcome(action: action, performed: false, card: found.card, cardJSON: found.json, effects: effects)
      }
      // Opened before dismissed, so the backend hears 3 then 4, as Android sends them.
      let opened = try edit.markOpened()
      if case .dismiss = action {
        let dismissed = try edit.dismiss()
        if dismissed { effects.record(FeedChange(.dismissed, removed: [id])) }
        return ButtonOutcome(action: action, performed: dismissed, card: nil, cardJSON: nil, effects: effects)
      }
      if opened {
        effects.record(FeedChange(.opened, updated: [id]))
        found = try resolved(edit.row, &effects)
      }
      let performed = if case .markRead = action { true } else { false }
      return ButtonOutcome(
        action: action, performed: performed, card: found.card, cardJSON: found.json, effects: effects)
    }
  }

  /// A slide tap, as InboxKit's carousel handles it: a slide without a url is the row tap whole
  /// (read, opened, the row action); a slide with one opens it and marks the message read, not
  /// opened (the row's own action did not run). `performDefault` false changes nothing, as for a
  /// row tap.
  public func tapSlide(id: String, index: Int, performDefault: Bool = true) throws -> SlideOutcome {
    let now = clock.now
    var effects = Effects()
    let card = try self.card(visibleMessage(id, now: now), &effects)
    let link: RowAction?
    do {
      link = try card.slideLink(index: index)
    } catch {
      throw InboxError.invalidArgument(argument: "slide", reason: error.reason)
    }
    guard let link else {
      let tap = try self.tap(id: id, performDefault: performDefault)
      effects.changes += tap.effects.changes
      effects.warnings += tap.effects.warnings
      return SlideOutcome(action: tap.action, card: tap.card, cardJSON: tap.cardJSON, effects: effects)
    }
    let stored = try visibleMessage(id, now: now, marking: performDefault) { edit in
      if try edit.markRead() { effects.record(FeedChange(.read, updated: [id])) }
    }
    let found = try resolved(stored, &effects)
    return SlideOutcome(action: link, card: found.card, cardJSON: found.json, effects: effects)
  }

  /// Dismisses a message for good, persistently (docs/engine.md#dismissal); a dismissed message never comes back.
  /// Unknown ids are refused; an expired one not purged yet is dismissed as any other. A `swipe`
  /// is refused first, with nothing read or changed, while `swipeToDelete` is off.
  public func dismiss(id: String, swipe: Bool = false) throws -> DismissOutcome {
    if swipe { try allow(.swipe) }
    var effects = Effects()
    let dismissed = try store.editMessage(id: id, now: clock.now) { edit in
      guard edit != nil else { throw InboxError.messageNotFound(id: id) }
      return try edit!.dismiss()
    }
    if dismissed { effects.record(FeedChange(.dismissed, removed: [id])) }
    return DismissOutcome(dismissed: dismissed, effects: effects)
  }

  /// The visible message with this id after `mark` ran on it in one write transaction, or as it is
  /// when `perform` is false.
  func visibleMessage(
    _ id: String, now: Int64, marking perform: Bool, _ mark: (inout MessageEdit) throws -> Void
  ) throws -> StoredMessage {
    guard perform else { return try visibleMessage(id, now: now) }
    return try editVisible(id, now: now) { edit in
      try mark(&edit)
      return edit.row
    }
  }

  /// Runs `body` on the visible message with this id inside one write transaction.
  private func editVisible<T>(_ id: String, now: Int64, _ body: (inout MessageEdit) throws -> T) throws -> T {
    try store.editMessage(id: id, now: now) { found in
      guard var edit = found, !edit.row.isDismissed, edit.row.expiresAt.map({ $0 > now }) ?? true else {
        throw InboxError.messageNotFound(id: id)
      }
      defer { found = edit }
      return try body(&edit)
    }
  }
}
