/// A message's status as the Pushwoosh backend counts it, so read/opened flags derive from one number.
///
/// An open struct rather than an enum: the backend may send values this engine does not know
/// (0 "created" from iOS pushes, or a future code), and they must survive a round trip.
/// Statuses only go up: 1 delivered < 2 read < 3 opened < 4 deleted by the user < 5 deleted by the service
/// (docs/engine.md#statuses).
public struct MessageStatus: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The backend's number.
  public var rawValue: Int64

  /// Wraps any backend number.
  public init(rawValue: Int64) { self.rawValue = rawValue }

  /// 1: delivered to the device, not yet read.
  public static let delivered = MessageStatus(rawValue: 1)
  /// 2: read.
  public static let read = MessageStatus(rawValue: 2)
  /// 3: opened (the action was performed); implies read.
  public static let opened = MessageStatus(rawValue: 3)
  /// 4: deleted by the user.
  public static let deletedByUser = MessageStatus(rawValue: 4)
  /// 5: deleted from the Control Panel.
  public static let deletedByService = MessageStatus(rawValue: 5)

  /// Read once the status reaches 2 (a deleted message was read too).
  public var isRead: Bool { rawValue >= MessageStatus.read.rawValue }
  /// Action performed once the status reaches 3.
  public var isActionPerformed: Bool { rawValue >= MessageStatus.opened.rawValue }
  /// Deleted by the user or the service.
  public var isDeleted: Bool { rawValue >= MessageStatus.deletedByUser.rawValue }

  /// Statuses order by their number: delivered < read < opened < deleted.
  public static func < (lhs: MessageStatus, rhs: MessageStatus) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The number, as the backend writes it.
  public var description: String { String(rawValue) }
}
