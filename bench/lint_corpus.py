#!/usr/bin/env python3
"""bench/lint_corpus.py: `inbox-rpc lint` on a payload repository of 20,000 createMessage
notifications, laid out as one array file and as 20,000 files, beside the validators such a
repository would otherwise run: jsonschema-rs (from Python) and check-jsonschema, each checking the
same payloads against the same schema (Schemas/shapes/SendRequestNotification.schema.json).

  script/bootstrap --bench                      the validators, in .venv-bench
  INBOX_RPC_BIN=.build/release/inbox-rpc bench/lint_corpus.py [--count N]... [--reps R] [--no-write]

Each repetition runs every subject once, in turn, so a shared machine's noise falls on all of
them; figures are medians over the repetitions. Time is wall clock (lint spreads its work over the
cores, the validators use one); peak memory is the child's maximum resident set (getrusage).
Goals (bench/RESULTS.md): one file at most 1.5x the time of the separate files; lint's payloads
per second at least half of jsonschema-rs's, though lint resolves every card as the engine does
besides checking the schema; lint's peak memory on the directory at most twice that on the one file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results_section import publish_current

REPO = Path(__file__).resolve().parent.parent
SCHEMA = REPO / "Schemas" / "shapes" / "SendRequestNotification.schema.json"
VENV = REPO / ".venv-bench" / "bin"

# jsonschema-rs from Python: the schema compiled once, then each payload read and validated.
RS_SCRIPT = r"""
import json, sys, os, jsonschema_rs
schema = json.load(open(sys.argv[1]))
validator = jsonschema_rs.validator_for(schema)
checked = invalid = 0
for path in sys.argv[3:] if sys.argv[2] == "files" else [sys.argv[3]]:
    with open(path, "rb") as f:
        value = json.loads(f.read())
    for item in (value if isinstance(value, list) else [value]):
        checked += 1
        invalid += not validator.is_valid(item)
