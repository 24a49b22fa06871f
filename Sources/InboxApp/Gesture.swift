import InboxCore

/// A gesture of InboxKit's screen that a switch of the attributes allows: a row swiped away
/// (`swipeToDelete`) or the feed pulled to refresh (`pullToRefresh`). A call made as the gesture says
/// so (`message.dismiss {swipe: true}`, `feed.sync {pull: true}`), and is refused while its switch is
/// off, before anything changes; the same call made otherwise (a button, a menu, the periodic sync)
/// is never refused for it.
public enum Gesture: String, Sendable, Hashable, CaseIterable {
  case swipe, pull

  /// The attribute that allows it.
  public var attribute: String {
    switch self {
    case .swipe: "swipeToDelete"
    case .pull: "pullToRefresh"
    }
  }

  /// Whether `attributes` allow it.
  public func isAllowed(by attributes: Attributes) -> Bool {
    switch self {
    case .swipe: attributes.swipeToDelete
    case .pull: attributes.pullToRefresh
    }
  }
}

extension Inbox {
  /// Refuses `gesture` with `InboxError.gestureDisabled` while the attributes in force turn it off.
  public func allow(_ gesture: Gesture) throws(InboxError) {
    guard gesture.isAllowed(by: attributes) else { throw InboxError.gestureDisabled(gesture) }
  }
}
