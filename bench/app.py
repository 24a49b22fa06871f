#!/usr/bin/env python3
"""bench/app.py: what a request costs once it reaches the application layer, each figure beside
its floor in the same run, written into bench/RESULTS.md (section "app").

  - message.resolve of a 1 KB marketing payload (a captioned card with three buttons), pipelined:
    requests per second beside the Swift jansson echo (bench/echo.swift) answering the same frames;
  - message.dismiss round trip net of an rpc.ping round trip, beside one raw SQLite WAL commit
    (bench/sqlite_commit.c) and the dismissal's own statements run on raw SQLite (its --dismiss);
  - feed.list limit 50 on a 100k store, pipelined: the server's CPU per request beside a C floor
    (bench/feed_floor.c) that SELECTs the same rows by the same index and writes the same reply
    with jansson.

Each pair alternates for several repetitions; figures are medians. Usage: bench/app.py [--quick]
[--no-write]; INBOX_RPC_BIN names the server (default: a release build made here). Python 3
standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from results_section import markdown_table, now, publish
from store import NOW, Server, build, dismiss_us, make_store, raw_commit_us

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
OUT = BENCH / "out"

MARKETING = {
    "aps": {"alert": {"title": "Autumn collection: 40% off outerwear this weekend only",
                      "body": "Coats, parkas and rain jackets from our new autumn line. Free delivery over 50 EUR, "
                              "free returns within 30 days. Offer ends Sunday at midnight."}},
    "pw_inbox": "autumn-2026-outerwear",
    "inbox_params": {"rt": "2030-01-01", "image": "https://cdn.example.com/inbox/campaigns/autumn-2026/hero@2x.jpg"},
    "u": json.dumps({
        "displayType": "captioned", "campaign": "autumn-2026", "segment": "returning-customers",
        "buttons": [
            {"title": "Shop outerwear", "url": "https://shop.example.com/collections/outerwear?utm_source=inbox"},
            {"title": "Remind me later", "action": "markRead"},
            {"title": "Not interested", "action": "dismiss"},
        ]}),
    "l": "https://shop.example.com/collections/autumn-2026?utm_source=inbox&utm_medium=push&utm_campaign=outerwear",
}


def compile_c(source: str, binary: str, libraries: list[str]) -> Path:
    OUT.mkdir(exist_ok=True)
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", *libraries], check=True, capture_output=True,
                           text=True).stdout.split()
    subprocess.run(["cc", "-O2", "-o", str(OUT / binary), str(BENCH / source), *flags], check=True)
    return OUT / binary


def swift_echo() -> Path:
    OUT.mkdir(exist_ok=True)
    subprocess.run(["swiftc", "-O", "-wmo", "-static-stdlib", "-I", "Sources/CJansson", "bench/echo.swift", "-o",
                    str(OUT / "echo-swift")], cwd=REPO, check=True, stdout=sys.stderr)
    return OUT / "echo-swift"


def pipelined(argv: list[str], frames: bytes, count: int) -> tuple[float, float]:
    """Sends `frames` (count requests) while reading replies; (seconds until the last reply, CPU seconds)."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               bufsize=0)
    first = frames[: frames.index(b"\n") + 1]
    os.write(process.stdin.fileno(), first)  # warm-up: up and answering before the clock starts
    pending = bytearray()
    while b"\n" not in pending:
        pending += os.read(process.stdout.fileno(), 1 << 16)
    del pending[: pending.index(b"\n") + 1]

    def writer() -> None:
        view = memoryview(frames)
        while view:
            view = view[os.write(process.stdin.fileno(), view[: 1 << 16]):]

    start = time.perf_counter()
    thread = threading.Thread(target=writer)
    thread.start()
    replies = pending.count(b"\n")
    while replies < count:
        chunk = os.read(process.stdout.fileno(), 1 << 20)
        if not chunk:
            raise RuntimeError(f"{argv[0]} ended after {replies} replies")
        replies += chunk.count(b"\n")
    elapsed = time.perf_counter() - start
    thread.join()
    process.stdin.close()
    while os.read(process.stdout.fileno(), 1 << 16):
        pass
    _, _, usage = os.wait4(process.pid, 0)
    return elapsed, usage.ru_utime + usage.ru_stime


def frames_of(method: str, params: dict, count: int) -> bytes:
    return b"".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params},
                               separators=(",", ":")).encode() + b"\n" for i in range(count + 1))


def resolve_vs_echo(binary: str, echo: Path, count: int, repetitions: int) -> tuple[float, float]:
    frames = frames_of("message.resolve", {"payload": MARKETING}, count)
    server, floor = [], []
    for _ in range(repetitions):
        server.append(count / pipelined([binary, "--store", ":memory:"], frames, count)[0])
        floor.append(count / pipelined([str(echo)], frames, count)[0])
    return statistics.median(server), statistics.median(floor)


