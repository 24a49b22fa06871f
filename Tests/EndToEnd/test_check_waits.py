"""script/check-waits, which script/test runs over Sources: it passes on the sources as they are,
and fails on each way of scheduling by thread identity or polling it exists to keep out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "script" / "check-waits"


def check(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(CHECK), *map(str, paths)], capture_output=True, text=True, timeout=60)


def test_the_sources_pass():
    done = check(REPO / "Sources")
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("code, rule", [
    ("throw RunOffReader()", "RunOffReader"),
    ("let me = pthread_self()", "pthread_self"),
    ("while !done { usleep(20_000) }", "sleeps"),
    ("Thread.sleep(forTimeInterval: 0.02)", "sleeps"),
    ("Clock.sleep(milliseconds: 5)", "sleeps"),
    ("while !isIdle { _ = emptied.wait(timeout: .now() + .milliseconds(1)) }", "in a loop"),
    ("repeat {\n  _ = group.wait(timeout: .now() + 1)\n} while busy", "in a loop"),
    ("for _ in 0..<3 {\n  if ready.wait(timeout: .now() + 1) == .success { break }\n}", "in a loop"),
    ("while flag.wait(timeout: .now() + 1) == .timedOut {}", "in a loop"),
])
def test_each_rule_fails_the_check(tmp_path, code, rule):
    source = tmp_path / "Bad.swift"
    source.write_text(f"func bad() {{\n  {code}\n}}\n")
    done = check(source)
    # The finding names the line of the offending call.
    line = 2 + next(i for i, text in enumerate(code.split("\n")) if "RunOffReader" in text or "pthread" in text
                    or "sleep" in text or "wait(" in text)
    assert done.returncode == 1 and rule in done.stdout and f"Bad.swift:{line}:" in done.stdout, done.stdout


@pytest.mark.parametrize("code", [
    "_ = done.wait(timeout: .now() + seconds)  // one bounded wait, woken by its event",
    'logger.debug("test.sleep slept; usleep( is named in a string")',
    "// while polling { usleep(1) } is what this file must not do",
    "let woken = DispatchSemaphore(value: 0)\nwoken.wait()",
    "sync(for: x) {\n  _ = done.wait(timeout: .now() + 1)\n}",
])
def test_what_is_not_polling_passes(tmp_path, code):
    source = tmp_path / "Good.swift"
    source.write_text(f"func good() {{\n  {code}\n}}\n")
    done = check(source)
    assert done.returncode == 0, done.stdout
