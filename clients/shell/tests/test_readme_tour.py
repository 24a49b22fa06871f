"""README.md's tour is run as written: the commands shown are the commands tested.

Each fenced block opened with ```` ```sh tour ```` holds commands (`$ ` lines; a trailing `\\`
continues one) each followed by the output it prints. All blocks run in order in one bash from
the repository root, with a private TMPDIR (the tour's `mktemp -d` makes a fresh store there),
stderr merged into stdout as a terminal shows it, and the server under test as INBOX_RPC_BIN;
or, with `INBOX_RPC_TOUR_PATH=DIR`, the `inbox-rpc` installed in DIR (a package's) first on PATH
and INBOX_RPC_BIN unset, as a user who installed a package runs the tour.
Every command must exit 0 (the tour shows a failure with `; echo "exit status $?"`), and its
output must equal the shown one once dates and cursors are masked.

`RECORD_TOUR=1` writes the actual output into README.md and fails, for a person to review.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

from shell_support import REPO_ROOT
from shell_support import server_bin, watchdog  # noqa: F401  (fixtures)

README = REPO_ROOT / "README.md"
BLOCK = re.compile(r"^```sh tour\n(.*?)^```\n", re.DOTALL | re.MULTILINE)
MARK = re.compile(r"\x1e(\d+)\x1e\n")
VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?Z?"), "<date>"),
    (re.compile(r"cursor=\S+"), "cursor=<cursor>"),
]


@dataclass
class Step:
    command: str
    shown: List[str] = field(default_factory=list)


def parse(block: str) -> List[Step]:
    steps: List[Step] = []
    continuing = False
    for line in block.splitlines():
        if continuing:
            steps[-1].command += "\n" + line
            continuing = line.endswith("\\")
        elif line.startswith("$ "):
            steps.append(Step(line[2:]))
            continuing = line.endswith("\\")
        else:
            assert steps, f"output before any command in a tour block: {line!r}"
            steps[-1].shown.append(line)
    return steps


def normalise(lines: List[str]) -> List[str]:
    out = []
    for line in lines:
        for pattern, mask in VOLATILE:
            line = pattern.sub(mask, line)
        out.append(line.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


def run_tour(steps: List[Step], env: Dict[str, str], cwd: Path = REPO_ROOT) -> List[tuple]:
    script = "exec 2>&1\n" + "".join(f"{step.command}\nprintf '\\036%s\\036\\n' \"$?\"\n" for step in steps)
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    pieces = MARK.split(done.stdout)
    outputs, statuses = pieces[0:-1:2], pieces[1::2]
    assert len(statuses) == len(steps), f"the tour stopped early; it printed:\n{done.stdout}"
    return [(output.splitlines(), int(status)) for output, status in zip(outputs, statuses)]


def record(blocks: List[List[Step]], results: List[tuple]) -> None:
    results_left = iter(results)

    def rewrite(match: "re.Match[str]") -> str:
        lines = []
        for step in parse(match.group(1)):
            lines.append("$ " + step.command)
            lines.extend(line.rstrip() for line in next(results_left)[0])
        return "```sh tour\n" + "\n".join(lines) + "\n```\n"

    README.write_text(BLOCK.sub(rewrite, README.read_text()))


def test_the_readme_tour_prints_what_it_shows(server_bin: str, tmp_path: Path) -> None:
    blocks = [parse(block) for block in BLOCK.findall(README.read_text())]
    steps = [step for block in blocks for step in block]
    assert len(blocks) >= 2 and len(steps) >= 9, "README.md has lost its tour"
    commands = "\n".join(step.command for step in steps)
    for needed in (
        "inbox message.resolve",
        "inbox feed.list",
        "inbox message.tap",
        "inbox message.dismiss",
        "inbox session",
        "list_feed.py",
    ):
        assert needed in commands, f"the tour no longer shows {needed}"

    env = {name: value for name, value in os.environ.items() if not name.startswith(("INBOX", "PYTHON"))}
    env.update(TMPDIR=str(tmp_path), PYTHONUNBUFFERED="1", TERM="dumb")
    installed = os.environ.get("INBOX_RPC_TOUR_PATH")
    if installed:
        env["PATH"] = installed + os.pathsep + env.get("PATH", "")
        assert shutil.which("inbox-rpc", path=env["PATH"]) == os.path.join(installed, "inbox-rpc")
    else:
        env["INBOX_RPC_BIN"] = server_bin
    results = run_tour(steps, env)

    if os.environ.get("RECORD_TOUR"):
        record(blocks, results)
        raise AssertionError("RECORD_TOUR: README.md's tour was re-recorded; review the diff")
    for step, (output, status) in zip(steps, results):
        assert status == 0, f"$ {step.command}\nexited {status}:\n" + "\n".join(output)
        assert normalise(output) == normalise(step.shown), f"$ {step.command}"
