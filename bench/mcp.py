#!/usr/bin/env python3
"""bench/mcp.py: the MCP face's own cost, beside the JSON-RPC face of the same binary and store.

A `tools/call get_message` round trip in `inbox-rpc mcp` against a `message.get` round trip in the
plain server (the same use case; MCP adds the argument check against the tool's inputSchema, the
text rendering and the result envelope), and an MCP session's start (spawn, `initialize`, one
`tools/call inbox_counts`, end of input, exit) against the plain server's (spawn, one `feed.counts`,
exit). Round trips alternate between the two servers request by request; starts alternate too.
It also weighs the `tools/list` result, which a host sends its model in every session, beside
the 95,888 bytes it weighed when every output schema carried the card's full shape, and measures a
session at revision 2025-03-26 (whose replies leave out titles and structured output) beside one
at 2025-11-25: its tool call, alternating, and its tool list.

  bench/mcp.py                   build (release) if needed, run, write its section of bench/RESULTS.md
  bench/mcp.py --quick           fewer repetitions, print only
  bench/mcp.py --before PATH     also a previous build's tool call and tool list, alternating in the same run
  INBOX_RPC_BIN=path bench/mcp.py   use that binary
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
sys.path.insert(0, str(BENCH_DIR))
from preview import CARDS, CLOCK, binary  # noqa: E402
from results_section import markdown_table, write_section  # noqa: E402

# The tools/list result when every output schema carried the card's full shape (the same 13 tools).
LISTED_BEFORE = 95_888
INITIALIZE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
OLDEST = {**INITIALIZE, "protocolVersion": "2025-03-26"}


class Peer:
    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def round_trip(self, method: str, params: dict) -> float:
        """µs from writing the request to reading its reply."""
        start = time.perf_counter()
        self.reply(method, params)
        return (time.perf_counter() - start) * 1e6

    def reply(self, method: str, params: dict) -> dict:
        self.next_id += 1
        request = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode()
        self.proc.stdin.write(request + b"\n")
        self.proc.stdin.flush()
        while (message := json.loads(self.proc.stdout.readline())).get("id") != self.next_id:
            pass
        return message

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def session(argv: list[str], calls: list[tuple[str, dict]]) -> float:
    """ms from spawn to exit, the calls made one after another in between."""
    start = time.perf_counter()
    peer = Peer(argv)
    for method, params in calls:
        peer.round_trip(method, params)
    peer.close()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--before", help="a previous build of inbox-rpc, measured beside this one")
    args = parser.parse_args()
    repetitions = 10 if args.quick else 200
    server = binary()
    with tempfile.TemporaryDirectory() as work:
        store = os.path.join(work, "inbox.sqlite")
        plain = [server, "--store", store, "--test-clock", str(CLOCK)]
        mcp = [server, "mcp", "--store", store, "--test-clock", str(CLOCK)]
        subprocess.run(plain + ["--sample-feed"], input=b"", check=True, stderr=subprocess.DEVNULL)
        rpc, tools, oldest = Peer(plain), Peer(mcp), Peer(mcp)
        before = Peer([args.before, *mcp[1:]]) if args.before else None
        oldest.round_trip("initialize", OLDEST)
        listed_oldest = len(json.dumps(oldest.reply("tools/list", {})["result"], separators=(",", ":")).encode())
        listed, listed_before = 0, LISTED_BEFORE
        for peer in filter(None, [tools, before]):
            peer.round_trip("initialize", INITIALIZE)
            size = len(json.dumps(peer.reply("tools/list", {})["result"], separators=(",", ":")).encode())
            listed, listed_before = (size, listed_before) if peer is tools else (listed, size)
        gets, calls, calls_before, calls_oldest = [], [], [], []
        for index in range(repetitions * len(CARDS)):
            card = CARDS[index % len(CARDS)]
            call = ("tools/call", {"name": "get_message", "arguments": {"id": card}})
            gets.append(rpc.round_trip("message.get", {"id": card}))
            # The two builds take turns going first, so neither gains from the other's warm-up.
            if before and index % 2:
                calls_before.append(before.round_trip(*call))
            calls.append(tools.round_trip(*call))
            calls_oldest.append(oldest.round_trip(*call))
            if before and not index % 2:
                calls_before.append(before.round_trip(*call))
        for peer in filter(None, [rpc, tools, oldest, before]):
            peer.close()
        plain_starts, mcp_starts = [], []
        for _ in range(max(10, repetitions // 4)):
            plain_starts.append(session(plain, [("feed.counts", {})]))
            mcp_starts.append(session(mcp, [("initialize", INITIALIZE), ("tools/call", {"name": "inbox_counts"})]))
    call, get = statistics.median(calls[len(CARDS):]), statistics.median(gets[len(CARDS):])
    call_oldest = statistics.median(calls_oldest[len(CARDS):])
    mcp_start, plain_start = statistics.median(mcp_starts), statistics.median(plain_starts)
    rows = [
        ("`tools/call get_message` round trip (`inbox-rpc mcp`)", f"{call:.0f} µs",
         f"`message.get` of the same card, {get:.0f} µs", f"{call / get:.2f}"),
        ("MCP session: start, `initialize`, `tools/call inbox_counts`, exit", f"{mcp_start:.2f} ms",
         f"start, one `feed.counts`, exit, {plain_start:.2f} ms", f"{mcp_start / plain_start:.2f}"),
        ("`tools/list` result, compact JSON (13 tools)", f"{listed:,} bytes",
         ("the previous build's (`--before`)" if args.before else "every output with the card's full shape")
         + f", {listed_before:,} bytes", f"{listed / listed_before:.2f}"),
        ("`tools/call get_message` at revision 2025-03-26 (no structured output)", f"{call_oldest:.0f} µs",
         f"the same call at 2025-11-25, {call:.0f} µs", f"{call_oldest / call:.2f}"),
        ("`tools/list` at revision 2025-03-26 (no titles, no output schemas)", f"{listed_oldest:,} bytes",
         f"at 2025-11-25, {listed:,} bytes", f"{listed_oldest / listed:.2f}"),
    ]
    if calls_before:
        previous = statistics.median(calls_before[len(CARDS):])
        rows.append(("`tools/call get_message`, this build", f"{call:.0f} µs",
                     f"the previous build (`--before`), {previous:.0f} µs", f"{call / previous:.2f}"))
    body = [
        "## MCP: the same use cases behind the MCP face",
        "",
        f"Measured by `bench/mcp.py` on {datetime.date.today()}: {platform.machine()}, {os.cpu_count()} cores, "
        f"Linux {platform.release()}; release build; medians of {repetitions * len(CARDS)} alternating round trips "
        f"and {len(plain_starts)} alternating sessions, on the sample feed; load average {os.getloadavg()[0]:.1f} at "
        "the end (a shared machine: absolute times are inflated, and ratios moved by about 0.1 between runs).",
        "",
        markdown_table(["measure", "inbox-rpc mcp", "reference (the JSON-RPC face)", "ratio"], rows),
        "",
        "A tool call does what the method does, plus the check of its arguments by the method's params "
        "contract (the JSON-RPC face's own check), the text rendering and the envelope (`content`, "
        "`structuredContent`; at 2025-03-26 the text alone, the structured result taken off); the session "
        "adds one round trip (`initialize`) and deriving the tools' schemas from the contract at start. "
        "The tool list is weighed once: it is the same every time.",
    ]
    text = "\n".join(body)
    print(text)
    if not args.quick:
        write_section("mcp", text)


if __name__ == "__main__":
    main()
