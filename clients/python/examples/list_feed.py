#!/usr/bin/env python3
"""List the inbox feed page by page, then the counts and the warnings the server sent.

    python3 clients/python/examples/list_feed.py [--page-size N] [--unread] [--warnings]

The server comes from INBOX_RPC_BIN, the store from INBOX_STORE, more flags from INBOX_RPC_FLAGS
(e.g. --sample-feed), as for the shell client.
"""

from __future__ import annotations

import argparse
from typing import Any, Dict, Iterator, List

from inbox_rpc_client import Client, Notification
from shown import shown


def cards(inbox: Client, **filters: Any) -> Iterator[Dict[str, Any]]:
    """Every card of the feed, a page at a time: each message once, whatever changes meanwhile."""
    cursor = None
    while True:
        page = inbox.feed.list(cursor=cursor, **filters)
        yield from page["items"]
        cursor = page["nextCursor"]
        if cursor is None:
            return


def describe(card: Dict[str, Any]) -> str:
    marks = ("*" if not card["read"] else " ") + ("P" if card["pinned"] else " ")
    sent = (card["sentAt"] or "-").replace("T", " ")[:16]
    headline = card["title"] or card["body"] or card["image"] or "(no title)"
    return f"{marks} {card['id']:<20} {card['kind']:<9} {sent}  {shown(headline)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page-size", type=int, default=5, help="cards per feed.list call")
    parser.add_argument("--unread", action="store_true", help="unread cards only")
    parser.add_argument("--warnings", action="store_true", help="print the server's warnings")
    options = parser.parse_args()

    warnings: List[Notification] = []
    with Client.from_env() as inbox:
        inbox.on("log", warnings.append)
        listed = 0
        for card in cards(inbox, limit=options.page_size, unreadOnly=options.unread or None):
            listed += 1
            print(describe(card))
            if card["degraded"]:
                print(f"     degraded from {card['degraded']['from']}: {shown(card['degraded']['reason'])}")
            for index, button in enumerate(card["buttons"]):
                print(f"     [{index}] {shown(button['title'])}: {button['action']['type']}")
        counts = inbox.feed.counts()
        print(
            f"{listed} shown (* unread, P pinned); total {counts['total']}, unread {counts['unread']}, "
            f"unactioned {counts['unactioned']}, pinned {counts['pinned']}"
        )
    if options.warnings:
        for warning in warnings:
            print(f"warning: {shown(warning.params['message'])}")
    elif warnings:
        print(f"{len(warnings)} warnings from the server (--warnings lists them)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
