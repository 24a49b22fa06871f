/// Which of the three wire shapes a message was read from, because each one fills the model differently.
public enum MessageSource: String, Sendable, Hashable, CaseIterable {
  /// A message object of the backend's `getInboxMessages` reply (has `inbox_id`).
  case backend
  /// A received push that carries inbox fields (has `pw_inbox`).
  case push
  /// A notification object of a `createMessage` send request (has `inbox_image`, `inbox_date` or `inbox_days`).
  case sendRequest
}