print(checked, invalid)
"""


def payload(rng: random.Random, index: int) -> dict:
    """A notification as marketers write them: every kind, buttons, languages, platforms."""
    image = f"https://cdn.example.com/inbox/{index}.png"
    kind = rng.choice(["banner", "captioned", "classic", "carousel", "video", "wallet"])
    data: dict = {"displayType": kind, "promo_id": f"P{index}"}
    item: dict = {"send_date": "now", "inbox_days": rng.randint(1, 30), "platforms": rng.choice([[1], [1, 3], [3]])}
    if rng.random() < 0.3:
        item["ios_title"] = {"en": f"Offer {index}", "de": f"Angebot {index}", "es": f"Oferta {index}"}
        item["content"] = {"en": "Today only", "de": "Nur heute", "es": "Solo hoy"}
    else:
        item["ios_title"] = f"Offer {index}"
        item["content"] = "Swipe through this week's drops"
    if kind in ("banner", "captioned"):
        item["inbox_image"] = image
    if kind == "carousel":
        data["carousel"] = [{"image": f"https://cdn.example.com/{index}/{n}.jpg", "title": f"Slide {n}",
                             "url": f"myapp://product/{n}"} for n in range(rng.randint(1, 5))]
    if kind == "video":
        data["video"] = {"url": f"https://cdn.example.com/{index}.mp4", "poster": image}
    if kind == "wallet":
        data["wallet"] = f"https://passes.example.com/v1/{index}.pkpass"
    if kind in ("captioned", "classic"):
        data["buttons"] = [{"title": "Claim", "url": f"https://example.com/promo/{index}"},
                           {"title": "Save", "action": "custom", "tag": "save_promo"}][: rng.randint(0, 2)]
    item["data"] = data
    return item


def corpus(directory: Path, count: int) -> tuple[Path, Path, list[str]]:
    rng = random.Random(40)
    items = [payload(rng, index) for index in range(count)]
    one = directory / "one.json"
    one.write_text(json.dumps(items, indent=2, ensure_ascii=False), encoding="utf-8")
    files = directory / "files"
    names = []
    for index, item in enumerate(items):
        sub = files / f"{index // 1000:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / f"{index:05d}.json"
        path.write_text(json.dumps(item, indent=2, ensure_ascii=False), encoding="utf-8")
        names.append(str(path))
    return one, files, names


def measure(argv: list[str], ok=(0,)) -> tuple[float, float, float, bytes]:
    """Wall seconds, CPU seconds (user + system) and peak resident set (MiB) of one run of `argv`.

    GNU time runs it: a child's peak resident set counts the memory of the process it was forked
    from (Linux keeps it across exec), which for a direct child would be this script's.
    """
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        child = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%x %M %U %S", *argv],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        code, peak, user, system = report.read().split()[-4:]
    if int(code) not in ok:
        sys.exit(f"{' '.join(argv[:4])}... exited {code}")
    return elapsed, float(user) + float(system), int(peak) / 1024, child.stdout

def run(binary: str, count: int, reps: int) -> tuple[dict, dict, dict]:
    """Median wall time, CPU time and peak memory of every subject on a corpus of `count` payloads."""
    python, check = VENV / "python", VENV / "check-jsonschema"
    work = Path(tempfile.mkdtemp(prefix="inbox-lint-bench-"))
    try:
        one, files, names = corpus(work, count)
        lint = [binary, "lint", "--fail-on", "never", "--now", "1790000000"]
        rs = [str(python), "-c", RS_SCRIPT, str(SCHEMA)]
        subjects = {
            "lint, one file": lint + [str(one)],
            "lint, files": lint + [str(files)],
            "jsonschema-rs, one file": rs + ["one", str(one)],
            "jsonschema-rs, files": rs + ["files", *names],
            "check-jsonschema, files": [str(check), "--schemafile", str(SCHEMA), *names],
        }
        times: dict[str, list[float]] = {name: [] for name in subjects}
        memory: dict[str, list[float]] = {name: [] for name in subjects}
        cpu: dict[str, list[float]] = {name: [] for name in subjects}
        for rep in range(reps):
            for name, argv in subjects.items():
                elapsed, used, peak, out = measure(argv)
                if name.startswith("lint"):
                    verdicts = sum(not line.startswith(b"  ") for line in out.splitlines())
                    assert verdicts >= count, (name, verdicts)
                elif name.startswith("jsonschema-rs"):
                    checked, invalid = map(int, out.split())
                    assert checked == count and invalid == 0, (name, checked, invalid)
                times[name].append(elapsed)
                memory[name].append(peak)
                cpu[name].append(used)
                print(f"{count:,} payloads, rep {rep + 1}: {name}: {elapsed:.2f} s, CPU {used:.2f} s, {peak:.0f} MiB",
                      file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    median = lambda table: {name: statistics.median(values) for name, values in table.items()}  # noqa: E731
    return median(times), median(cpu), median(memory)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, action="append",
                        help="corpus sizes (repeatable; default 2,000 and 20,000: the layout goal holds at both)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print the table, leave RESULTS.md")
    args = parser.parse_args()
    counts = args.count or [2_000, 20_000]
    binary = os.environ.get("INBOX_RPC_BIN") or str(REPO / ".build" / "release" / "inbox-rpc")
    for needed in (binary, VENV / "python", VENV / "check-jsonschema"):
        if not Path(needed).exists():
            sys.exit(f"bench/lint_corpus.py: {needed} is missing (build release; script/bootstrap --bench)")

    def verdict(met: bool) -> str:
        return "MET" if met else "NOT MET"

    rows = []
    for count in counts:
        t, c, m = run(binary, count, args.reps)
        layout = t["lint, one file"] / t["lint, files"]
        rows.append({"figure": f"time, one file / separate files, {count:,} payloads",
                     "inbox-rpc": f"{t['lint, one file']:.2f} s", "reference": f"{t['lint, files']:.2f} s",
                     "ratio": f"{layout:.2f} (CPU {c['lint, one file'] / c['lint, files']:.2f})",
                     "target": "≤ 1.5", "verdict": verdict(layout <= 1.5)})
        if count != max(counts):
            continue
        for layout_name in ("one file", "files"):
            ours = count / t[f"lint, {layout_name}"]
            theirs = count / t[f"jsonschema-rs, {layout_name}"]
            rows.append({"figure": f"payloads/s, {layout_name}, {count:,} payloads", "inbox-rpc": f"{ours:,.0f}",
                         "reference": f"jsonschema-rs, {theirs:,.0f}", "ratio": f"{ours / theirs:.2f}",
                         "target": "≥ 0.5", "verdict": verdict(ours / theirs >= 0.5)})
        memory_ratio = m["lint, files"] / m["lint, one file"]
        rows.append({"figure": f"peak memory, files / one file, {count:,} payloads",
                     "inbox-rpc": f"{m['lint, files']:.0f} MiB", "reference": f"{m['lint, one file']:.0f} MiB",
                     "ratio": f"{memory_ratio:.2f}", "target": "≤ 2", "verdict": verdict(memory_ratio <= 2)})
    publish_current("lint-corpus", "Lint on a payload repository (`bench/lint_corpus.py`)",
                    "The notifications as one array file and as that many files; jsonschema-rs checks the schema "
                    f"alone; medians of {args.reps} repetitions, wall time (CPU time beside it).",
                    rows, write=not args.no_write)


if __name__ == "__main__":
    main()
