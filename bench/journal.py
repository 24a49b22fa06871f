#!/usr/bin/env python3
"""bench/journal.py: what the change journal (`feed.changes`, docs/many-processes.md#the-journal) costs.

  changes   feed.changes of 1,000 changes (limit 1000) on a 100k store, against the same on a 1k
            store: the read is a range of the journal's key, so the store's size should not show.
            The stores are filled by SQLite directly (the journal's triggers are the file's, so
            they journal those rows too), then 1,000 messages are marked read through the server.
  sync      feed.sync of 10,000 new messages into an empty store, against the same sync into a
            store whose journal triggers were dropped (the switch): the journal's share of a sync.

Each figure is the median of the repetitions, both sides measured in the same run, alternating.

  bench/journal.py                    build (release) if needed, run, write its section of bench/RESULTS.md
  bench/journal.py --quick            fewer repetitions, print only
  INBOX_RPC_BIN=path bench/journal.py use that binary
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

from sync import APP, REPO, TOKEN, Client, PrebuiltBackend, fill, timed_sync  # noqa: E402
from results_section import write_section  # noqa: E402

TRIGGERS = ("journal_insert", "journal_update", "journal_delete")


def changes_on(binary: str, env: dict[str, str], size: int, repeat: int) -> float:
    """Median seconds of feed.changes {since, limit: 1000} answering 1,000 changes, on a store of `size`."""
    with tempfile.TemporaryDirectory() as directory:
        store = os.path.join(directory, "inbox.sqlite")
        Client([binary, "--store", store], env).close()  # the schema
        with sqlite3.connect(store) as database:
            database.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO messages"
                " (id, payload, ingested_at, source, pinned, sort_time, server_status, status)"
                " SELECT 'm' || i, '{}', 0, 'backend', 0, i, 1, 1 FROM n", (size,))
            database.execute("UPDATE feed_counts SET total = ?, unread = ?, unactioned = ?, unseen = ?", (size,) * 4)
        client = Client([binary, "--store", store], env)
        since = client.call("feed.changes")["cursor"]
        client.call("message.markRead", {"ids": [f"m{i}" for i in range(1, 1001)]})
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            page = client.call("feed.changes", {"since": since, "limit": 1000})
            times.append(time.perf_counter() - start)
            assert len(page["changes"]) == 1000, len(page["changes"])
        client.close()
        return statistics.median(times)


def sync_into(binary: str, env: dict[str, str], backend: PrebuiltBackend, count: int, journal: bool) -> float:
    """Seconds of one feed.sync of `count` new messages, with the journal's triggers or without."""
    with tempfile.TemporaryDirectory() as directory:
        store = os.path.join(directory, "inbox.sqlite")
        Client([binary, "--store", store], env).close()
        if not journal:
            with sqlite3.connect(store) as database:
                for trigger in TRIGGERS:
                    database.execute(f"DROP TRIGGER {trigger}")
        client = Client([binary, "--store", store, "--backend-url", backend.url, "--application", APP,
                         "--user-id", "bench", "--hwid", "bench"], env)
        timed = timed_sync(client)
        assert timed["result"]["added"] == count, timed["result"]
        client.close()
        return timed["total"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick else 9
    binary = os.environ.get("INBOX_RPC_BIN")
    if not binary:
        subprocess.run(["swift", "build", "-c", "release", "--product", "inbox-rpc"], cwd=REPO, check=True,
                       stdout=sys.stderr)
        binary = str(REPO / ".build" / "release" / "inbox-rpc")
    env = {k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_")}
    env["INBOX_RPC_API_TOKEN"] = TOKEN
    small = changes_on(binary, env, 1_000, repeat * 3)
    large = changes_on(binary, env, 100_000, repeat * 3)
    backend = PrebuiltBackend()
    fill(backend, 10_000, "a", int(time.time()))
    backend._inboxes["bench"] = backend._inboxes.pop("user-1")
    backend.prebuild("bench")
    on, off = [], []
    try:
        for _ in range(repeat):
            on.append(sync_into(binary, env, backend, 10_000, journal=True))
            off.append(sync_into(binary, env, backend, 10_000, journal=False))
    finally:
        backend.close()
    synced, bare = statistics.median(on), statistics.median(off)
    ms = lambda s: f"{s * 1000:.1f} ms" if s < 0.1 else f"{s * 1000:.0f} ms"  # noqa: E731
    verdict = lambda ratio, target: "MET" if ratio <= target else "NOT MET"  # noqa: E731
    build = "release" if binary.endswith("release/inbox-rpc") else "debug"
    rows = [
        f"| feed.changes of 1,000 changes, 100k store | {ms(large)} | the 1k store, {ms(small)} | "
        f"{large / small:.2f} | ≤ 1.5 | {verdict(large / small, 1.5)} | {build} |",
        f"| feed.sync of 10,000 new messages, journalled | {ms(synced)} | journal triggers dropped, {ms(bare)} | "
        f"{synced / bare:.2f} | ≤ 1.1 | {verdict(synced / bare, 1.1)} | {build} |",
    ]
    table = ["| figure | inbox-rpc | reference | ratio | target | verdict | build |", "|---|---|---|---|---|---|---|", *rows]
    print("\n".join(table))
    if not args.quick:
        write_section("journal", "\n".join(["## Journal: feed.changes, and its cost on a sync (`bench/journal.py`)", *table]))


if __name__ == "__main__":
    main()
