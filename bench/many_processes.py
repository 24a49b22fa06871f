#!/usr/bin/env python3
"""bench/many_processes.py: how soon a server hears a change another process made to its store,
and what following the store costs it while nothing happens (section "many-processes" of
bench/RESULTS.md).

Latency: servers A and B on one store; B ingests a push, one at a time, N times (default 250);
each latency is from the moment B's reply (written after the commit) is read here to the moment
A's `feed.changed {reason: "elsewhere", added: [that id]}` is read here, both stamped by a reader
thread per process as the line arrives. Negative values (A's notification read first) are kept.
The figure for a lone server's own change, B's `feed.changed {reason: ingested}` against its
reply, is the reference.

Idle CPU: A's user + system time (/proc/PID/stat) over 10 idle seconds with B open on the same
store, beside a lone server on a store of its own measured over the same 10 seconds.

  bench/many_processes.py            release build if needed, run, write the section
  bench/many_processes.py --quick    50 changes, 3 idle seconds, print only
  INBOX_RPC_BIN=path                 the server measured
  INBOX_RPC_BASE_BIN=path            also time a lone server's writes on that binary (a build without
                                     the change log and its ring), alternating with the server's

Write cost: on a lone server, the median round trip of `message.ingest` and of `message.dismiss`
over N messages each, repetition by repetition alternating with the base build when one is given.
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
import threading
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
from preview import binary  # noqa: E402
from results_section import markdown_table, write_section  # noqa: E402

CLOCK = 1_900_000_000
TICKS = os.sysconf("SC_CLK_TCK")


class Peer:
    """One server over newline-delimited JSON; every line read is stamped on arrival."""

    def __init__(self, server: str, store: str):
        self.proc = subprocess.Popen([server, "--store", store, "--test-clock", str(CLOCK)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.lines: list[tuple[float, dict]] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.ids = 0

    def _read(self) -> None:
        for line in self.proc.stdout:
            stamp = time.perf_counter()
            with self.cond:
                self.lines.append((stamp, json.loads(line)))
                self.cond.notify_all()

    def wait(self, match, timeout: float = 10.0) -> float:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for stamp, message in self.lines:
                    if match(message):
                        return stamp
                if not self.cond.wait(max(0.0, deadline - time.monotonic())):
                    raise SystemExit("no answer within 10 s")

    def call(self, method: str, params: dict | None = None) -> float:
        self.ids += 1
        id = self.ids
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}})
                              .encode() + b"\n")
        return self.wait(lambda m: m.get("id") == id and "method" not in m)

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(10)


def changed(reason: str, id: str):
    return lambda m: (m.get("method") == "feed.changed" and m["params"].get("reason") == reason
                      and id in m["params"].get("added", []))


def push(id: str) -> dict:
    return {"header": f"Push {id}", "title": "Body", "pw_inbox": id, "p": f"P-{id}",
            "inbox_params": json.dumps({"rt": str(CLOCK + 10**7)}), "google.sent_time": (CLOCK - 60) * 1000}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def measure(server: str, changes: int, idle: float) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        store = os.path.join(directory, "inbox.sqlite")
        a, b = Peer(server, store), Peer(server, store)
        lone = Peer(server, os.path.join(directory, "lone.sqlite"))
        for peer in (a, b, lone):
            peer.call("rpc.ping")
        elsewhere, own, asked = [], [], []
        for index in range(changes):
            id = f"bench-{index}"
            sent = time.perf_counter()
            replied = b.call("message.ingest", {"payload": push(id)})
            heard = a.wait(changed("elsewhere", id))
            elsewhere.append(heard - replied)
            asked.append(heard - sent)
            own.append(b.wait(changed("ingested", id)) - replied)
        time.sleep(1.0)  # let every reply and notification settle before the idle window
        before = {name: peer.cpu_seconds() for name, peer in (("beside", a), ("lone", lone))}
        time.sleep(idle)
        after = {name: peer.cpu_seconds() for name, peer in (("beside", a), ("lone", lone))}
        for peer in (a, b, lone):
            peer.close()
    return {"elsewhere": elsewhere, "asked": asked, "own": own, "cpu": {k: after[k] - before[k] for k in after}}


def write_costs(server: str, changes: int) -> dict[str, float]:
    """Median seconds of a lone server's ingest and dismiss round trips."""
    with tempfile.TemporaryDirectory() as directory:
        peer = Peer(server, os.path.join(directory, "inbox.sqlite"))
        peer.call("rpc.ping")
        costs: dict[str, list[float]] = {"message.ingest": [], "message.dismiss": []}
        for method in costs:
            for index in range(changes):
                params = {"payload": push(f"w-{index}")} if method == "message.ingest" else {"id": f"w-{index}"}
                sent = time.perf_counter()
                costs[method].append(peer.call(method, params) - sent)
        peer.close()
    return {method: statistics.median(values) for method, values in costs.items()}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    changes, idle = (50, 3.0) if args.quick else (250, 10.0)
    result = measure(binary(), changes, idle)
    elsewhere, asked, own, cpu = result["elsewhere"], result["asked"], result["own"], result["cpu"]
    rows = [
        ("A hears B's change, from B's request sent (bound)", ms(statistics.median(asked)),
         ms(percentile(asked, 0.99)), ms(max(asked))),
        ("A hears B's change (`elsewhere`)", ms(statistics.median(elsewhere)), ms(percentile(elsewhere, 0.99)),
         ms(max(elsewhere))),
        ("B hears its own change (`ingested`), reference", ms(statistics.median(own)), ms(percentile(own, 0.99)),
         ms(max(own))),
    ]
    ratio = cpu["beside"] / cpu["lone"] if cpu["lone"] else float("nan")
    text = "\n".join([
        "## Many processes: a change made elsewhere, and the cost of following the store",
        "",
        f"Measured by `bench/many_processes.py` on {datetime.date.today()}: {platform.machine()}, "
        f"{os.cpu_count()} cores, Linux {platform.release()}, load average {os.getloadavg()[0]:.1f} at the end "
        "(the machine is shared); release build. Servers A and B on one store; B "
        f"ingests {changes} pushes one at a time; each latency runs from B's reply (written after the commit) to "
        "A's `feed.changed {reason: \"elsewhere\"}` naming that id, both stamped as they are read (negative: A's "
        "notification was read first; a server writes a change's notifications before its reply), and, as an "
        "upper bound, from the moment B's request was written.",
        "",
        markdown_table(["notification", "p50", "p99", "max"], rows),
        "",
        f"Idle CPU over {idle:.0f} s (user + system, 1/{TICKS} s ticks): A beside B {cpu['beside']:.2f} s, "
        f"a lone server in the same seconds {cpu['lone']:.2f} s"
        + (f" (ratio {ratio:.1f})." if cpu["lone"] else " (neither used a tick)."),
        "",
        "A server is woken only by the ring a commit makes on the store's signal file while another process "
        "has the store open (inotify, read by a Dispatch source): while nobody writes, nothing runs.",
    ])
    base = os.environ.get("INBOX_RPC_BASE_BIN")
    if base:
        runs: dict[str, list[dict[str, float]]] = {"server": [], "base": []}
        for _ in range(1 if args.quick else 5):
            runs["server"].append(write_costs(binary(), changes))
            runs["base"].append(write_costs(base, changes))
        cost_rows = []
        for method in ("message.ingest", "message.dismiss"):
            mine = statistics.median(run[method] for run in runs["server"])
            theirs = statistics.median(run[method] for run in runs["base"])
            cost_rows.append((f"`{method}`", ms(mine), ms(theirs), f"{mine / theirs:.2f}"))
        text += "\n\n" + "\n".join([
            f"Write cost on a lone server: median round trip over {changes} requests, median of "
            f"{len(runs['server'])} repetitions alternating with the base build (`INBOX_RPC_BASE_BIN`; "
            "bench/RESULTS.md says which build it was).",
            "",
            markdown_table(["request", "this build", "base build", "ratio"], cost_rows),
            "",
            "What a lone server's write pays: one `fcntl` asking whether another process has the store open. "
            "Beside another server it also rings (a one-byte `pwrite` after the commit) and writes the change-log "
            "row of each message it changes.",
        ])
    print(text)
    if not args.quick:
        write_section("many-processes", text)


if __name__ == "__main__":
    main()
