#!/usr/bin/env python3
"""A host's integration test against `inbox-rpc backend`, the double of the Pushwoosh inbox backend:

    python3 clients/examples/host_integration.py      # INBOX_RPC_BIN names the server, or PATH has it

1. the double starts with a fixture (three createMessage notifications) and a fault: the first
   inboxStatus it receives is answered HTTP 500, unapplied;
2. the server, pointed at it, syncs the three messages; the host taps one and dismisses another;
3. a sync meets the fault; the server is killed with SIGKILL before anything else;
4. a new server on the same store syncs again;
5. the double's request log says every status arrived, and was applied, exactly once.

Prints each step and exits 0, or 1 naming what went wrong. Uses the Python client
(clients/python) and the standard library only.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from inbox_rpc_client import Client, find_server

APPLICATION, USER, TOKEN = "HOSTS-00001", "alice", "host-test-token"
FIXTURE = [
    {"id": "order-shipped", "payload": {"ios_title": "Your order shipped", "content": "Track it", "inbox_days": 30,
                                        "link": "myapp://orders/1"}},
    {"id": "weekly-digest", "payload": {"ios_title": "This week", "content": "Five new arrivals", "inbox_days": 30}},
    {"id": "survey", "payload": {"content": "Tell us how we did", "inbox_days": 30}},
]


def start_double(directory: Path, binary: str) -> "tuple[subprocess.Popen[bytes], str]":
    (directory / "fixture.json").write_text(json.dumps(FIXTURE))
    (directory / "token").write_text(TOKEN)
    double = subprocess.Popen(
        [binary, "backend", "--fixture", str(directory / "fixture.json"), "--application", APPLICATION,
         "--token-file", str(directory / "token"), "--log", str(directory / "requests.jsonl"),
         "--fault", "inboxStatus:500:1"],
        stdout=subprocess.PIPE)
    assert double.stdout is not None
    url = double.stdout.readline().decode().strip()  # printed once it listens
    if not url:
        raise SystemExit(f"inbox-rpc backend did not start (exit {double.wait()})")
    return double, url


def server(binary: str, store: Path, url: str) -> Client:
    return Client(Path(binary), store=store, env={**os.environ, "INBOX_RPC_API_TOKEN": TOKEN},
                  args=["--backend-url", url, "--application", APPLICATION, "--user-id", USER])


def applied_statuses(log: Path) -> "collections.Counter[tuple[str, int]]":
    """(inbox_code, status) -> how many times the double applied it."""
    counts: "collections.Counter[tuple[str, int]]" = collections.Counter()
    for line in log.read_text().splitlines():
        record = json.loads(line)
        if record["method"] == "inboxStatus" and record["reply"]["applied"]:
            request = record["body"]["request"]
            counts[(request["inbox_code"], request["status"])] += 1
    return counts


def main() -> int:
    binary = find_server()
    with tempfile.TemporaryDirectory(prefix="host-integration-") as name:
        directory = Path(name)
        double, url = start_double(directory, binary)
        try:
            first = server(binary, directory / "inbox.sqlite", url)
            print(f"synced: added {first.feed.sync(force=True)['added']}")
            tapped = first.message.tap(id="order-shipped")
            print(f"tapped order-shipped: the host opens {tapped['action']['url']}")
            first.message.dismiss(id="weekly-digest")
            print("dismissed weekly-digest")
            # A refused change stays queued; the sync still fetches, and says what was refused.
            report = first.feed.sync(force=True)
            if not report["failed"]:
                print(f"sync: the fault was not met: {report}", file=sys.stderr)
                return 1
            print(f"sync met the fault: pushed {report['pushed']}, failed {report['failed']}, "
                  f"pending {report['pending']} ({report['pushError']['message']})")
            assert first.process is not None
            first.process.kill()  # SIGKILL: nothing is flushed, nothing is said goodbye
            first.process.wait()
            print("server killed with SIGKILL")

            with server(binary, directory / "inbox.sqlite", url) as second:
                report = second.feed.sync(force=True)
                print(f"synced again: pushed {report['pushed']}, pending {report['pending']}")
                if report["pending"] != 0:
                    return 1
        finally:
            double.kill()
            double.wait()
        counts = applied_statuses(directory / "requests.jsonl")
        listed = {json.loads(line)["method"] for line in (directory / "requests.jsonl").read_text().splitlines()}
        print(f"the double saw: {', '.join(sorted(listed))}")
        print("statuses applied: " + ", ".join(f"{code[-4:]}={status} x{n}" for (code, status), n in sorted(counts.items())))
        # The double numbers a fixture's notifications in order from 50000000000000001 (its `order`,
        # sent back as `inbox_code`). order-shipped: read (2), opened (3); weekly-digest: deleted (4).
        shipped, digest = "50000000000000001", "50000000000000002"
        if counts != collections.Counter([(shipped, 2), (shipped, 3), (digest, 4)]):
            print("every status must arrive exactly once", file=sys.stderr)
            return 1
        print("every status arrived exactly once")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
