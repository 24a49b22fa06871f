import JSON

/// One inbox message, read once from whichever wire shape carried it, so the resolver sees a single model.
///
/// Build it with `InboxMessage.ingest(_:context:warnings:)`, which detects the shape (backend message,
/// push payload, send-request notification object). Ingest is deterministic: re-ingesting `raw` with
/// `IngestContext(id: id, now: ingestedAt)` gives the same message, so a store may keep just those three.
public struct InboxMessage: Sendable, Hashable {
  /// The inbox code: `inbox_id`, `pw_inbox`, or the caller's / derived id of a send-request object.
  public var id: String
  /// The title, nil when absent or blank.
  public var title: String?
  /// The body (`text`, the alert body, or `content`), nil when absent or blank.
  public var body: String?
  /// The message's own image (`image`, `inbox_params.image`, `inbox_image`) if it is a parseable URL.
  public var image: String?
  /// When it was sent, unix seconds; nil when unknown (sorts as the oldest).
  public var sentAt: Int64?
  /// When it leaves the feed, unix seconds (`rt`, `inbox_days`, `inbox_date`); nil for never.
  public var expiresAt: Int64?
  /// The backend status; `delivered` for pushes and send requests.
  public var status: MessageStatus
  /// The backend's numeric `order`, kept as a string so codes beyond 2^53 keep every digit; it is the
  /// `inbox_code` of `inboxStatus`. Nil for messages the backend has not listed yet.
  public var order: String?
  /// The push hash echoed in `inboxStatus` (`hash`, or a push's `p`).
  public var hash: String?
  /// The action params and the normalised custom data, behind the one key lookup.
  public var data: CustomData
  /// Which wire shape the message came from.
  public var source: MessageSource
  /// The `now` of the ingest context, kept so re-ingesting `raw` reproduces the message.
  public var ingestedAt: Int64
  /// The payload exactly as it was received.
  public var raw: JSONValue
  /// A send request's title and body as written, by language when they are language objects; the
  /// resolver picks from them by `attributes.locale` (`title` and `body` are the default language's).
  public var localizedTitle: LocalizedText?
  public var localizedBody: LocalizedText?
  /// A send request's `platforms` (nil when it names none): the devices it is sent to.
  public var platforms: [TargetPlatform]?

  /// The title a device in `locale` shows.
  public func title(for locale: String?) -> String? { localizedTitle?.text(for: locale) ?? title }

  /// The body a device in `locale` shows.
  public func body(for locale: String?) -> String? { localizedBody?.text(for: locale) ?? body }

  /// The action parameters: the backend's `action_params`, or the whole push payload.
  public var actionParams: JSONObject { data.root }

  /// The normalised custom data the host sees (`u`, else `userdata`), nil when there is none.
  public var customData: JSONObject? { data.object }

  /// The value of an InboxKit key from the action params root, then `u`, then `userdata`
  /// (docs/engine.md#custom-data-and-the-key-lookup).
  public func value(for key: String) -> JSONValue? { data.value(for: key) }
}
