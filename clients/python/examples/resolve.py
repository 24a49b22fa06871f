#!/usr/bin/env python3
"""Show the card a payload becomes (push, send-request or backend message), storing nothing.

    python3 clients/python/examples/resolve.py FILE
"""

from __future__ import annotations

import argparse
import json

from inbox_rpc_client import Client
from shown import shown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=argparse.FileType("r"), help="a JSON payload")
    options = parser.parse_args()
    payload = json.load(options.file)

    with Client.from_env() as inbox:
        try:
            card = inbox.message.resolve(payload=payload)
        except inbox.errors.NotAnInboxMessage as error:
            print(f"not an inbox message: {shown(error.data['reason'])}")
            return 5
        asked = f" (asked for {card['requestedKind']})" if card["requestedKind"] != card["kind"] else ""
        print(f"{card['id']}: {card['kind']} card{asked}")
        if card["degraded"]:
            print(f"  degraded: {shown(card['degraded']['reason'])}")
        print(f"  {shown(card['title'])} / {shown(card['body'])}")
        for index, button in enumerate(card["buttons"]):
            print(f"  button {index}: {shown(button['title'])} -> {button['action']['type']}")
        print(f"  tapping the row: {card['rowAction']['type']} {shown(card['rowAction'].get('url', ''))}".rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
