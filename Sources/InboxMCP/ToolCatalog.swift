/// Every tool, in the order `tools/list` gives them. Each runs the JSON-RPC method named beside it.
enum ToolCatalog {
  private static let reads = Tool.Hints(readOnly: true, idempotent: true)

  static let all: [Tool] = [
    Tool(
      name: "list_feed", title: "List the inbox feed",
      description:
        "One page of the inbox in feed order (pinned first, then newest first) with the counts. Filter with "
        + "unreadOnly and kinds; pass nextCursor back as cursor for the next page. Card ids are what the other tools take.",
      method: "feed.list", hints: reads, text: ToolText.feed),
    Tool(
      name: "get_message", title: "Get one message",
      description:
        "The card of one visible message: kind, texts, image, state, row action and buttons (numbered from 0).",
      method: "message.get", hints: reads, text: ToolText.card),
    Tool(
      name: "inbox_counts", title: "Count the inbox",
      description: "Total, unread, unactioned (not opened) and pinned visible messages.",
      method: "feed.counts", hints: reads, text: ToolText.counts),
    Tool(
      name: "tap_message", title: "Tap a message",
      description:
        "Taps a message's row as a user would: it becomes read and opened (stored at once). Returns the row action "
        + "(a URL or deep link) for the host to open; the server opens nothing.",
      method: "message.tap", hints: Tool.Hints(idempotent: true), text: ToolText.tap),
    Tool(
      name: "tap_button", title: "Tap an inline button",
      description:
        "Taps a card's inline button (index from 0): the message becomes read and opened, and a dismiss button "
        + "removes it for good (unless performDefault is false); openURL and custom actions are returned, not performed.",
      method: "button.tap", hints: Tool.Hints(destructive: true, idempotent: true), text: ToolText.buttonTap),
    Tool(
      name: "tap_slide", title: "Tap a carousel slide",
      description:
        "Taps a carousel slide (index from 0): a slide with a url returns it and the message becomes read; a "
        + "slide without one is a row tap (read, opened, the row action). performDefault false changes nothing.",
      method: "slide.tap", hints: Tool.Hints(idempotent: true), text: ToolText.slideTap),
    Tool(
      name: "report_seen", title: "Report the rows on screen",
      description:
        "Reports the message ids now on screen (appeared) and those that left it (disappeared). With the "
        + "automaticReadOnDisappear attribute on (the default), the unread ones that left become read.",
      method: "feed.seen", hints: Tool.Hints(idempotent: true), text: ToolText.seen),
    Tool(
      name: "play_video", title: "Play a video card",
      description:
        "The player descriptor (url, poster) of a video card; the message becomes read. A card that is not a "
        + "video card is refused (NotAVideoCard).",
      method: "video.play", hints: Tool.Hints(idempotent: true), text: ToolText.videoPlay),
    Tool(
      name: "mark_read", title: "Mark messages read",
      description:
        "Marks the given messages read (stored at once, queued for the backend). Unknown, dismissed and already "
        + "read ids are listed as unchanged.",
      method: "message.markRead", hints: Tool.Hints(idempotent: true), text: ToolText.markRead),
    Tool(
      name: "mark_all_read", title: "Mark everything read",
      description: "Marks every visible unread message read (stored at once, queued for the backend).",
      method: "feed.markAllRead", hints: Tool.Hints(idempotent: true), text: ToolText.markRead),
    Tool(
      name: "dismiss_message", title: "Dismiss a message",
      description: "Removes a message from the feed for good (stored before the reply); it never comes back.",
      method: "message.dismiss", hints: Tool.Hints(destructive: true, idempotent: true), text: ToolText.dismiss),
    Tool(
      name: "ingest_payload", title: "Add a message from a payload",
      description:
        "Stores a message from a push payload, a send-request notification or a backend inbox message, and "
        + "returns its card. The same id again updates the stored message.",
      method: "message.ingest", hints: Tool.Hints(idempotent: true), text: ToolText.ingest),
    Tool(
      name: "resolve_payload", title: "Preview a payload's card",
      description: "The card a payload becomes under the attributes in force (or the ones given), without storing it.",
      method: "message.resolve", hints: reads, text: ToolText.card),
    Tool(
      name: "lint_payload", title: "Check a payload before sending",
      description:
        "What a marketer's payload becomes: its card or why it is refused, every degradation warning, and every "
        + "break of the input schemas (SendRequestNotification, MarketerData). A createMessage request or an array "
        + "is checked item by item.",
      method: "message.resolve", params: ["payload", "attributes", "now"], outputShape: "LintReport", run: .lint,
      hints: reads, text: ToolText.lint),
    Tool(
      name: "sync_inbox", title: "Sync with the backend",
      description:
        "Pull-to-refresh: pushes queued read and dismiss changes to the Pushwoosh backend, fetches the inbox and "
        + "merges it (force fetches even when the last fetch was recent). Reports progress when asked and can be "
        + "cancelled; the local feed keeps working when the backend cannot be reached.",
      method: "feed.sync", hints: Tool.Hints(destructive: true, openWorld: true), text: ToolText.sync),
  ]
}
