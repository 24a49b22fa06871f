#!/usr/bin/env python3
"""bench/lint_findings.py: `inbox-rpc lint` on one notification of many findings, at 4,000, 8,000,
16,000 and 32,000 of them: a title and a body each written in N languages, none shared (2N
`missingLanguage` findings), pretty and minified; the same with `--every-locale` (a verdict per
language); N buttons that break the schema (one `schema` finding, N `buttonDropped`).

  INBOX_RPC_BIN=.build/release/inbox-rpc bench/lint_findings.py [--sizes 4000,8000,...] [--reps R] [--no-write]
  bench/run --lint-findings [--no-build] [--no-write]     the same, from bench/run

Each repetition runs every subject and size once, in turn, so a shared machine's noise falls on all
of them; figures are medians over the repetitions (wall clock, and CPU time as a cross-check), and
the best-of ratio divides the fastest repetitions (noise only ever slows a run). Goal
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

from lint_corpus import measure
from results_section import markdown_table, now, publish

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="4000,8000,16000,32000")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--no-write", action="store_true", help="print the table, leave RESULTS.md")
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
    cpu: dict[tuple[str, int], list[float]] = {key: [] for key in runs}
    findings: dict[tuple[str, int], int] = {}
    try:
        for rep in range(args.reps):
            for key, argv in runs.items():
                elapsed, used, _, out = measure(argv)
                findings[key] = sum(line.startswith(b"  ") and b" ok" != line[-3:] for line in out.splitlines())
                times[key].append(elapsed)
                cpu[key].append(used)
                print(f"rep {rep + 1}: {key[0]}, {key[1]}: {elapsed:.2f} s, CPU {used:.2f} s, "
                      f"{findings[key]} findings", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    loads.append(os.getloadavg()[0])

    t = {key: statistics.median(values) for key, values in times.items()}
    best = {key: min(values) for key, values in times.items()}
    c = {key: statistics.median(values) for key, values in cpu.items()}
    rows, ratios, best_ratios = [], [], []
    for name in SUBJECTS:
        for before, size in zip([None, *sizes], sizes):
            key, half = (name, size), (name, before)
            ratio = t[key] / t[half] if before else None
            best_ratio = best[key] / best[half] if before else None
            cpu_ratio = c[key] / c[half] if before else None
            if ratio is not None:
                ratios.append(ratio)
                best_ratios.append(best_ratio)
            rows.append((name, f"{size:,}", f"{findings[key]:,}", f"{t[key]:.2f}",
                         f"{ratio:.2f}" if ratio else "", f"{best_ratio:.2f}" if best_ratio else "",
                         f"{c[key]:.2f}", f"{cpu_ratio:.2f}" if cpu_ratio else ""))
    table = markdown_table(["payload", "N", "findings written", "wall time (s)", "x the half size",
                            "best-of x the half size", "CPU time (s)", "CPU x the half size"], rows)
    met, best_met = max(ratios) <= GOAL, max(best_ratios) <= GOAL
    verdict = ("MET" if met else "NOT MET") if met == best_met else "INCONCLUSIVE"
    # The whole range at once, which a shared machine's noise moves less than one doubling.
    doublings = len(sizes) - 1
    span = [t[(name, sizes[-1])] / t[(name, sizes[0])] for name in SUBJECTS]
    best_span = [best[(name, sizes[-1])] / best[(name, sizes[0])] for name in SUBJECTS]
    span_met, best_span_met = max(span) <= GOAL**doublings, max(best_span) <= GOAL**doublings
    span_verdict = ("MET" if span_met else "NOT MET") if span_met == best_span_met else "INCONCLUSIVE"
    goals = markdown_table(["goal", "worst ratio (median)", "worst ratio (best-of)", "verdict"], [
        (f"each doubling of the findings ≤ {GOAL}x the time", f"{max(ratios):.2f}", f"{max(best_ratios):.2f}",
         verdict),
        (f"{sizes[0]:,} to {sizes[-1]:,} ({2**doublings}x the findings) ≤ {GOAL**doublings:.1f}x the time",
         f"{max(span):.2f}", f"{max(best_span):.2f}", span_verdict),
    ])
    text = (f"Measured {now()} by `bench/lint_findings.py` ({args.reps} repetitions, medians; {os.cpu_count()} "
            f"cores, shared with other work: load average {min(loads):.0f} at one end of the run, "
            f"{max(loads):.0f} at the other). One notification a file: a title and a body each written in N "
            "languages none of which the other has (2N missingLanguage findings), and N buttons with an integer "
            "title (one schema finding, N buttonDropped), the text format. Time includes the process's start.")
    publish("lint-findings", "Lint on one payload of many findings", table + "\n\n" + goals, text,
            write=not args.no_write)


if __name__ == "__main__":
    main()
