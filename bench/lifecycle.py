#!/usr/bin/env python3
"""bench/lifecycle.py: what the tests no longer time, measured here as distributions beside a
reference taken in the same run, on the same server: a ping's round trip (rpc.ping, idle server).

  - exit after end of input: from closing stdin to the process's exit, an idle server;
  - cancel: from `$/cancelRequest` to the -32800 answer of a `test.sleep` running on a worker;
  - a ping behind a batch: a ping's round trip while a batch of 1,000 `feed.list` (limit 200, the
    sample feed) runs on the workers;
  - a slow host after end of input: a batch's reply read at 1 MB/s after stdin closed, how many of
    its answers arrive whole and the exit status (the drain writes every reply owed).

Each figure is the median and the 90th percentile over the repetitions, and the ratio of the
median to the ping's. The tests assert order and outcome only (script/check-test-time).

  bench/lifecycle.py [--runs N] [--write]     (--write: the section in bench/RESULTS.md)
  INBOX_RPC_BIN=path bench/lifecycle.py      (default: .build/release/inbox-rpc, else .build/debug)
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_section import markdown_table, now, publish  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def binary() -> str:
    if os.environ.get("INBOX_RPC_BIN"):
        return os.environ["INBOX_RPC_BIN"]
    for build in ("release", "debug"):
        path = REPO / ".build" / build / "inbox-rpc"
        if path.exists():
            return str(path)
    sys.exit("bench/lifecycle.py: build inbox-rpc first (swift build -c release --product inbox-rpc)")


class Server:
    """One server with its replies read by a thread, each reply's arrival time kept by id."""

    def __init__(self, bin: str, *args: str) -> None:
        self.proc = subprocess.Popen([bin, "--store", ":memory:", "--test-methods", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.arrived: dict[object, float] = {}
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            at = time.perf_counter()
            message = json.loads(line)
            with self.cond:
                for item in message if isinstance(message, list) else [message]:
                    if "id" in item:
                        self.arrived[item["id"]] = at
                self.cond.notify_all()

    def send(self, message: object) -> float:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()
        return time.perf_counter()

    def wait(self, id: object) -> float:
        with self.cond:
            assert self.cond.wait_for(lambda: id in self.arrived, 600), f"no reply to {id}"
            return self.arrived[id]

    def ping(self, id: object) -> float:
        sent = self.send({"jsonrpc": "2.0", "id": id, "method": "rpc.ping"})
        return self.wait(id) - sent

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(600)


def measure(bin: str, runs: int) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"ping": [], "exit": [], "cancel": [], "ping behind a batch": []}
    for run in range(runs):
        server = Server(bin)
        server.ping(f"warm-{run}")
        figures["ping"].append(server.ping(f"ping-{run}"))
        server.send({"jsonrpc": "2.0", "id": "sleep", "method": "test.sleep", "params": {"ms": 600_000}})
        server.ping("started")  # the sleep is on a worker by now
        cancelled = server.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "sleep"}})
        figures["cancel"].append(server.wait("sleep") - cancelled)
        closed = time.perf_counter()
        server.close()
        figures["exit"].append(time.perf_counter() - closed)

        busy = Server(bin, "--sample-feed")
        busy.ping("warm")
        busy.send([{"jsonrpc": "2.0", "id": i, "method": "feed.list", "params": {"limit": 200}} for i in range(1000)])
        figures["ping behind a batch"].append(busy.ping("behind"))
        busy.wait(0)
        busy.close()
    return figures


def slow_host(bin: str) -> tuple[int, int, float]:
    """A batch reply read at 1 MB/s after end of input: (answers that arrived whole, exit status, seconds)."""
    batch = [{"jsonrpc": "2.0", "id": i, "method": "feed.list", "params": {"limit": 200}} for i in range(1000)]
    proc = subprocess.Popen([bin, "--store", ":memory:", "--sample-feed"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdin.write(json.dumps(batch).encode() + b"\n")
    proc.stdin.close()
    started, output = time.perf_counter(), bytearray()
    while chunk := os.read(proc.stdout.fileno(), 16 * 1024):
        output += chunk
        time.sleep(len(chunk) / 1_000_000)
    status = proc.wait(600)
    # The batch's array is the frame that is a list (the `log` notifications of degraded cards come first).
    whole = 0
    if output.endswith(b"\n"):
        for line in output.splitlines():
            message = json.loads(line)
            whole += len(message) if isinstance(message, list) else 0
    return whole, status, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--write", action="store_true")
    options = parser.parse_args()
    bin = binary()
    figures = measure(bin, options.runs)
    ping = statistics.median(figures["ping"])
    rows = []
    for name, values in figures.items():
        values = sorted(values)
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        rows.append((name, f"{statistics.median(values) * 1000:.2f}", f"{p90 * 1000:.2f}",
                     f"{statistics.median(values) / ping:.1f}"))
    whole, status, seconds = slow_host(bin)
    table = markdown_table(["what", "median ms", "p90 ms", "median / ping"], rows)
    text = (f"Measured {now()} by `bench/lifecycle.py --runs {options.runs}` ({Path(bin).parent.name} build), "
            "each figure over that many servers, beside the ping's round trip on the same server. The tests "
            "assert only that these things happen and in what order. A slow host after end of input: the "
            f"batch's reply read at 1 MB/s arrived whole, {whole} answers of 1000, in {seconds:.1f} s, exit status "
            f"{status} (before the drain wrote every reply owed, the process left 1.8 s after end of input and "
            "cut the frame: no answer arrived).")
    publish("lifecycle", "Lifecycle: exit, cancel and a ping behind a batch, as distributions", table, text, options.write)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
