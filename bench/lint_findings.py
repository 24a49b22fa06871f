#!/usr/bin/env python3
"""bench/lint_findings.py: `inbox-rpc lint` on one notification of many findings, at 4,000, 8,000,
16,000 and 32,000 of them: a title and a body each written in N languages, none shared (2N
`missingLanguage` findings), pretty and minified; the same with `--every-locale` (a verdict per
language); N buttons that break the schema (one `schema` finding, N `buttonDropped`).

  INBOX_RPC_BIN=.build/release/inbox-rpc bench/lint_findings.py [--sizes 4000,8000,...] [--reps R] [--no-write]
  bench/run --lint-findings [--no-build] [--no-write]     the same, from bench/run

Each repetition runs every subject and size once, in turn, so a shared machine's noise falls on all
of them; figures are medians over the repetitions (wall clock), and
the best-of ratio divides the fastest repetitions (noise only ever slows a run). Each run's
instructions are counted once by callgrind besides (--no-instructions to skip): a count the machine's
load does not move, so it stands where the times are INCONCLUSIVE. Goal
(bench/RESULTS.md): each doubling of the findings at most 2.2x the time, the growth of time linear
in the payload rather than in the square of its findings; judged on the medians, INCONCLUSIVE when
the best-of ratios land on the other side.
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
from pathlib import Path

from instructions import without_debug_info
from lint_corpus import measure
from results_section import publish_current

REPO = Path(__file__).resolve().parent.parent
GOAL = 2.2


def languages(count: int) -> dict:
    return {"send_date": "now", "inbox_days": 3,
            "ios_title": {f"en-t{index}": f"Offer {index}" for index in range(count)},
            "content": {f"en-c{index}": f"Today only {index}" for index in range(count)}}


def buttons(count: int) -> dict:
    # An integer title breaks the schema and drops the button; the url has no scheme besides.
    return {"send_date": "now", "inbox_days": 3, "ios_title": "Sale", "content": "Today only",
            "data": {"displayType": "classic",
                     "buttons": [{"title": index, "url": "example.com/x", "action": "openURL"}
                                 for index in range(count)]}}


# Subject: (payload maker, minified, extra lint flags)
SUBJECTS = {
    "language keys, pretty": (languages, False, []),
    "language keys, minified": (languages, True, []),
    "language keys, --every-locale": (languages, False, ["--every-locale"]),
    "schema-breaking buttons, pretty": (buttons, False, []),
    "schema-breaking buttons, minified": (buttons, True, []),
}


def write(path: Path, value: dict, minified: bool) -> None:
    text = json.dumps(value, separators=(",", ":")) if minified else json.dumps(value, indent=2)
    path.write_text(text, encoding="utf-8")


def instructions(runs: dict[tuple[str, int], list[str]], work: Path) -> dict[tuple[str, int], int]:
    """Each run's instructions as callgrind counts them (bench/instructions.py's stripped copy)."""
    if not shutil.which("valgrind"):
        sys.exit("bench/lint_findings.py counts instructions with valgrind (apt-get install valgrind), "
                 "or pass --no-instructions")
    binary = without_debug_info(next(iter(runs.values()))[0], str(work))
    counted = {}
    for key, argv in runs.items():
        done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, *argv[1:]],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        totals = [line.split(":")[-1] for line in done.stderr.splitlines() if "Collected :" in line]
        if not totals:
            sys.exit(f"bench/lint_findings.py: callgrind counted nothing for {key}: {done.stderr[-300:]}")
        counted[key] = int(totals[-1].strip())
        print(f"{key[0]}, {key[1]}: {counted[key]:,} instructions", file=sys.stderr)
    return counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="4000,8000,16000,32000")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print the table, leave RESULTS.md")
    parser.add_argument("--no-instructions", action="store_true", help="time only, without callgrind's counts")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    binary = os.environ.get("INBOX_RPC_BIN") or str(REPO / ".build" / "release" / "inbox-rpc")
    if not Path(binary).exists():
        sys.exit(f"bench/lint_findings.py: {binary} is missing (build release)")

    loads = [os.getloadavg()[0]]
    work = Path(tempfile.mkdtemp(prefix="inbox-lint-findings-"))
    lint = [binary, "lint", "--fail-on", "never", "--now", "1790000000"]
    runs: dict[tuple[str, int], list[str]] = {}
    for name, (make, minified, flags) in SUBJECTS.items():
        for size in sizes:
            path = work / f"{name.split(',')[0].replace(' ', '-')}-{'min' if minified else 'pretty'}-{size}.json"
            write(path, make(size), minified)
            runs[(name, size)] = lint + flags + [str(path)]
    times: dict[tuple[str, int], list[float]] = {key: [] for key in runs}
    findings: dict[tuple[str, int], int] = {}
    try:
        for rep in range(args.reps):
            for key, argv in runs.items():
                elapsed, used, _, out = measure(argv)
                findings[key] = sum(line.startswith(b"  ") and b" ok" != line[-3:] for line in out.splitlines())
                times[key].append(elapsed)
                print(f"rep {rep + 1}: {key[0]}, {key[1]}: {elapsed:.2f} s, CPU {used:.2f} s, "
                      f"{findings[key]} findings", file=sys.stderr)
        # Instructions, once each: the same for the same binary and input whatever else the machine
        # runs, so a loaded machine's noise cannot move the verdict either way.
        counted = {} if args.no_instructions else instructions(runs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    loads.append(os.getloadavg()[0])

    t = {key: statistics.median(values) for key, values in times.items()}
    best = {key: min(values) for key, values in times.items()}
    doublings = list(zip(sizes, sizes[1:]))
    rows = []
    for name in SUBJECTS:
        # The worst doubling of this payload, by median time and by instructions.
        ratio = max(t[(name, b)] / t[(name, a)] for a, b in doublings)
        best_ratio = max(best[(name, b)] / best[(name, a)] for a, b in doublings)
        met, best_met = ratio <= GOAL, best_ratio <= GOAL
        verdict = ("MET" if met else "NOT MET") if met == best_met else "INCONCLUSIVE"
        figure, ratios = f"{t[(name, sizes[-1])]:.2f} s", f"time {ratio:.2f} (best-of {best_ratio:.2f})"
        if counted:
            counts = max(counted[(name, b)] / counted[(name, a)] for a, b in doublings)
            figure += f", {counted[(name, sizes[-1])] / 1e9:.2f} G instructions"
            ratios += f"; instructions {counts:.2f}"
            # The count decides: the machine's load moves the times, never the instructions.
            verdict = ("MET" if counts <= GOAL else "NOT MET") + f" (time: {verdict})"
        rows.append({"figure": f"{name}, worst doubling", "inbox-rpc": f"{figure} at {sizes[-1]:,}",
                     "reference": "the half size", "ratio": ratios, "target": f"≤ {GOAL}", "verdict": verdict})
    how = (f"One notification of N = {sizes[0]:,} to {sizes[-1]:,}: a title and a body in N languages none "
           "shared (2N missingLanguage), or N schema-breaking buttons; median of "
           f"{args.reps}, wall time with the process's start, and callgrind's count of one run; load average {min(loads):.0f} to {max(loads):.0f}.")
    publish_current("lint-findings", "Lint on one payload of many findings (`bench/lint_findings.py`)", how, rows,
                    write=not args.no_write)

if __name__ == "__main__":
    main()
