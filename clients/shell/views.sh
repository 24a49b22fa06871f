# shellcheck shell=bash
# The readable views of clients/shell/inbox: one jq program per method that has one, run on the
# call's result with the params asked as $asked (a notification's, on its params, to stderr while a
# call waits). Every other method prints its result as JSON.
# Payload text goes through `seen`, so a title cannot move the cursor nor fake a line of its own.

# views NAME: the jq program of method NAME's view ("" when it has none); `views defs` the helpers.
# shellcheck disable=SC2016 # jq's $names, not the shell's
views() {
  case $1 in
    defs) printf '%s' '
      def hex4: [. / 4096, . / 256, . / 16, .] | map(floor % 16 | "0123456789abcdef"[.:.+1]) | add;
      def seen: tostring | gsub("(?<c>[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069])";
        {"\n": "\\n", "\r": "\\r", "\t": "\\t"}[.c] // ("\\u" + (.c | explode[0] | hex4)));
      def col($n): seen | if length < $n then . + (" " * ($n - length)) else . end;
      def day: if . then sub("T"; " ") | .[0:16] else "never" end;
      def goes: if .type == "openURL" or .type == "deeplink" then "\(.type) \(.url | seen)"
        elif .type == "richMedia" then "richMedia \(.code | seen)"
        elif .type == "custom" then "custom \(.payload | tojson | seen)" else .type end;
      def heading: (.title // .body // .image // "(nothing to show)") | seen;
      def state: [if .read then "read" else "unread" end, (if .actionPerformed then "opened" else empty end),
        (if .pinned then "pinned" else empty end)] | join(", ");
      def tally: "\(.total) messages: \(.unread) unread, \(.unactioned) not opened, \(.pinned) pinned";
      def tab: if $asked.customData then "in the tab \($asked.customData | tojson | seen): " else "" end;
      def card: "card \(.id | seen), kind \(.kind)"
          + (if .requestedKind != .kind then " (its payload asks for \(.requestedKind | seen))" else "" end),
        (if .degraded then "  fallback  \(.degraded.reason | seen)" else empty end),
        "  heading   \(.title // "none" | seen)", "  text      \(.body // "none" | seen)",
        (if .image then "  picture   \(.image | seen)" else empty end),
        "  sent      \(.sentAt | day), expires \(.expiresAt | day)", "  status    \(state)",
        "  on tap    \(.rowAction | goes)",
        (.buttons | to_entries[] | "  button \(.key)  \(.value.title | seen) -> \(.value.action | goes)"),
        (.carousel // [] | to_entries[] | "  slide \(.key)   \(.value.title // "untitled" | seen), \(.value.image | seen)"),
        (if .video then "  video     \(.video.url | seen)" else empty end),
        (if .wallet then "  pass      \(.wallet.pass | seen)" else empty end);' ;;
    feed.list) printf '%s' '
      (.items[] | "\(if .read then " " else "u" end)\(if .pinned then "p" else " " end) \(.id | col(20)) \(.kind | col(9)) \(.sentAt | day)  \(heading)",
        (if .degraded then "     shown as \(.kind), not \(.degraded.from): \(.degraded.reason | seen)" else empty end),
        (if (.buttons | length) > 0
          then "     " + ([.buttons | to_entries[] | "(\(.key)) \(.value.title | seen) -> \(.value.action | goes)"] | join("  "))
          else empty end)),
      "this page: \(.items | length) (u unread, p pinned); \(tab)\(.counts | tally)",
      (if .nextCursor then "next page: inbox feed.list cursor=\(.nextCursor | seen)" else empty end)' ;;
    feed.counts) printf '%s' 'tab + tally' ;;
    feed.markAllRead) printf '%s' 'tab + "newly read: \(.changed)"' ;;
    feed.dismissRead) printf '%s' 'tab + "dismissed \(.dismissed) read messages, pinned or not"' ;;
    feed.dismissAll) printf '%s' 'tab + "dismissed \(.dismissed) messages"' ;;
    message.get | message.resolve) printf '%s' 'card' ;;
    message.ingest) printf '%s' '"\(.outcome) to the store:", (.message | card)' ;;
    message.tap) printf '%s' '"\(.message.id | seen) (\(.message | heading)) is now \(.message | state)",
      "the host opens: \(.action | goes)", (if .customData then "custom data: \(.customData | tojson | seen)" else empty end)' ;;
    button.tap) printf '%s' '"button action: \(.action | goes)"
        + if .performed then ", carried out by the server" elif .action.type == "openURL" or .action.type == "custom"
          then ", for the host to carry out" else "" end,
      (if .message == null then "\($asked.id | seen) is no longer in the feed" else empty end)' ;;
    slide.tap) printf '%s' '"the slide opens: \(.action | goes)", "\(.message.id | seen) is now \(.message | state)"' ;;
    feed.seen) printf '%s' '"newly read: " + (if (.read | length) > 0 then (.read | map(seen) | join(", ")) else "none" end),
      (if (.unknown | length) > 0 then "not in the feed: \(.unknown | map(seen) | join(", "))" else empty end)' ;;
    video.play) printf '%s' '"the host plays: \(.video.url | seen)" + (if .video.poster then " (poster \(.video.poster | seen))" else "" end),
      "\(.message.id | seen) is now \(.message | state)"' ;;
    wallet.download) printf '%s' '"the pass is at \(.pass.path | seen) (\(.pass.size) bytes, sha256 \(.pass.sha256))",
      "from \(.pass.url | seen); \(.message.id | seen) is now \(.message | state)"' ;;
    wallet.report) printf '%s' '"\(.id | seen): the pass " + (if .outcome == "added" then "is in the Wallet"
      else "was not added (\(.reason // "no reason given" | seen))" end), "\(.message.id | seen) is now \(.message | state)"' ;;
    message.dismiss) printf '%s' 'if .dismissed then "\($asked.id | seen) dismissed" else "\($asked.id | seen) had been dismissed before" end' ;;
    message.markRead) printf '%s' '"newly read: \(.changed)"
      + if (.unchanged | length) > 0 then " (left as they were: \(.unchanged | map(seen) | join(", ")))" else "" end' ;;
    feed.sync) printf '%s' '"from the backend: \(.added) new, \(.updated) changed, \(.removed) gone, \(.expired) expired",
      "to the backend: \(.pushed) sent, \(.pending) waiting, \(.failed) failed" + (if .throttled then " (fetch skipped: too soon)" else "" end),
      (if .pushError then "sending failed: \(.pushError.message | seen)" else empty end)' ;;
    sync.progress) printf '%s' '"sync: \(.stage)" + (if .total then " \(.done // 0) of \(.total)" else "" end)' ;;
  esac
}
