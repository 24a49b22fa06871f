#!/usr/bin/env python3
"""bench/instructions.py: instructions per request, counted by callgrind, for this build beside a
previous one, in one run (section "instructions" of bench/RESULTS.md).

Wall-clock figures move with whatever else the machine runs; the count of instructions a request
executes does not. Each server runs under `valgrind --tool=callgrind`; the client warms it up,
zeroes the counters (`callgrind_control -z`), makes a fixed number of round trips, one at a time,
and dumps them (`callgrind_control -d`): the dump's total over the round trips is the figure. The
requests are those of bench/app.py and bench/mcp.py:

  - message.resolve of the 1 KB captioned payload, on an in-memory store;
  - message.dismiss, each of a different message of a 1,000-message store;
  - feed.list limit 50 on a 100k-message store (10k with --quick);
  - tools/call get_message in `inbox-rpc mcp`, the sample feed's cards in turn.

Each build makes its own stores. `--before PATH` measures that binary too, in turn with this one.

  bench/instructions.py --before PATH     build (release) if needed, count both, write the section
  bench/instructions.py --quick           fewer requests, a smaller store, print only
  INBOX_RPC_BIN=path                      the server measured
Needs valgrind (its callgrind tool and callgrind_control). Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from app import MARKETING  # noqa: E402
from mcp import INITIALIZE  # noqa: E402
from preview import CARDS, CLOCK  # noqa: E402
from results_section import markdown_table, now, publish  # noqa: E402
from store import NOW, Server, build, make_store  # noqa: E402


class Counted(Server):
    """A server under callgrind, driven by round trips (bench/store.py's client)."""

    def __init__(self, argv: list[str], out: str):
        # Not Server's own start: that runs the binary itself, not under valgrind.
        self.out = out
        self.process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.pending = bytearray()
        self.next_id = 0

    def call(self, method: str, params: dict | None = None) -> dict:
        result = super().call(method, params)
        if isinstance(result, dict) and result.get("isError"):
            raise RuntimeError(f"{method}: {result}")
        return result

    def counted(self, requests: list[tuple[str, dict | None]]) -> float:
        """Instructions per request over `requests`, made after the counters are zeroed."""
        subprocess.run(["callgrind_control", "-z", str(self.process.pid)], check=True, capture_output=True)
        for method, params in requests:
            self.call(method, params)
        subprocess.run(["callgrind_control", "-d", "counted", str(self.process.pid)], check=True,
                       capture_output=True)
        self.process.stdin.close()
        self.process.wait(120)
        dumps = [path for path in glob.glob(self.out + ".*") if "Trigger: dump counted" in Path(path).read_text()]
        total = sum(int(line.split()[1]) for path in dumps for line in Path(path).read_text().splitlines()
                    if line.startswith("summary:"))
        return total / len(requests)


def figures(binary: str, directory: str, big: int, count: int) -> dict[str, float]:
    """Instructions per request of each figure, for `binary`; its stores are made in `directory`."""
    small, large, sample = (os.path.join(directory, name) for name in ("1k.sqlite", "big.sqlite", "sample.sqlite"))
    make_store(binary, small, 1_000)
    make_store(binary, large, big)
    subprocess.run([binary, "--store", sample, "--sample-feed", "--test-clock", str(CLOCK)], input=b"", check=True,
                   stderr=subprocess.DEVNULL)
    clock = ["--test-clock", str(NOW)]
    out = lambda name: os.path.join(directory, f"callgrind.{name}")  # noqa: E731
    result = {}

    server = Counted([binary, "--store", ":memory:", *clock], out("resolve"))
    for _ in range(5):
        server.call("message.resolve", {"payload": MARKETING})
    result["resolve"] = server.counted([("message.resolve", {"payload": MARKETING})] * count)

    server = Counted([binary, "--store", small, *clock], out("dismiss"))
    for index in range(5):  # the last messages warm up; the counted ones are each dismissed once
        server.call("message.dismiss", {"id": f"m{999 - index:06d}"})
    result["dismiss"] = server.counted([("message.dismiss", {"id": f"m{index:06d}"}) for index in range(count)])

    server = Counted([binary, "--store", large, *clock], out("list"))
    for _ in range(3):
        server.call("feed.list", {"limit": 50})
    result["list"] = server.counted([("feed.list", {"limit": 50})] * max(count // 4, 10))

    server = Counted([binary, "mcp", "--store", sample, "--test-clock", str(CLOCK)], out("tool"))
    server.call("initialize", INITIALIZE)
    calls = [("tools/call", {"name": "get_message", "arguments": {"id": card}}) for card in CARDS]
    for method, params in calls:
        server.call(method, params)
    result["tool"] = server.counted(calls * max(count // len(CARDS) // 2, 2))
    return result


ROWS = [
    ("resolve", "`message.resolve`, 1 KB captioned payload"),
    ("dismiss", "`message.dismiss`, 1k store"),
    ("list", "`feed.list` limit 50, {big} store"),
    ("tool", "`tools/call get_message` (`inbox-rpc mcp`)"),
]


def without_debug_info(binary: str, directory: str) -> str:
    """A copy of `binary` without its debug sections: Debian's valgrind 3.19 gives up on the
    toolchain's DWARF 5. The code, and so the count, is the same."""
    copy = os.path.join(directory, "inbox-rpc")
    subprocess.run(["objcopy", "--strip-debug", binary, copy], check=True)
    return copy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer requests, a 10k store; does not write RESULTS.md")
    parser.add_argument("--before", help="a previous build of inbox-rpc, counted beside this one")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if not shutil.which("callgrind_control"):
        sys.exit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    binary = build(args)
    big = 10_000 if args.quick else 100_000
    count = 40 if args.quick else 200
    builds = [("this build", binary)] + ([("previous build", args.before)] if args.before else [])
    counts = {}
    for label, path in builds:
        with tempfile.TemporaryDirectory() as directory:
            counts[label] = figures(without_debug_info(path, directory), directory, big, count)
    header = ["instructions per request"] + [label for label, _ in reversed(builds)]
    if args.before:
        header.append("this / previous")
    rows = []
    for key, title in ROWS:
        cells = [f"{counts[label][key]:,.0f}" for label, _ in reversed(builds)]
        if args.before:
            cells.append(f"{counts['this build'][key] / counts['previous build'][key]:.3f}")
        rows.append((title.format(big=f"{big // 1000}k"), *cells))
    table = markdown_table(header, rows)
    publish("instructions", "Instructions per request", table, (
        f"Counted {now()} "
        f"by `bench/instructions.py{' --before …' if args.before else ''}` (release builds, each under "
        f"`valgrind --tool=callgrind`, the counters zeroed after a warm-up; {count} round trips each, "
        f"{max(count // 4, 10)} of the page). A count does not move with the machine's load, so it separates "
        f"two builds whose times differ by less than the noise."), write=not (args.quick or args.no_write))
    return 0


if __name__ == "__main__":
    sys.exit(main())
