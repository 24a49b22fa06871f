#!/usr/bin/env python3
"""bench/check_trace.py: `inbox-rpc check-trace` frames per second on a 1M-frame trace, beside the
floor of any reader of it, in one run (section "check-trace" of bench/RESULTS.md).

The trace is a real session multiplied: the release server records one session with --trace (the
sample feed: initialize, feed.counts, a one-card feed.list page, message.markRead, button.tap,
config.get, rpc.ping; `SESSION`), and its records are repeated whole, ids renumbered, to at least
1,000,000 frames (the host's and the replies, with the notifications the server sent), so every
reply matches a request and the trace checks clean. Then, in turn,
repetition after repetition (the median is kept):

  - check-trace FILE (the text format; every frame parsed, every request and reply checked
    against Schemas/, a report line per request);
  - bench/jansson_lines FILE: each line parsed by jansson and freed, nothing else (C, -O2);
  - a Python pass: each line through json.loads.

Each figure is CPU time (user + system, from getrusage): the machine is shared, and wall time
would measure the others' load. The ratios are check-trace's time over each reference's.

  bench/check_trace.py                 build (release) if needed, measure, write the section
  bench/check_trace.py --quick         100,000 frames, one repetition, print only
  INBOX_RPC_BIN=path                   the server measured
Python 3 standard library only; cc and jansson's headers for the C reference.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from results_section import markdown_table, now, publish  # noqa: E402
from store import build  # noqa: E402

# A host's everyday traffic: counts, a one-card page, a read, a tap, pings (a page of many cards
# costs check-trace far more than a parse: each card is checked against the Card schema).
SESSION = [
    {"method": "initialize", "params": {"client": {"name": "bench", "version": "1"}}},
    {"method": "feed.counts"},
    {"method": "feed.list", "params": {"limit": 1}},
    {"method": "message.markRead", "params": {"ids": ["summer-sale"]}},
    {"method": "button.tap", "params": {"id": "summer-sale", "button": 1}},
    {"method": "rpc.ping"},
    {"method": "config.get"},
    {"method": "feed.counts"},
    {"method": "rpc.ping"},
]


def session_records(binary: str, directory: str) -> list[dict]:
    trace = os.path.join(directory, "session.trace")
    frames = b"".join(
        json.dumps({"jsonrpc": "2.0", "id": i + 1, **call}).encode() + b"\n" for i, call in enumerate(SESSION)
    )
    subprocess.run([binary, "--store", ":memory:", "--sample-feed", "--trace", trace], input=frames,
                   capture_output=True, check=True, timeout=120)
    with open(trace, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def multiplied(records: list[dict], frames: int, path: str) -> int:
    """The session's records repeated, whole, until there are at least `frames`, each repetition's
    ids moved past the last's (a repetition cut short would leave a request unanswered)."""
    written = 0
    block = 0
    with open(path, "w", encoding="utf-8") as f:
        while written < frames:
            for record in records:
                frame = dict(record["frame"])
                if isinstance(frame.get("id"), int):
                    frame["id"] += block * 1000
                f.write(json.dumps({"t": record["t"], "dir": record["dir"], "frame": frame}, separators=(",", ":")) + "\n")
            written += len(records)
            block += 1
    return written


def jansson_lines(directory: str) -> str:
    out = os.path.join(directory, "jansson_lines")
    subprocess.run(["cc", "-O2", "-o", out, str(BENCH / "jansson_lines.c"), "-ljansson"], check=True)
    return out


def timed(command: list[str]) -> float:
    """The CPU seconds (user and system) the command took: on a machine shared with others' builds,
    wall time measures them as much as the program."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


PYTHON_PASS = "import json,sys\nfor line in open(sys.argv[1], 'rb'): json.loads(line)\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repetitions", type=int, default=3)
    args = parser.parse_args()
    binary = build(args)
    frames = 100_000 if args.quick else 1_000_000
    repetitions = 1 if args.quick else args.repetitions
    with tempfile.TemporaryDirectory() as directory:
        trace = os.path.join(directory, "big.trace")
        count = multiplied(session_records(binary, directory), frames, trace)
        size = os.path.getsize(trace)
        reference = jansson_lines(directory)
        times: dict[str, list[float]] = {"check-trace": [], "jansson": [], "python": []}
        for _ in range(repetitions):
            times["check-trace"].append(timed([binary, "check-trace", trace]))
            times["jansson"].append(timed([reference, trace]))
            times["python"].append(timed([sys.executable, "-c", PYTHON_PASS, trace]))
    median = {name: statistics.median(values) for name, values in times.items()}
    rows = [
        (name, f"{median[name]:.2f}", f"{count / median[name]:,.0f}", f"{median['check-trace'] / median[name]:.2f}")
        for name in ("check-trace", "jansson", "python")
    ]
    table = markdown_table(["reader", "CPU seconds", "frames per CPU second", "check-trace / this"], rows)
    text = (
        f"Measured {now()}: a trace of {count:,} frames ({size / 1e6:.0f} MB), a real session's records "
        "repeated with ids renumbered, every request answered. check-trace parses each line and checks "
        "each request and reply against Schemas/; `jansson` only parses each line with jansson (bench/"
        "jansson_lines.c, -O2), `python` only passes each line through json.loads. CPU time (user + "
        f"system), median of {repetitions} runs taken in turn (bench/check_trace.py). Where check-trace's "
        "time goes beyond the parse: checking each result against its schema (callgrind: nine tenths of a "
        "trace of card pages is the validator); resolving each `$ref` once instead of at every use took a "
        "trace of card pages from 19.3 s to 12.6 s."
    )
    publish("check-trace", "check-trace: frames per second on a 1M-frame trace", table, text, write=not args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
