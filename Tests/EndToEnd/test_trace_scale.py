"""check-trace's work grows linearly with the findings it reports, counted, not timed.

Each run goes under valgrind's core (`--tool=none --stats=yes`), which counts the superblocks the
program enters ("event checks"): a count of the work done that a loaded machine does not change.
The count of a run on an empty trace (start-up: the contract, the validators) is taken off, and 10
times the findings must cost at most 15 times the work (linear to within 1.5x). On main, each
finding's position was found by walking the file from its start: 10 times the findings cost 100
times the work. The release binary is measured (the shipped one; the debug one is 10 times slower
under valgrind).
"""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

pytestmark = pytest.mark.release_binary  # script/test runs these once the release build is done

RELEASE_BIN = os.environ.get("INBOX_RPC_RELEASE_BIN", os.path.join(os.getcwd(), ".build/release/inbox-rpc"))
EVENT_CHECKS = re.compile(rb"scheduler: ([\d,]+) event checks")


def unanswered(path: str, count: int) -> None:
    """`count` requests never answered: a no-reply warning each."""
    with open(path, "w", encoding="utf-8") as f:
        for i in range(count):
            frame = {"jsonrpc": "2.0", "id": i, "method": "feed.counts"}
            f.write(json.dumps({"t": 1764493500000 + i, "dir": "in", "frame": frame}, separators=(",", ":")) + "\n")


def unknown_methods(path: str, count: int) -> None:
    """`count` notifications of a method the contract does not have: an error each."""
    with open(path, "w", encoding="utf-8") as f:
        for i in range(count):
            frame = {"jsonrpc": "2.0", "method": "feed.nuke", "params": {"n": i}}
            f.write(json.dumps({"t": 1764493500000 + i, "dir": "in", "frame": frame}, separators=(",", ":")) + "\n")


def work(binary: str, runs: dict[str, list[str]]) -> dict[str, int]:
    """Superblocks entered by each run, the runs side by side (one core each)."""
    started = {
        name: subprocess.Popen(
            ["valgrind", "--tool=none", "--stats=yes", binary, "check-trace", *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        for name, args in runs.items()
    }
    counts = {}
    for name, process in started.items():
        _, err = process.communicate(timeout=1200)
        assert process.returncode in (0, 1), err.decode(errors="replace")[-2000:]
        found = EVENT_CHECKS.search(err)
        assert found, err.decode(errors="replace")[-2000:]
        counts[name] = int(found.group(1).replace(b",", b""))
    return counts


def findings(path: str) -> int:
    done = subprocess.run([RELEASE_BIN, "check-trace", "--format", "json", path], capture_output=True, timeout=300)
    return sum(len(subject["findings"]) for subject in json.loads(done.stdout)["subjects"])


@pytest.fixture(scope="module")
def release_bin() -> str:
    if not os.path.exists(RELEASE_BIN):
        pytest.fail(f"no release binary at {RELEASE_BIN} (swift build -c release -Xswiftc -static-stdlib, "
                    "or set INBOX_RPC_RELEASE_BIN)", pytrace=False)
    return RELEASE_BIN


@pytest.fixture(scope="module")
def counted_bin(release_bin, tmp_path_factory) -> str:
    """The release binary without its debug sections, which valgrind then need not read: Debian's
    valgrind 3.19 gives up on some DWARF 5 the Swift toolchain writes ("Possibly corrupted debuginfo
    file"). The code run, and so the count, is the same."""
    copy = str(tmp_path_factory.mktemp("bin") / "inbox-rpc")
    subprocess.run(["strip", "--strip-debug", "-o", copy, release_bin], check=True, timeout=300)
    return copy


@pytest.mark.timeout(1500)
@pytest.mark.parametrize("case", [
    # unanswered requests in the text format, unknown methods as SARIF: ten times the findings is
    # the measure, not their number (a walk from the file's start per finding grows with either)
    ("text", unanswered, 2_000, 20_000),
    ("sarif", unknown_methods, 2_000, 20_000),
])
def test_check_trace_work_is_linear_in_findings(tmp_path, release_bin, counted_bin, case):
    fmt, make, small, large = case
    empty = str(tmp_path / "empty.trace")
    open(empty, "w").close()
    paths = {}
    for size in (small, large):
        paths[size] = str(tmp_path / f"{size}.trace")
        make(paths[size], size)
    assert findings(paths[small]) == small
    counts = work(counted_bin, {
        "empty": ["--format", fmt, empty],
        "small": ["--format", fmt, paths[small]],
        "large": ["--format", fmt, paths[large]],
    })
    per_small = (counts["small"] - counts["empty"]) / small
    per_large = (counts["large"] - counts["empty"]) / large
    ratio = per_large / per_small
    print(f"{fmt}: {per_small:.0f} superblocks per finding at {small}, {per_large:.0f} at {large}: ratio {ratio:.3f}")
    assert ratio <= 1.5, counts


def answered(path: str, count: int) -> None:
    """`count` requests, each answered: a clean trace, a subject each."""
    with open(path, "w", encoding="utf-8") as f:
        for i in range(count):
            for direction, frame in (("in", {"jsonrpc": "2.0", "id": i, "method": "rpc.ping"}),
                                     ("out", {"jsonrpc": "2.0", "id": i, "result": "pong"})):
                f.write(json.dumps({"t": 1764493500000 + i, "dir": direction, "frame": frame}, separators=(",", ":")) + "\n")


def peak_kib(args: list[str]) -> int:
    """The largest resident size of one check-trace run (its output thrown away), in KiB."""
    process = subprocess.Popen([RELEASE_BIN, "check-trace", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode in (0, 1), process.returncode
    return usage.ru_maxrss


@pytest.mark.timeout(600)
@pytest.mark.parametrize("make,fmt", [
    (answered, "text"), (answered, "junit"), (unknown_methods, "json"), (unknown_methods, "sarif"),
    (unknown_methods, "github"),
], ids=["answered-text", "answered-junit", "unknown-json", "unknown-sarif", "unknown-github"])
def test_check_trace_memory_does_not_grow_with_the_trace(tmp_path, release_bin, make, fmt):
    """Each subject is written (or spooled to a file, JUnit's) as soon as it is complete, so ten
    times the frames and findings take no more memory; only requests still unanswered are held."""
    sizes = {}
    for count in (20_000, 200_000):
        path = str(tmp_path / f"{count}.trace")
        make(path, count)
        sizes[count] = peak_kib(["--format", fmt, path])
    print(f"{make.__name__} {fmt}: peak {sizes[20_000]} KiB at 20k frames, {sizes[200_000]} KiB at 200k")
    assert sizes[200_000] <= sizes[20_000] * 1.25 + 1024, sizes
