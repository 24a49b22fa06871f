#!/usr/bin/env python3
"""bench/preview.py: `inbox-rpc preview` of the sample feed, beside the same feed listed as JSON.

Both are whole processes on the same store (the sample feed, 10 cards): the preview opens the store,
resolves every card and writes the HTML page; the reference is the server answering one `feed.list`
(open the store, resolve every card, write JSON) and exiting. They alternate, repetition after
repetition, so a shared machine's noise lands on both; each figure is the median. Then, inside one
server, a `message.render` round trip beside a `message.get` of the same card: the HTML's own cost.

  bench/preview.py                 build (release) if needed, run, write its section of bench/RESULTS.md
  bench/preview.py --quick         fewer repetitions, print only
  INBOX_RPC_BIN=path bench/preview.py   use that binary
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))
from results_section import markdown_table, write_section  # noqa: E402

CLOCK = 1_790_000_000
CARDS = ["welcome", "summer-sale", "new-arrivals", "the-reveal", "loyalty-card", "hero-banner", "plain-note",
         "broken-video", "captioned-no-image", "unknown-kind"]


def binary() -> str:
    if os.environ.get("INBOX_RPC_BIN"):
        return os.environ["INBOX_RPC_BIN"]
    subprocess.run(["swift", "build", "-c", "release", "--product", "inbox-rpc", "-Xswiftc", "-static-stdlib"],
                   cwd=REPO, check=True, stdout=sys.stderr)
    return str(REPO / ".build" / "release" / "inbox-rpc")


def timed(argv: list[str], stdin: bytes = b"") -> float:
    start = time.perf_counter()
    subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000


def round_trips(server: str, store: str, method: str, repetitions: int) -> float:
    """Median µs of `method` on each sample card, one request at a time."""
    proc = subprocess.Popen([server, "--store", store, "--test-clock", str(CLOCK)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    times = []
    for index in range(repetitions * len(CARDS)):
        request = {"jsonrpc": "2.0", "id": index, "method": method, "params": {"id": CARDS[index % len(CARDS)]}}
        start = time.perf_counter()
        proc.stdin.write(json.dumps(request).encode() + b"\n")
        proc.stdin.flush()
        while json.loads(proc.stdout.readline()).get("id") != index:
            pass
        times.append((time.perf_counter() - start) * 1e6)
    proc.stdin.close()
    proc.wait()
    return statistics.median(times[len(CARDS):])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    repetitions = 10 if args.quick else 100
    server = binary()
    with tempfile.TemporaryDirectory() as work:
        store = os.path.join(work, "inbox.sqlite")
        # The host is iOS for both sides: saved with the store, so every card kind is drawn.
        ios = b'{"jsonrpc":"2.0","id":1,"method":"config.set","params":{"attributes":{"platform":"ios"}}}\n'
        subprocess.run([server, "--store", store, "--sample-feed", "--test-clock", str(CLOCK)], input=ios,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        page = os.path.join(work, "page.html")
        preview = [server, "preview", "--store", store, "--platform", "ios", "--now", str(CLOCK), "-o", page]
        listing = [server, "--store", store, "--test-clock", str(CLOCK)]
        feed_list = b'{"jsonrpc":"2.0","id":1,"method":"feed.list","params":{"limit":200}}\n'
        pages, lists = [], []
        for _ in range(repetitions):
            pages.append(timed(preview))
            lists.append(timed(listing, feed_list))
        page_bytes = os.path.getsize(page)
        render = round_trips(server, store, "message.render", max(20, repetitions))
        get = round_trips(server, store, "message.get", max(20, repetitions))
    preview_ms, list_ms = statistics.median(pages), statistics.median(lists)
    rows = [
        ("`inbox-rpc preview --store` of the sample feed (10 cards, process start to exit)",
         f"{preview_ms:.2f} ms", f"start + one `feed.list` of it, {list_ms:.2f} ms", f"{preview_ms / list_ms:.2f}"),
        ("`message.render` round trip, one stored card", f"{render:.0f} µs", f"`message.get` of it, {get:.0f} µs",
         f"{render / get:.2f}"),
    ]
    body = [
        "## Preview: the sample feed drawn as HTML",
        "",
        f"Measured by `bench/preview.py` on {datetime.date.today()}: {platform.machine()}, {os.cpu_count()} cores, "
        f"Linux {platform.release()}; release build; median of {repetitions} alternating runs "
        f"(page: {page_bytes:,} bytes). Target: the page in well under 100 ms.",
        "",
        markdown_table(["measure", "inbox-rpc", "reference", "ratio"], rows),
        "",
        "Both process figures are mostly start-up and opening the store. The "
        "reference does more than the preview (the server's start, a `log` notification per warning), so "
        "a ratio under 1 says drawing ten cards as HTML costs less than that. A `message.render` reply "
        "carries the card's HTML and the 6 KB stylesheet, hence its round trip against the card's JSON.",
    ]
    text = "\n".join(body)
    print(text)
    if not args.quick:
        write_section("preview", text)


if __name__ == "__main__":
    main()
