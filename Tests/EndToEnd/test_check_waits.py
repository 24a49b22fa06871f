"""script/check-waits, which script/test runs over Sources: it passes on the sources as they are
(with the waits script/check-waits.allowed lists), and fails on each way of scheduling by thread
identity, polling or holding a thread while it waits that it exists to keep out."""

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
    ("let woken = DispatchSemaphore(value: 0)\nwoken.wait()", "waits on a thread"),
    ("_ = done.wait(timeout: .now() + seconds)", "waits on a thread"),
    ("queue.sync { work() }", "waits on a thread"),
    ("readLock.lock()", "waits on a thread"),
    ("_ = poll(&fds, 1, 100)", "polls a descriptor"),
    ("sqlite3_busy_timeout(handle, 5000)", "busy timeout"),
    ("database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)", "busy timeout"),
    ("state.withLock { state in\n  _ = write(fd, bytes, count)\n}", "I/O under a mutex"),
    ("_ = fcntl(fd, F_SETLKW, &lock)", "blocks for a file lock"),
    ("_ = fcntl(fd, F_SETLKW64, &lock)", "blocks for a file lock"),
    ("_ = fcntl(fd, F_OFD_SETLKW, &lock)", "blocks for a file lock"),
    ("let locked = fcntl(waiter, 38, &lock) == 0", "blocks for a file lock"),
    ("let waitForLock: Int32 = 38\n  _ = fcntl(fd, Self.waitForLock, &lock)", "blocks for a file lock"),
    ("_ = flock(fd, LOCK_EX)", "blocks for a file lock"),
    ("while flock(fd, LOCK_SH) != 0 {}", "blocks for a file lock"),
])
def test_each_rule_fails_the_check(tmp_path, code, rule):
    source = tmp_path / "Bad.swift"
    source.write_text(f"func bad() {{\n  {code}\n}}\n")
    done = check(source)
    # The finding names the line of the offending call.
    markers = ("RunOffReader", "pthread", "sleep", "wait(", "sync {", "lock()", "poll(", "usyTimeout", "busy_timeout",
               "write(", "fcntl(", "flock(")
    line = 2 + next(i for i, text in enumerate(code.split("\n")) if any(m in text for m in markers))
    assert done.returncode == 1 and rule in done.stdout and f"Bad.swift:{line}:" in done.stdout, done.stdout


@pytest.mark.parametrize("code", [
    'logger.debug("test.sleep slept; usleep( and queue.sync { are named in a string")',
    "// while polling { usleep(1) } is what this file must not do, nor done.wait()",
    "inbox.sync(force: true, cancellation: token) { outcome in reply(outcome) }",
    "database.setBusyTimeout(milliseconds: 0)",
    "state.withLock { $0.pending += 1 }",
    "lane.submit { .waits { resume in wake(resume) } }",
    "_ = fcntl(fd, F_OFD_SETLK, &lock)",
    "let taken = fcntl(fd, 37, &lock) == 0",
    "_ = fcntl(fd, F_DUPFD_CLOEXEC, 38)",
    "while flock(fd, LOCK_EX | LOCK_NB) != 0 {}",
    "_ = flock(fd, LOCK_UN)",
    "var range = flock()",
])
def test_what_is_not_polling_passes(tmp_path, code):
    source = tmp_path / "Good.swift"
    source.write_text(f"func good() {{\n  {code}\n}}\n")
    done = check(source)
    assert done.returncode == 0, done.stdout


def test_the_allowed_waits_only_shrink(tmp_path):
    # A count above what a source has fails as a count below does: the list is kept exact.
    repo = tmp_path / "repo"
    (repo / "script").mkdir(parents=True)
    (repo / "Sources").mkdir()
    (repo / "script" / "check-waits").write_text(CHECK.read_text())
    source = repo / "Sources" / "Waits.swift"
    source.write_text("func waits() {\n  ready.wait()\n}\n")
    allowed = repo / "script" / "check-waits.allowed"

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(repo / "script" / "check-waits")], capture_output=True, text=True,
                              timeout=60)

    assert run().returncode == 1
    allowed.write_text("# why it remains\nSources/Waits.swift thread-wait 1  the one wait\n")
    assert run().returncode == 0
    allowed.write_text("Sources/Waits.swift thread-wait 2  one more than there is\n")
    done = run()
    assert done.returncode == 1 and "lower the count" in done.stdout, done.stdout
