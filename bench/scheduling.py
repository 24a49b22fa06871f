#!/usr/bin/env python3
"""bench/scheduling.py: how long a request waits behind work that waits, beside the same request
on an unloaded server, in one run (section "scheduling" of bench/RESULTS.md).

The load: on `inbox-rpc mcp`, 64 open `subscriptions/listen` streams (no backend configured); on
the JSON-RPC server, 20 `feed.sync` queued behind a backend that stalls every call (a local HTTP
server that never answers; `--backend-timeout 5`, so the syncs alone take 100 s). Measured under
it and without it, alternating repetition by repetition: the `sync_inbox` and `list_feed` tool
calls, a batch `[rpc.ping]`, `feed.list` and `message.ingest`, each 5 times after one warm-up.
Each figure is the median round trip over repetitions of the median of 5; the ratio is loaded /
unloaded. A request not answered within the cap counts as the cap.

  bench/scheduling.py                  release build if needed, run, write the section
  bench/scheduling.py --quick          fewer repetitions, print only
  INBOX_RPC_BIN=path                   the server measured
  INBOX_RPC_BASE_BIN=path              also measure that binary (another build) in the same run
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import datetime
import http.server
import json
import os
import platform
import selectors
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

CAP = 10.0  # seconds: a request not answered by then is reported as "≥ cap"
OPENED: dict[str, int] = {}  # server binary -> the fewest listen streams it acknowledged of 64
CLOCK = 1_900_000_000
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}
PUSH = {"header": "Push", "title": "Body", "pw_inbox": "p-{n}", "inbox_params": json.dumps({"rt": str(CLOCK + 10**7)}),
        "google.sent_time": (CLOCK - 60) * 1000}


class Stall(http.server.BaseHTTPRequestHandler):
    """A backend that reads the request and never answers (until the bench ends)."""

    released = threading.Event()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.released.wait()

    def log_message(self, *args) -> None:
        pass


class Peer:
    def __init__(self, argv: list[str], env: dict[str, str] | None = None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env={**os.environ, **(env or {})}, bufsize=0)
        self.pending = b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)

    def send(self, message) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")

    def frames(self, deadline: float):
        """Frames as they come, until `deadline`."""
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                yield json.loads(line)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.selector.select(remaining):
                return
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return
            self.pending += chunk

    def round_trip(self, message, id) -> float:
        """Seconds until the reply to `id` (a batch's member too), at most CAP."""
        started = time.monotonic()
        self.send(message)
        for frame in self.frames(started + CAP):
            if any(isinstance(m, dict) and m.get("id") == id and "method" not in m
                   for m in (frame if isinstance(frame, list) else [frame])):
                return time.monotonic() - started
        return CAP

    def wait_for(self, count: int, method: str, timeout: float) -> int:
        """How many `method` notifications came, up to `count`, within `timeout`."""
        seen = 0
        for frame in self.frames(time.monotonic() + timeout):
            seen += isinstance(frame, dict) and frame.get("method") == method
            if seen >= count:
                break
        return seen

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait()


def one_repetition(server: str, work: str, loaded: bool, backend: str, index: int) -> dict[str, float]:
    """One server pair, loaded or not; the round trip of each measured request, in seconds."""
    mcp = Peer([server, "mcp", "--store", f"{work}/mcp-{index}.sqlite", "--sample-feed"])
    args = [server, "--store", f"{work}/rpc-{index}.sqlite", "--test-clock", str(CLOCK), "--backend-timeout", "5",
            "--backend-url", backend, "--application", "APP-12345", "--hwid", "hw-bench", "--user-id", "user-1"]
    rpc = Peer(args, env={"INBOX_RPC_API_TOKEN": "bench-token"})
    try:
        mcp.round_trip({"jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": {"_meta": META}}, "d")
        rpc.round_trip({"jsonrpc": "2.0", "id": "p", "method": "rpc.ping"}, "p")
        if loaded:
            for n in range(64):
                mcp.send({"jsonrpc": "2.0", "id": f"l{n}", "method": "subscriptions/listen",
                          "params": {"_meta": META, "notifications": {"resourcesListChanged": True}}})
            # A build whose streams each hold a worker opens only as many as it has workers.
            OPENED[server] = min(OPENED.get(server, 64), mcp.wait_for(
                64, "notifications/subscriptions/acknowledged", timeout=5 if index else 30))
            for n in range(20):
                rpc.send({"jsonrpc": "2.0", "id": f"s{n}", "method": "feed.sync", "params": {"force": True}})
            time.sleep(0.2)  # the bench's own pause: the first sync has reached the stalled backend
        def tool(name: str, arguments: dict):
            return lambda id: {"jsonrpc": "2.0", "id": id, "method": "tools/call",
                               "params": {"_meta": META, "name": name, "arguments": arguments}}

        requests = {
            "sync_inbox": (mcp, tool("sync_inbox", {})),
            "list_feed": (mcp, tool("list_feed", {"limit": 5})),
            "[rpc.ping]": (rpc, lambda id: [{"jsonrpc": "2.0", "id": id, "method": "rpc.ping"}]),
            "feed.list": (rpc, lambda id: {"jsonrpc": "2.0", "id": id, "method": "feed.list", "params": {"limit": 5}}),
            "message.ingest": (rpc, lambda id: {"jsonrpc": "2.0", "id": id, "method": "message.ingest",
                                                "params": {"payload": {**PUSH, "pw_inbox": f"p-{id}"}}}),
        }
        return {name: sampled(peer, make, name) for name, (peer, make) in requests.items()}
    finally:
        mcp.kill()
        rpc.kill()


def sampled(peer: Peer, make, name: str, samples: int = 5) -> float:
    """The median of `samples` round trips after one warm-up; the cap at once if one reaches it."""
    times = []
    for n in range(samples + 1):
        id = f"{name}-{n}"
        seconds = peer.round_trip(make(id), id)
        if seconds >= CAP:
            return CAP
        if n:
            times.append(seconds)
    return statistics.median(times)


def shown(seconds: float) -> str:
    if seconds >= CAP:
        return f"≥ {CAP:.0f} s (no answer)"
    return f"{seconds * 1000:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    reps = 2 if args.quick else args.reps
    servers = {"inbox-rpc": binary()}
    if os.environ.get("INBOX_RPC_BASE_BIN"):
        servers["base build"] = os.environ["INBOX_RPC_BASE_BIN"]
    stall = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stall)
    stall.daemon_threads = True
    threading.Thread(target=stall.serve_forever, daemon=True).start()
    backend = f"http://127.0.0.1:{stall.server_address[1]}/"
    figures = {name: {"unloaded": [], "loaded": []} for name in servers}
    with tempfile.TemporaryDirectory() as work:
        for rep in range(reps):
            for name, server in servers.items():
                for state in ("unloaded", "loaded") if rep % 2 == 0 else ("loaded", "unloaded"):
                    index = len(os.listdir(work))
                    figures[name][state].append(one_repetition(server, work, state == "loaded", backend, index))
                    print(f"{name} rep {rep + 1}/{reps} {state}: "
                          + ", ".join(f"{k} {shown(v)}" for k, v in figures[name][state][-1].items()), file=sys.stderr)
    Stall.released.set()
    stall.shutdown()
    rows = []
    for name in servers:
        for request in figures[name]["loaded"][0]:
            loaded = statistics.median(r[request] for r in figures[name]["loaded"])
            unloaded = statistics.median(r[request] for r in figures[name]["unloaded"])
            ratio = "no answer" if loaded >= CAP else f"{loaded / unloaded:,.1f}"
            rows.append((f"`{request}`" + ("" if name == "inbox-rpc" else f" ({name})"), shown(loaded), shown(unloaded),
                         ratio))
    base = (" and, alternating with it, the base build named by `INBOX_RPC_BASE_BIN` (rows so marked)"
            if len(servers) > 1 else "")
    body = [
        "## Scheduling: requests behind open streams and stalled syncs",
        "",
        f"Measured by `bench/scheduling.py` on {datetime.date.today()}: {platform.machine()}, {os.cpu_count()} cores, "
        f"Linux {platform.release()}; release build{base}; medians of {reps} repetitions, loaded and unloaded "
        "servers alternating. Load: 64 open MCP `subscriptions/listen` streams on `inbox-rpc mcp` (no backend), and "
        "20 `feed.sync` queued behind a backend that never answers (`--backend-timeout 5`: 100 s of syncs) on the "
        f"JSON-RPC server. A request not answered within {CAP:.0f} s counts as {CAP:.0f} s.",
        "",
        markdown_table(["request", "loaded", "unloaded (same run)", "loaded / unloaded"], rows),
        "",
        "Listen streams acknowledged of the 64 opened: "
        + ", ".join(f"{name} {OPENED.get(server, 64)}" for name, server in servers.items()) + ".",
        "",
        "An open stream is a reply held, and a queued sync a callback held (`Method.DeferredHandler`): neither "
        "holds one of the 16 workers, so what arrives meanwhile is answered as on an idle server.",
    ]
    text = "\n".join(body)
    print(text)
    if not args.quick:
        write_section("scheduling", text)


if __name__ == "__main__":
    main()
