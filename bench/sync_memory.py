#!/usr/bin/env python3
"""bench/sync_memory.py: a sync's peak memory and its cancel latency at each stage, for a reply at
the default limit (--max-sync-reply-bytes, 32 MiB), beside the reply's size; for a smaller reply
(4 MiB, short enough for the repeated-reply memo to keep), and for the 100 MiB reply a larger
limit allows.

The server syncs a prebuilt getInboxMessages body, compressed with gzip on the wire as the real
service may send it, from the loopback fake backend of the test suite. Figures:

  peak RSS      VmHWM of the server after the sync, less its RSS before it (after one small sync,
                so libcurl is loaded): the growth a sync costs, as a multiple of the decoded reply.
                Beside it, jansson alone (bench/jansson_rss.c): the tree of the same body, which any
                reader that parses the whole reply at once with jansson holds (the server does not:
                it parses one message at a time). "Again": the same reply synced a second time,
                onto the store the first left full (a reply past the memo's limit is merged again).
  cancel        seconds from `$/cancelRequest` to the -32800 reply, with the cancel sent during the
                transfer (a body sent over 30 s), the parse (as soon as the body was sent) and the
                merge (at the `sync.progress {stage: merge}` notification); the store is checked to
                hold what it held before (nothing half-merged).

  bench/sync_memory.py              build (release) if needed, run, write its section of bench/RESULTS.md
  bench/sync_memory.py --quick      one repetition, the default limit only, print only
  INBOX_RPC_BIN=path bench/sync_memory.py   use that binary
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
sys.path.insert(0, str(REPO / "Tests" / "EndToEnd"))
sys.path.insert(0, str(BENCH_DIR))

from fake_backend import APP, TOKEN, FakeBackend  # noqa: E402
from results_section import markdown_table, write_section  # noqa: E402
from sync import Client  # noqa: E402

MIB = 1 << 20
DEFAULT_LIMIT = 32 * MIB


def body_of(size: int, now: int) -> tuple[bytes, int]:
    """A getInboxMessages reply just under `size` bytes of messages shaped like real cards."""
    messages, total, index = [], 200, 0
    while True:
        message = {
            "inbox_id": f"bulk{index:07d}", "order": str(index + 1), "rt": str(now + 10**7),
            "send_date": str(now - 10**6 + index), "title": f"Spring offer {index}",
            "text": f"Message {index}: 20% off everything in the app until Sunday, with free delivery over 30.",
            "image": f"https://cdn.example.com/inbox/{index % 97}.png", "action_type": 1,
            "action_params": json.dumps({"l": f"https://example.com/offer/{index}",
                                         "u": json.dumps({"displayType": "captioned", "pinned": index == 7})}),
            "status": 1, "hash": f"H{index:07d}",
        }
        text = json.dumps(message, separators=(",", ":"))
        if total + len(text) + 1 > size:
            break
        messages.append(text)
        total += len(text) + 1
        index += 1
    body = ('{"status_code":200,"status_message":"OK","response":{"messages":[' + ",".join(messages)
            + '],"deleted":[],"next":"","new_inbox":%d}}' % len(messages)).encode()
    return body, len(messages)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(field)


class Bench:
    def __init__(self, binary: str, backend: FakeBackend, body: bytes, limit: int, env: dict[str, str] | None = None):
        self.binary, self.backend, self.body, self.limit = binary, backend, body, limit
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_")}
        self.env["INBOX_RPC_API_TOKEN"] = TOKEN
        self.env.update(env or {})

    def server(self, directory: str) -> Client:
        """A server on a fresh store that has synced one small message (libcurl loaded, a row to keep)."""
        self.backend.body_override = None
        self.backend.trickle = 0
        client = Client([self.binary, "--store", os.path.join(directory, "inbox.sqlite"), "--backend-url",
                         self.backend.url, "--application", APP, "--user-id", "user-1", "--hwid", "bench",
                         "--max-sync-reply-bytes", str(self.limit), "--backend-timeout", "120"], self.env)
        assert client.call("feed.sync", {"force": True})["added"] == 1
        return client

    def memory(self, again: bool = False) -> dict[str, float]:
        with tempfile.TemporaryDirectory() as directory:
            client = self.server(directory)
            if again:
                self.backend.body_override = self.body
                client.call("feed.sync", {"force": True}, timeout=600)
                time.sleep(2)  # freed on a background queue after the reply
                Path(f"/proc/{client.proc.pid}/clear_refs").write_text("5")  # VmHWM := VmRSS
            before = status_kib(client.proc.pid, "VmRSS")
            self.backend.body_override = self.body
            started, cpu = time.perf_counter(), cpu_seconds(client.proc.pid)
            client.call("feed.sync", {"force": True}, timeout=600)
            seconds = time.perf_counter() - started
            cpu = cpu_seconds(client.proc.pid) - cpu
            peak = status_kib(client.proc.pid, "VmHWM")
            time.sleep(2)  # the fetch's values are freed on a background queue after the reply
            after = status_kib(client.proc.pid, "VmRSS")
            client.close()
        return {"baseline": before * 1024, "peak": peak * 1024, "after": after * 1024, "seconds": seconds, "cpu": cpu}

    def cancel(self, stage: str) -> float:
        with tempfile.TemporaryDirectory() as directory:
            client = self.server(directory)
            self.backend.body_override = self.body
            self.backend.trickle = 30.0 if stage == "transfer" else 0
            self.backend.body_sent.clear()
            self.backend.reset_records()
            with client.cond:
                client.notes.clear()
            client.next_id += 1
            id = client.next_id
            client.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id, "method": "feed.sync",
                                                "params": {"force": True}}).encode() + b"\n")
            if stage == "transfer":
                deadline = time.monotonic() + 30
                while not self.backend.calls("getInboxMessages") and time.monotonic() < deadline:
                    time.sleep(0.01)
                time.sleep(0.5)
            elif stage == "parse":
                assert self.backend.body_sent.wait(60)
            else:
                with client.cond:
                    assert client.cond.wait_for(lambda: any(
                        n.get("method") == "sync.progress" and n["params"]["stage"] == "merge"
                        for _, n in client.notes), 300)
            started = time.perf_counter()
            client.proc.stdin.write(b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%d}}\n' % id)
            with client.cond:
                assert client.cond.wait_for(lambda: id in client.replies, 300)
                reply = client.replies.pop(id)
            latency = time.perf_counter() - started
            assert reply.get("error", {}).get("code") == -32800, reply
            if stage != "merge":
                merged = [n for _, n in client.notes if n.get("method") == "sync.progress"
                          and n["params"]["stage"] == "merge"]
                assert not merged, f"the {stage} cancel landed in the merge"
            counts = client.call("feed.counts")
            assert counts["total"] == 1, f"half-merged: {counts}"
            client.close()
        return latency


def jansson_tree(body: bytes) -> float:
    """Bytes jansson's tree of `body` takes (heap in use after parsing less after reading the file)."""
    binary = BENCH_DIR / "out" / "jansson_rss"
    binary.parent.mkdir(exist_ok=True)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "jansson"], check=True, capture_output=True,
                           text=True).stdout.split()
    subprocess.run(["cc", "-O2", "-o", str(binary), str(BENCH_DIR / "jansson_rss.c"), *flags], check=True)
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(body)
        file.flush()
        read, parsed = map(int, subprocess.run([str(binary), file.name], capture_output=True, text=True,
                                               check=True).stdout.split())
    return (parsed - read) * 1024


