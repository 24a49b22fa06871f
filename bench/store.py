#!/usr/bin/env python3
"""bench/store.py: the store's costs, each beside its reference, written into bench/RESULTS.md.

  - feed.list (limit 50) round trip on a 1k and a 100k message store: a page must cost O(limit),
    so the ratio 100k/1k should stay near 1;
  - message.dismiss round trip beside one raw SQLite WAL commit (bench/sqlite_commit.c, the same
    synchronous=NORMAL setting): the floor for a durable change;
  - process start + first feed.list on the 100k store, beside the same on the 1k store;
  - resident memory after paging the whole 100k store (limit 200), beside after one rpc.ping.

Usage: bench/store.py [--quick] [--no-write]; INBOX_RPC_BIN names the server (default: a release
build made here). Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_section import markdown_table, now, publish

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
NOW = 1_790_000_000


class Server:
    def __init__(self, binary: str, store: str):
        self.process = subprocess.Popen([binary, "--store", store, "--test-methods", "--test-clock", str(NOW)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.pending = bytearray()
        self.next_id = 0

    def send(self, method: str, params: dict | None = None) -> int:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        os.write(self.process.stdin.fileno(), json.dumps(message).encode() + b"\n")
        return self.next_id

    def receive(self, wanted: int) -> dict:
        while True:
            newline = self.pending.find(b"\n")
            while newline < 0:
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise RuntimeError("the server exited")
                self.pending += chunk
                newline = self.pending.find(b"\n")
            line = bytes(self.pending[:newline])
            del self.pending[: newline + 1]
            message = json.loads(line)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message["result"]

    def call(self, method: str, params: dict | None = None) -> dict:
        return self.receive(self.send(method, params))

    def rss_kib(self) -> tuple[int, int]:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return (int(re.search(r"VmRSS:\s+(\d+)", status).group(1)), int(re.search(r"VmHWM:\s+(\d+)", status).group(1)))

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(10)


def backend_message(index: int) -> dict:
    params = {"u": {"pinned": True}} if index % 97 == 0 else {}
    return {"inbox_id": f"m{index:06d}", "order": str(index), "rt": str(NOW + 10**7), "send_date": str(NOW - index),
            "title": f"Message {index}", "text": "Body", "action_type": 0, "action_params": json.dumps(params),
            "status": 1, "hash": f"H{index}"}


def make_store(binary: str, path: str, count: int, message=backend_message) -> None:
    """A store of `count` messages, `message(k)` each, ingested 500 to a batch."""
    server = Server(binary, path)
    for start in range(0, count, 500):
        batch = [{"jsonrpc": "2.0", "id": f"i{k}", "method": "message.ingest", "params": {"payload": message(k)}}
                 for k in range(start, min(count, start + 500))]
        os.write(server.process.stdin.fileno(), json.dumps(batch).encode() + b"\n")
        while True:  # feed.changed notifications come first, then the batch's one array reply
            while server.pending.find(b"\n") < 0:
                server.pending += os.read(server.process.stdout.fileno(), 1 << 20)
            line, _, rest = bytes(server.pending).partition(b"\n")
            server.pending = bytearray(rest)
            reply = json.loads(line)
            if isinstance(reply, list):
                assert all("result" in r for r in reply), reply[:2]
                break
    server.close()


def round_trips(server: Server, method: str, params_for, count: int) -> list[float]:
    samples = []
    for index in range(count):
        params = params_for(index)
        start = time.perf_counter()
        server.call(method, params)
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


def feed_list_us(binary: str, store: str, count: int) -> float:
    server = Server(binary, store)
    cursors = [None]
    page = server.call("feed.list", {"limit": 50})
    while page["nextCursor"] and len(cursors) < 40:
        cursors.append(page["nextCursor"])
        page = server.call("feed.list", {"limit": 50, "cursor": page["nextCursor"]})
    rng = random.Random(1)
    samples = round_trips(server, "feed.list",
                          lambda _: {"limit": 50, **({"cursor": c} if (c := rng.choice(cursors)) else {})}, count)
    server.close()
    return statistics.median(samples)


def dismiss_us(binary: str, store: str, count: int) -> tuple[float, float, float]:
    """Median and p99 of a dismiss round trip, and the median rpc.ping round trip on the same server
    (the client's and the pipes' share of every round trip).

    Client and server share one CPU meanwhile (the server inherits the affinity): on this virtual
    machine a core that waits wakes more slowly the longer it idled, so across two cores the slower
    request's round trip would also carry a longer wake-up than the ping it is netted against (some
    50 µs here)."""
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})
    try:
        server = Server(binary, store)
        pings = round_trips(server, "rpc.ping", lambda _: None, count)
        samples = round_trips(server, "message.dismiss", lambda i: {"id": f"m{i:06d}"}, count)
        server.close()
    finally:
        os.sched_setaffinity(0, cpus)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99)], statistics.median(pings)


def raw_commit_us(directory: str, count: int) -> tuple[float, float]:
    binary = BENCH / "out" / "sqlite_commit"
    binary.parent.mkdir(exist_ok=True)
    subprocess.run(["cc", "-O2", "-o", str(binary), str(BENCH / "sqlite_commit.c"), "-lsqlite3"], check=True)
    out = subprocess.run([str(binary), os.path.join(directory, "raw.sqlite"), str(count)], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def killed_server(binary: str, store: str) -> None:
    """Leaves `store` as a server killed with SIGKILL leaves it: its write-ahead log beside it, with the
    last change (a dismiss) not yet checkpointed."""
    server = Server(binary, store)
    server.call("feed.list", {"limit": 1})
    server.call("message.dismiss", {"id": "m000000"})
    server.process.kill()
    server.process.wait()


def start_first_list_ms(binary: str, store: str, unclean: bool = False) -> float:
    """One process start + first feed.list (limit 50) on `store`; after a SIGKILLed server if `unclean`."""
    request = b'{"jsonrpc":"2.0","id":1,"method":"feed.list","params":{"limit":50}}\n'
    if unclean:
        killed_server(binary, store)
        assert os.path.exists(store + "-wal")
    start = time.perf_counter()
    process = subprocess.Popen([binary, "--store", store], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, bufsize=0)
    os.write(process.stdin.fileno(), request)
    reply = b""
    while not reply.endswith(b"\n"):
        chunk = os.read(process.stdout.fileno(), 1 << 20)
        if not chunk:
            raise RuntimeError("the server exited without replying")
        reply += chunk
    elapsed = (time.perf_counter() - start) * 1e3
    process.stdin.close()
    process.wait(10)
    return elapsed


def paired_starts(binary: str, small: str, big: str, count: int, unclean: bool = False) -> tuple[float, float, float]:
    """Start-up on the small and the big store, alternated so both see the same load: the median of
    each, and the median of the paired ratios big / small."""
    smalls, bigs = [], []
    for _ in range(count):
        smalls.append(start_first_list_ms(binary, small, unclean))
        bigs.append(start_first_list_ms(binary, big, unclean))
    ratios = [b / s for s, b in zip(smalls, bigs)]
    return statistics.median(smalls), statistics.median(bigs), statistics.median(ratios)


def rss_after_paging(binary: str, store: str) -> tuple[int, int, int]:
    server = Server(binary, store)
    server.call("rpc.ping")
    baseline, _ = server.rss_kib()
    cursor, pages = None, 0
    while True:
        page = server.call("feed.list", {"limit": 200, **({"cursor": cursor} if cursor else {})})
        pages += 1
        cursor = page["nextCursor"]
        if not cursor:
            break
    rss, peak = server.rss_kib()
    server.close()
    return baseline, rss, peak


def build(args) -> str:
    if os.environ.get("INBOX_RPC_BIN"):
        return os.environ["INBOX_RPC_BIN"]
    subprocess.run(["swift", "build", "-c", "release", "--product", "inbox-rpc", "-Xswiftc", "-static-stdlib"],
                   cwd=REPO, check=True, stdout=sys.stderr)
    return str(REPO / ".build" / "release" / "inbox-rpc")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small stores and counts; does not write RESULTS.md")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    binary = build(args)
    big = 10_000 if args.quick else 100_000
    rounds = 100 if args.quick else 500
    with tempfile.TemporaryDirectory() as directory:
        small_store, big_store = os.path.join(directory, "1k.sqlite"), os.path.join(directory, "big.sqlite")
        t0 = time.perf_counter()
        make_store(binary, small_store, 1_000)
        make_store(binary, big_store, big)
        built = time.perf_counter() - t0
        list_small = statistics.median(feed_list_us(binary, small_store, rounds) for _ in range(3))
        list_big = statistics.median(feed_list_us(binary, big_store, rounds) for _ in range(3))
        dismiss = dismiss_us(binary, small_store, 1000 if not args.quick else 200)
        raw = raw_commit_us(directory, 1000 if not args.quick else 200)
        start_small, start_big, start_ratio = paired_starts(binary, small_store, big_store, 30)
        killed_small, killed_big, killed_ratio = paired_starts(binary, small_store, big_store, 30, unclean=True)
        baseline, rss, peak = rss_after_paging(binary, big_store)
    rows = [
        ("feed.list limit 50, 1k store", f"{list_small:.0f} µs", "", ""),
        (f"feed.list limit 50, {big // 1000}k store", f"{list_big:.0f} µs", "the 1k store", f"{list_big / list_small:.2f}"),
        ("message.dismiss round trip (median / p99)", f"{dismiss[0]:.0f} / {dismiss[1]:.0f} µs",
         "raw SQLite WAL commit", f"{dismiss[0] / raw[0]:.2f} (raw {raw[0]:.0f} / {raw[1]:.0f} µs)"),
        ("message.dismiss minus an rpc.ping round trip", f"{dismiss[0] - dismiss[2]:.0f} µs",
         "raw SQLite WAL commit", f"{(dismiss[0] - dismiss[2]) / raw[0]:.2f} (ping {dismiss[2]:.0f} µs)"),
        (f"start + first feed.list, {big // 1000}k store, closed cleanly", f"{start_big:.1f} ms", "the 1k store",
         f"{start_ratio:.2f} (1k: {start_small:.1f} ms)"),
        (f"start + first feed.list, {big // 1000}k store, last server SIGKILLed", f"{killed_big:.1f} ms",
         "the 1k store, SIGKILLed", f"{killed_ratio:.2f} (1k: {killed_small:.1f} ms)"),
        (f"RSS after paging all {big // 1000}k messages (peak)", f"{rss / 1024:.1f} MiB ({peak / 1024:.1f})",
         "RSS after one rpc.ping", f"{rss / baseline:.2f} ({baseline / 1024:.1f} MiB)"),
    ]
    table = markdown_table(["measure", "inbox-rpc", "reference", "ratio"], rows)
    publish("store", "Store", table, (
        f"Measured {now()} by "
        f"`bench/store.py` (release build; stores built through `message.ingest`, {big:,} messages in {built:.0f} s).\n"
        f"Round trips are medians from a Python client over pipes, so they include its own cost (an rpc.ping\n"
        f"round trip on the same server is given for scale); the dismissals' client and server share one CPU,\n"
        f"so neither round trip carries the slow wake-up of an idle second core. Start-up reads no more of a cleanly closed store\n"
        f"than the page it serves. After a SIGKILL the server replays the write-ahead log the killed one left\n"
        f"(bounded by SQLite's checkpoint at 1000 pages, not by the store) and runs quick_check on a thread of\n"
        f"its own from 250 ms in, which the first reply does not wait for; the first write does (see docs/performance.md).\n"
        f"Start-up ratios are medians of paired runs, 1k and {big // 1000}k alternated so both see the same load."),
        write=not (args.quick or args.no_write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