def list_vs_floor(binary: str, floor: Path, store: str, count: int, repetitions: int) -> tuple[float, float]:
    frames = frames_of("feed.list", {"limit": 50}, count)
    reference = Server(binary, store)
    page = reference.call("feed.list", {"limit": 50})
    reference.close()
    cards = os.path.join(os.path.dirname(store), "page.json")
    Path(cards).write_text(json.dumps(page))
    server_cpu, floor_cpu = [], []
    for _ in range(repetitions):
        server_cpu.append(pipelined([binary, "--store", store, "--test-clock", str(NOW)], frames, count)[1] / count)
        floor_cpu.append(pipelined([str(floor), store, cards, str(NOW)], frames, count)[1] / count)
    return statistics.median(server_cpu), statistics.median(floor_cpu)


def remove_store(path: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)


def dismiss_vs_floors(binary: str, store: str, directory: str, count: int, repetitions: int
                      ) -> tuple[float, float, float]:
    """Medians over `repetitions` of: a dismiss round trip net of a ping round trip, the same dismissals'
    statements on raw SQLite (`sqlite_commit --dismiss`), and one raw one-row commit; the first two
    each on a fresh copy of `store`."""
    copy = os.path.join(directory, "dismiss.sqlite")
    nets, own, raws = [], [], []
    for _ in range(repetitions):
        raws.append(raw_commit_us(directory, count)[0])  # builds bench/out/sqlite_commit
        remove_store(os.path.join(directory, "raw.sqlite"))
        for server in (True, False):
            remove_store(copy)
            shutil.copyfile(store, copy)
            if server:
                median, _, ping = dismiss_us(binary, copy, count)
                nets.append(median - ping)
            else:
                own.append(float(subprocess.run([str(OUT / "sqlite_commit"), "--dismiss", copy, str(count)],
                                                capture_output=True, text=True, check=True).stdout.split()[0]))
    return statistics.median(nets), statistics.median(own), statistics.median(raws)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small stores and counts; does not write RESULTS.md")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    binary = build(args)
    echo = swift_echo()
    floor = compile_c("feed_floor.c", "feed_floor", ["jansson", "sqlite3"])
    big = 10_000 if args.quick else 100_000
    repetitions = 3 if args.quick else 5
    resolved, echoed = resolve_vs_echo(binary, echo, 2_000 if args.quick else 20_000, repetitions)
    with tempfile.TemporaryDirectory() as directory:
        small, large = os.path.join(directory, "1k.sqlite"), os.path.join(directory, "big.sqlite")
        make_store(binary, small, 1_000)
        make_store(binary, large, big)
        listed, floored = list_vs_floor(binary, floor, large, 500 if args.quick else 3_000, repetitions)
        net, own_sql, raw = dismiss_vs_floors(binary, small, directory, 200 if args.quick else 900, repetitions)
    rows = [
        ("message.resolve, 1 KB captioned payload with 3 buttons, pipelined", f"{resolved:,.0f} req/s",
         f"Swift jansson echo, same frames: {echoed:,.0f} req/s", f"{resolved / echoed:.2f} (goal ≥ 0.35)"),
        ("message.dismiss round trip minus an rpc.ping round trip", f"{net:.1f} µs",
         f"one raw SQLite WAL commit: {raw:.1f} µs", f"{net / raw:.2f} (goal ≤ 2)"),
        ("the dismissal's own statements on raw SQLite, same store (sqlite_commit --dismiss)", f"{own_sql:.1f} µs",
         f"one raw SQLite WAL commit: {raw:.1f} µs", f"{own_sql / raw:.2f}"),
        (f"feed.list limit 50, {big // 1000}k store, CPU per request pipelined", f"{listed * 1e6:.0f} µs",
         f"C floor (same SELECT, same reply, jansson): {floored * 1e6:.0f} µs", f"{listed / floored:.2f} (goal ≤ 3)"),
    ]
    table = markdown_table(["measure", "inbox-rpc", "floor", "ratio"], rows)
    publish("app", "Application layer: resolve, dismiss, a page", table, (
        f"Measured {now()} by `bench/app.py` (release build; "
        f"each pair alternated {repetitions} times, medians). The dismissal is a round trip from a Python client "
        f"with the same client's rpc.ping round trip taken off, so what is left is the server's own work and "
        f"the commit; client and server share one CPU for it, so neither round trip carries a wake-up of the "
        f"other core (on this machine an idle core wakes more slowly the longer it idled, which adds some "
        f"50 µs to the slower request's round trip when the two run on two cores)."),
        write=not (args.quick or args.no_write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
