#!/usr/bin/env python3
"""Dismiss a message; the dismissal is stored before the reply, so it survives a restart.

    python3 clients/python/examples/dismiss.py ID
"""

from __future__ import annotations

import argparse

from inbox_rpc_client import Client


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("id", help="the message id")
    options = parser.parse_args()

    with Client.from_env() as inbox:
        try:
            dismissed = inbox.message.dismiss(id=options.id)["dismissed"]
        except inbox.errors.MessageNotFound:
            print(f"no message {options.id!r}")
            return 3
        print(f"dismissed {options.id}" if dismissed else f"{options.id} was already dismissed")
        counts = inbox.feed.counts()
        print(f"{counts['total']} messages left, {counts['unread']} unread")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
