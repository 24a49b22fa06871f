#!/usr/bin/env python3
"""Call any method by name, one a line from stdin, and print every notification as it arrives.

    printf '%s\n' 'message.dismiss {"id": "welcome"}' 'feed.counts' | python3 clients/python/examples/listen.py

Each line is a method name and, optionally, its params as a JSON object. What a call answers is
printed after the notifications it caused (the server sends those first); an error is printed
with its name in the contract (or its code alone, when the contract names none).
"""

from __future__ import annotations

import json
import sys

from inbox_rpc_client import Client, InboxRpcError, Notification


def show(notification: Notification) -> None:
    print(f"{notification.method} {json.dumps(notification.params)}", flush=True)


def main() -> int:
    failed = 0
    with Client.from_env(on_notification=show) as inbox:
        for line in sys.stdin:
            method, _, params = line.strip().partition(" ")
            if not method:
                continue
            try:
                print(f"{method} -> {json.dumps(inbox.call(method, json.loads(params) if params else None))}")
            except InboxRpcError as error:
                failed += 1
                print(f"{method} -> {error.name or 'error'} {error.code} {json.dumps(error.data)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
