#!/usr/bin/env python3
"""Tap a button of a card and act on what comes back, as an app would.

    python3 clients/python/examples/tap_button.py ID N

`dismiss` and `markRead` are performed by the server; `openURL` and `custom` are the host's to
act on. Every tap marks the message opened (the backend counts it as an open). The `feed.changed`
notification a tap causes is printed as it arrives, with the unread count it carries (a badge).
"""

from __future__ import annotations

import argparse

from inbox_rpc_client import Client, Notification
from shown import shown


def on_change(notification: Notification) -> None:
    changes = {k: v for k, v in notification.params.items() if k not in ("reason", "counts")}
    badge = notification.params.get("counts", {}).get("unread")
    print(f"feed.changed: {notification.params['reason']} {changes}, {badge} unread")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("id", help="the message id")
    parser.add_argument("button", type=int, help="the button index, from 0")
    options = parser.parse_args()

    with Client.from_env() as inbox:
        inbox.on("feed.changed", on_change)
        try:
            tapped = inbox.button.tap(id=options.id, button=options.button)
        except inbox.errors.MessageNotFound as error:
            print(f"no message {error.data['id']!r} in the feed")
            return 3
        except inbox.errors.InvalidParams as error:
            print(f"cannot tap that: {shown(error.data['reason'])}")
            return 4
        action = tapped["action"]
        if action["type"] == "openURL":
            print(f"open {shown(action['url'])} (the host opens it)")
        elif action["type"] == "custom":
            print(f"custom action for the host: {shown(action['payload'])}")
        elif tapped["performed"]:
            print(f"{action['type']}: done by the server")
        if tapped["message"] is None:
            print(f"{options.id} left the feed")
        else:
            card = tapped["message"]
            state = "opened" if card["actionPerformed"] else "read" if card["read"] else "unread"
            print(f"{options.id} stays in the feed, {state}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