def row(label: str, body: bytes, figures: list[dict[str, float]], tree: float) -> tuple[str, ...]:
    peak = statistics.median(f["peak"] - f["baseline"] for f in figures)
    return (
        label,
        f"{statistics.median(f['baseline'] for f in figures) / MIB:.0f}",
        f"{statistics.median(f['peak'] for f in figures) / MIB:.0f}",
        f"**{peak / len(body):.1f}×**",
        f"{tree / MIB:.0f} ({tree / len(body):.1f}×)",
        f"{statistics.median(f['after'] for f in figures) / MIB:.0f}",
        f"{statistics.median(f['seconds'] for f in figures):.2f}",
        f"{statistics.median(f['cpu'] for f in figures):.2f}",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int)
    args = parser.parse_args()
    repeat = args.repeat or (1 if args.quick else 3)
    binary = os.environ.get("INBOX_RPC_BIN")
    if not binary:
        subprocess.run(["swift", "build", "-c", "release", "--product", "inbox-rpc", "-Xswiftc", "-static-stdlib"],
                       cwd=REPO, check=True, stdout=sys.stderr)
        binary = str(REPO / ".build" / "release" / "inbox-rpc")
    now = int(time.time())
    sizes = [DEFAULT_LIMIT] if args.quick else [DEFAULT_LIMIT, 4 * MIB, 100 * MIB]
    backend = FakeBackend()
    backend.gzip = True
    backend.add_message("kept")
    rows, cancel_rows = [], []
    try:
        for size in sizes:
            body, count = body_of(size, now)
            bench = Bench(binary, backend, body, max(size, DEFAULT_LIMIT))
            figures = [bench.memory() for _ in range(repeat)]
            peak = statistics.median(f["peak"] - f["baseline"] for f in figures)
            tree = jansson_tree(body)
            limit = "default limit" if size <= DEFAULT_LIMIT else f"`--max-sync-reply-bytes {size}`"
            rows.append(row(f"{len(body) / MIB:.1f} MiB, {count:,} messages ({limit})", body, figures, tree))
            print(rows[-1], file=sys.stderr, flush=True)
            if size == DEFAULT_LIMIT:
                rows.append(row("the same reply again, onto the full store", body,
                                [bench.memory(again=True) for _ in range(repeat)], tree))
                print(rows[-1], file=sys.stderr, flush=True)
            if size == DEFAULT_LIMIT:
                for stage in ("transfer", "parse", "merge"):
                    latencies = [bench.cancel(stage) for _ in range(repeat)]
                    cancel_rows.append((stage, f"{statistics.median(latencies) * 1000:.0f}",
                                        f"{max(latencies) * 1000:.0f}", "yes"))
                    print(cancel_rows[-1], file=sys.stderr, flush=True)
    finally:
        backend.close()

    lines = [
        "# A sync's peak memory and cancel latency at the reply limit",
        "",
        f"Measured by `bench/sync_memory.py` on {datetime.date.today().isoformat()}: {platform.machine()}, "
        f"{os.cpu_count()} cores (shared, load average {os.getloadavg()[0]:.1f} at the end), "
        f"{platform.system()} {platform.release()}; release build "
        f"(-static-stdlib); median of {repeat} repetitions. The reply is sent with gzip, decoded by libcurl.",
        "",
        markdown_table(
            ["reply (decoded)", "RSS before (MiB)", "peak RSS (MiB)", "growth / reply", "jansson's tree of it (MiB)",
             "RSS 2 s after (MiB)", "sync (s)", "server CPU (s)"], rows),
        "",
        "Growth / reply is (peak − before) / decoded reply size; the goal is 3×. jansson's tree of it is what",
        "`bench/jansson_rss.c` measures for the same body: the tree of the whole text, which a reader that",
        "parses the reply at once holds at its peak, five times the reply for cards like these (each object",
        "a hash table, each member and string its own allocation). The server never builds it: jansson",
        "parses each value on its own (`JSON_DISABLE_EOF_CHECK` says where it ended); the list's messages",
        "are left as spans of the reply's text, found by their brackets and strings, each parsed once, when the merge reads it; the",
        "merge reads, plans and writes one message at a time in its one transaction, keeping only ids.",
        "So the peak is the reply copied out of libcurl's buffer (2×, for a moment, before any parse);",
        "after it the reply, one message's values, the ids, the stored rows' state and SQLite's cache.",
        "Again: the second sync also reads the stored rows (their payloads) to compare each message.",
        "A reply at most 16 MiB long is kept by the repeated-reply memo until the next sync.",
        "RSS 2 s after: the reply freed on a background queue and the heap given back to the system.",
        "Sync (s) is wall time, which other work on the shared machine stretches; server CPU (s) is the",
        "user and system time the server spent on it, all its threads.",
        "",
        markdown_table(["cancel during", "median (ms)", "worst (ms)", "store as before"], cancel_rows),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.quick:
        write_section("sync-memory", text)


if __name__ == "__main__":
    main()
