import InboxCore

/// The application layer's own refusals. Errors of the layers below pass through unchanged:
/// `IngestError` (not an inbox message), `StoreError`, `SyncFailure`.
public enum InboxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No visible message has this id (unknown, dismissed or expired).
  case messageNotFound(id: String)
  /// An argument the contract could not rule out is wrong for this message or store: a button or
  /// slide the card does not have, a cursor of another store, attributes that do not merge.
  /// `argument` names it as the caller spelled it (`button`, `cursor`, `attributes.forceCellKind`).
  case invalidArgument(argument: String, reason: String)
  /// The card renders as another kind than the interaction needs (`expected`: video to play, wallet
  /// to add a pass), a degraded one included: `kind` is the kind it renders as, `degradation` why the
  /// expected kind fell back, when it did.
  case wrongKind(id: String, expected: CardKind, kind: String, degradation: String?)
  /// A swipe or a pull while the attribute that allows it is off (`Gesture`); nothing changed.
  case gestureDisabled(Gesture)

  public var description: String {
    switch self {
    case .messageNotFound(let id): "no visible message has the id \(id)"
    case .invalidArgument(let argument, let reason): "\(argument): \(reason)"
    case .wrongKind(let id, let expected, let kind, _): "message \(id) is a \(kind) card, not a \(expected) card"
    case .gestureDisabled(let gesture): "a \(gesture.rawValue) is refused: \(gesture.attribute) is off"
    }
  }
}
