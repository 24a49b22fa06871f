#!/usr/bin/env python3
"""bench/threaded.py: the CPU time of a page, this build beside a previous one, with the previous
one also run as a threaded process (section "threaded" of bench/RESULTS.md).

A server that follows the other processes on its store watches a file with a Dispatch source,
so it runs threads from its start; the previous build started its first thread at its first
sync. Once a process has started a thread, glibc's malloc and system calls take their
multi-threaded paths, which execute nearly the same instructions (so callgrind's count in
bench/instructions.py cannot tell) but may cost cycles on atomic operations. This tells whether
they cost a page anything: on one 100k-message store per build, alternating in each
repetition, the CPU per feed.list (limit 50, pipelined) of

  - the previous build as it starts (no thread until a sync);
  - the previous build with one idle thread preloaded (bench/idle_thread.c);
  - the previous build after one feed.sync (its own threads started);
  - this build.

The spread between repetitions on a shared machine is far wider than the few percent sought,
so the repetitions are many and both the median and the least are given.

  bench/threaded.py --before PATH [--repetitions N] [--quick] [--no-write]
Python 3 standard library and a C compiler.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from app import OUT, frames_of, pipelined
from results_section import markdown_table, now, publish
from store import NOW, build, make_store

BENCH = os.path.dirname(os.path.abspath(__file__))


def idle_thread() -> str:
    OUT.mkdir(exist_ok=True)
    library = str(OUT / "idle_thread.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, os.path.join(BENCH, "idle_thread.c"),
                    "-lpthread"], check=True)
    return library


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True, help="a previous build of inbox-rpc")
    parser.add_argument("--quick", action="store_true", help="fewer requests and repetitions; does not write")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--repetitions", type=int, default=31)
    args = parser.parse_args()
    binary = build(args)
    library = idle_thread()
    count, repetitions = (300, 3) if args.quick else (1_000, args.repetitions)
    pages = frames_of("feed.list", {"limit": 50}, count)
    sync = json.dumps({"jsonrpc": "2.0", "id": "sync", "method": "feed.sync", "params": {}}).encode() + b"\n"
    # The first frame is the warm-up `pipelined` answers before its clock starts.
    after_sync = sync + pages[pages.index(b"\n") + 1:]
    runs = [
        ("previous build", args.before, pages, {}),
        ("previous build, one idle thread preloaded", args.before, pages, {"LD_PRELOAD": library}),
        ("previous build after one feed.sync", args.before, after_sync, {}),
        ("this build", binary, pages, {}),
    ]
    cpu: dict[str, list[float]] = {label: [] for label, *_ in runs}
    with tempfile.TemporaryDirectory() as directory:
        stores = {}
        for path in {args.before, binary}:
            stores[path] = os.path.join(directory, f"{len(stores)}.sqlite")
            make_store(path, stores[path], 100_000 if not args.quick else 10_000)
        for _ in range(repetitions):
            for label, path, frames, env in runs:
                saved = dict(os.environ)
                os.environ.update(env)
                try:
                    argv = [path, "--store", stores[path], "--test-clock", str(NOW)]
                    cpu[label].append(pipelined(argv, frames, count)[1] / count * 1e6)
                finally:
                    os.environ.clear()
                    os.environ.update(saved)
    base = statistics.median(cpu["previous build"])
    rows = [(label, f"{statistics.median(values):.0f} µs", f"{min(values):.0f} µs",
             f"{statistics.median(values) / base:.3f}") for label, values in cpu.items()]
    table = markdown_table(["feed.list limit 50, CPU per request", "median", "least", "median / previous build's"],
                           rows)
    publish("threaded", "A page's CPU time, threaded or not", table, (
        f"Measured {now()} by `bench/threaded.py --before …` (release builds, {repetitions} repetitions of {count} "
        f"pipelined pages alternating, load average {os.getloadavg()[0]:.1f} at the end)."),
        write=not (args.quick or args.no_write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
