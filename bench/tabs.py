#!/usr/bin/env python3
"""bench/tabs.py: tabs and clearing, each beside its reference, written into bench/RESULTS.md.

  - feed.list (limit 50) and feed.counts under a customData filter, on a 1k and a 100k store: a
    filtered page must cost O(limit) and a one-key count O(1), so the ratio 100k/1k should stay
    near 1 (goal: at most 1.5, as the unfiltered page holds), for a common tab (a third of the
    store) and a rare one (60 messages spread over the store, whatever its size);
  - the choice it rests on: the same first page read with raw SQLite from a stored column scanned
    in feed order (`json_extract(tags, '$.category')`, what a store without the tag index would
    do), on the same two stores: its cost follows the rows before the page's last match;
  - feed.dismissRead of 10k read messages (one transaction: each dismissed, queued for the backend,
    one feed.changed listing every id) beside raw SQLite deleting the same rows from a copy of the
    same store in one transaction.

Usage: bench/tabs.py [--quick] [--no-write]; INBOX_RPC_BIN names the server (default: a release
build made here). Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time

from results_section import markdown_table, now, publish
from store import NOW, Server, build, make_store, round_trips
from sync_memory import cpu_seconds

CATEGORIES = ("promo", "orders", "account")


RARE = 60  # messages of the rare tab, whatever the store's size: a page of 50 on every store


def tagged(count: int, status: int = 1):
    """The message maker of a store of `count`: each in one of three categories, but RARE of them,
    spread evenly from the newest to the oldest, in "rare"."""
    return lambda index: tagged_message(index, status, rare=index % (count // RARE) == count // RARE - 1)


def tagged_message(index: int, status: int = 1, rare: bool = False) -> dict:
    category = "rare" if rare else CATEGORIES[index % 3]
    custom = {"category": category, **({"pinned": True} if index % 97 == 0 else {})}
    return {"inbox_id": f"m{index:06d}", "order": str(index + 1), "rt": str(NOW + 10**7),
            "send_date": str(NOW - index), "title": f"Message {index}", "text": "Body", "action_type": 0,
            "action_params": json.dumps({"u": custom}), "status": status, "hash": f"H{index}"}


def filtered_us(binary: str, store: str, method: str, category: str | None, count: int) -> tuple[float, float]:
    """`method` under {"category": category} (a first page: limit 50; None: no filter): the median round trip, and
    the server's CPU time per request (user + system, /proc), which the load of a shared machine
    moves far less than a round trip."""
    server = Server(binary, store)
    params = {**({"customData": {"category": category}} if category else {}),
              **({"limit": 50} if method == "feed.list" else {})}
    server.call(method, params)  # warm: the first read of the tab's rows
    before = cpu_seconds(server.process.pid)
    samples = round_trips(server, method, lambda _: params, count)
    cpu = (cpu_seconds(server.process.pid) - before) / count * 1e6
    server.close()
    return statistics.median(samples), cpu


def scan_us(store: str, category: str, count: int) -> float:
    """The same first page from a stored column scanned in feed order, raw SQLite (read only)."""
    database = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    sql = ("SELECT id, payload FROM messages WHERE status < 4 AND (expires_at IS NULL OR expires_at > ?) "
           "AND json_extract(tags, '$.category') = ? ORDER BY pinned DESC, sort_time DESC, id LIMIT 51")
    wanted = json.dumps(category)
    database.execute(sql, (NOW, wanted)).fetchall()
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        database.execute(sql, (NOW, wanted)).fetchall()
        samples.append((time.perf_counter() - start) * 1e6)
    database.close()
    return statistics.median(samples)


def clear_read_ms(binary: str, template: str, directory: str) -> float:
    """One feed.dismissRead of every message of a copy of `template` (all read)."""
    store = os.path.join(directory, "clear.sqlite")
    shutil.copyfile(template, store)
    server = Server(binary, store)
    server.call("feed.counts")
    start = time.perf_counter()
    result = server.call("feed.dismissRead")
    elapsed = (time.perf_counter() - start) * 1e3
    server.close()
    assert result["dismissed"] > 0, result
    os.remove(store)
    return elapsed


def raw_delete_ms(template: str, directory: str) -> float:
    """The same rows deleted by raw SQLite from a copy of the same store: one transaction, WAL,
    synchronous=NORMAL as the server runs."""
    store = os.path.join(directory, "raw.sqlite")
    shutil.copyfile(template, store)
    database = sqlite3.connect(store, isolation_level=None)
    database.execute("PRAGMA journal_mode=WAL")
    database.execute("PRAGMA synchronous=NORMAL")
    ids = [row[0] for row in database.execute("SELECT id FROM messages WHERE status BETWEEN 2 AND 3")]
    start = time.perf_counter()
    database.execute("BEGIN IMMEDIATE")
    database.executemany("DELETE FROM messages WHERE id = ?", ((id,) for id in ids))
    database.execute("COMMIT")
    elapsed = (time.perf_counter() - start) * 1e3
    database.close()
    os.remove(store)
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small stores and counts; does not write RESULTS.md")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    binary = build(args)
    big = 10_000 if args.quick else 100_000
    rounds = 100 if args.quick else 1000
    clearing = 2_000 if args.quick else 10_000
    with tempfile.TemporaryDirectory() as directory:
        small, large = os.path.join(directory, "1k.sqlite"), os.path.join(directory, "big.sqlite")
        read = os.path.join(directory, "read.sqlite")
        t0 = time.perf_counter()
        make_store(binary, small, 1_000, tagged(1_000))
        make_store(binary, large, big, tagged(big))
        make_store(binary, read, clearing, tagged(clearing, status=2))
        built = time.perf_counter() - t0
        figures = {}
        for method in ("feed.list", "feed.counts"):
            for category in ("promo", "rare", None):
                # Alternated, five times: both stores see the same load.
                pairs = [(filtered_us(binary, small, method, category, rounds),
                          filtered_us(binary, large, method, category, rounds)) for _ in range(5)]
                figures[method, category] = [
                    (statistics.median(p[0][k] for p in pairs), statistics.median(p[1][k] for p in pairs),
                     statistics.median(p[1][k] / p[0][k] for p in pairs)) for k in (0, 1)]
        scans = {category: (scan_us(small, category, rounds), scan_us(large, category, rounds))
                 for category in ("promo", "rare")}
        clears = [(clear_read_ms(binary, read, directory), raw_delete_ms(read, directory)) for _ in range(3)]
    clear, raw = statistics.median(c for c, _ in clears), statistics.median(r for _, r in clears)
    rows = []
    for (method, category), ((one, many, ratio), (cpu_one, cpu_many, cpu_ratio)) in figures.items():
        what = "first page, limit 50" if method == "feed.list" else "count"
        share = {"rare": f"tab of {RARE} messages", "promo": "tab of a third", None: "no filter"}[category]
        rows.append((f"{method} {what}, {share}, {big // 1000}k store: round trip; server CPU per request",
                     f"{many:.0f} µs; {cpu_many:.0f} µs", f"the 1k store ({one:.0f} µs; {cpu_one:.0f} µs)",
                     f"{ratio:.2f}; {cpu_ratio:.2f}"))
    for category, (one, many) in scans.items():
        share = f"{RARE} messages" if category == "rare" else "a third"
        rows.append((f"reference: stored column scanned in feed order, tab of {share}, {big // 1000}k store",
                     f"{many:.0f} µs", f"the 1k store ({one:.0f} µs)", f"{many / one:.2f}"))
    rows.append((f"feed.dismissRead of {clearing:,} read messages (round trip)", f"{clear:.0f} ms",
                 "raw SQLite deleting the same rows, one transaction", f"{clear / raw:.2f} (raw {raw:.0f} ms)"))
    table = markdown_table(["measure", "inbox-rpc", "reference", "ratio"], rows)
    publish("tabs", "Tabs and clearing", table, (
        f"Measured {now()} by `bench/tabs.py` (release build; stores built through `message.ingest`, every\n"
        f"message in one of three categories but {RARE}, spread over the store, in \"rare\"; {big:,} messages and the rest in\n"
        f"{built:.0f} s). Filtered figures are medians of {rounds} round trips from a Python client over pipes, and the\n"
        f"server's CPU time (user + system) over them per request, which the load of the shared machine moves less;\n"
        f"1k and {big // 1000}k alternated five times, the ratio the median of the five paired ratios. The reference rows read the\n"
        f"same page with Python's sqlite3 from the `tags` column alone, scanning `feed_order`: a common tab\n"
        f"costs what its page costs, a rare one what the rows before its 51st match cost, which grows with the\n"
        f"store, so the store keeps an index of each top-level key instead (`message_tags`, schema version 7).\n"
        f"The clear is one `feed.dismissRead` on a copy of a store of {clearing:,} read messages: each row's status\n"
        f"raised and stamped, its dismissal queued in the outbox, the counts and the tag index kept, one\n"
        f"`feed.changed` with every id; the reference deletes the same rows from another copy (its triggers keep\n"
        f"the tag index too) in one transaction, medians of three."),
        write=not (args.quick or args.no_write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
