"""script/check-test-time finds every way a test compares a duration with a bound, and lets a wait
for an event under a hang deadline be."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import REPO_ROOT

CHECK = Path(REPO_ROOT) / "script" / "check-test-time"


def check(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess:
    path = tmp_path / name
    path.write_text(text)
    return subprocess.run([sys.executable, CHECK, str(tmp_path)], capture_output=True, text=True, timeout=60)


def test_the_repository_has_no_timed_assertion():
    run = subprocess.run([sys.executable, CHECK], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout


def test_a_clock_difference_in_an_assertion_is_found(tmp_path):
    run = check(tmp_path, "test_a.py", "import time\nt0 = time.monotonic()\nassert time.monotonic() - t0 < 2\n")
    assert run.returncode == 1 and "test_a.py:3:" in run.stdout


def test_a_name_holding_a_duration_is_found_and_one_from_a_timing_helper_too(tmp_path):
    (tmp_path / "helpers.py").write_text(
        "import time\ndef wait_exit(p):\n    t0 = time.monotonic()\n    p.wait()\n    return 0, time.monotonic() - t0\n")
    run = check(tmp_path, "test_b.py", "import time\nstarted = time.monotonic()\nelapsed = time.monotonic() - started\n"
                "assert elapsed < 1.5\nrc, took = wait_exit(p)\nassert rc == 0\nassert took <= 3\n")
    assert run.returncode == 1
    assert "test_b.py:4:" in run.stdout and "test_b.py:7:" in run.stdout and "test_b.py:6:" not in run.stdout


def test_javascript_and_swift_assertions_are_read_too(tmp_path):
    (tmp_path / "a.test.mjs").write_text("const s = Date.now();\nassert.ok(Date.now() - s < 10_000);\n")
    run = check(tmp_path, "ATests.swift", "let t = ContinuousClock.now\n#expect(ContinuousClock.now - t < .seconds(1))\n")
    assert run.returncode == 1 and "a.test.mjs:2:" in run.stdout and "ATests.swift:2:" in run.stdout


def test_a_hang_deadline_and_a_comment_are_not_findings(tmp_path):
    run = check(tmp_path, "test_c.py", "import time\ndeadline = time.monotonic() + 60\n"
                "while not done():\n    assert time.monotonic() < deadline, 'hung'\n"
                "    remaining = deadline - time.monotonic()\n    assert remaining > 0\n"
                "# assert time.monotonic() - t0 < 2\n")
    assert run.returncode == 0, run.stdout
