"""`inbox-rpc lint`: contract testing of marketer payloads from a shell."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import termios
import time

from conftest import BIN
from contract import CONTRACT

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "lint")


def lint(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, "lint", "--now", "1790000000", *args], input=stdin, capture_output=True, timeout=10)


def test_a_clean_seed_example_says_what_it_becomes_and_exits_0():
    done = lint(os.path.join(DATA, "seed-carousel.json"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert b'carousel card "New arrivals"' in done.stdout and b"  ok" in done.stdout


def test_problems_are_listed_per_notification_and_exit_1():
    done = lint(os.path.join(DATA, "mixed-request.json"))
    assert done.returncode == 1
    text = done.stdout.decode()
    assert "request.notifications[0]: carousel card" in text
    assert "error [schema] request.notifications[0].data.carousel[1].image: required" in text
    assert "warning [slideDropped]" in text
    assert "warning [buttonDropped]" in text
    assert "request.notifications[2]: not an inbox message" in text


def test_json_output_carries_cards_that_fit_the_schema():
    done = lint("--json", os.path.join(DATA, "mixed-request.json"))
    report = json.loads(done.stdout)
    assert [p["label"] for p in report["payloads"]] == [f"request.notifications[{i}]" for i in range(3)]
    for payload in report["payloads"]:
        if payload["card"] is not None:
            assert not CONTRACT.errors_of(payload["card"], CONTRACT.schema("Card"))
        for warning in payload["warnings"]:
            assert not CONTRACT.errors_of(warning, CONTRACT.schema("Warning"))
    assert report["payloads"][2]["refusal"].startswith("payload has none of the inbox keys")


def test_wallet_needs_a_host_that_can_add_passes():
    wallet = {"ios_title": "Card", "content": "Add it", "inbox_days": 7,
              "data": {"displayType": "wallet", "wallet": "https://passes.example.com/p.pkpass"}}
    on_linux = lint("-", stdin=json.dumps(wallet).encode())
    assert on_linux.returncode == 1 and b"classic card" in on_linux.stdout and b"(asked for wallet)" in on_linux.stdout
    on_ios = lint("--platform", "ios", "-", stdin=json.dumps(wallet).encode())
    assert on_ios.returncode == 0 and b"wallet card" in on_ios.stdout


def test_unreadable_input_and_bad_usage():
    assert lint(os.path.join(DATA, "no-such-file.json")).returncode == 3
    assert lint("-", stdin=b"{not json").returncode == 3
    assert lint().returncode == 2
    assert lint("--bogus", "x").returncode == 2


def test_output_to_a_pipe_another_process_made_non_blocking_arrives_whole(tmp_path):
    # Hosts such as Node hand a child a pipe whose description they made non-blocking: the report
    # is still written whole, waiting for the reader however slowly it reads.
    payloads = [{"ios_title": f"Title {i}", "content": f"Body {i} " + "x" * 200, "inbox_days": 7}
                for i in range(500)]
    source = tmp_path / "many.json"
    source.write_text(json.dumps(payloads))
    expected = lint("--json", str(source))
    assert len(expected.stdout) > 256 * 1024
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    proc = subprocess.Popen([BIN, "lint", "--now", "1790000000", "--json", str(source)],
                            stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        # Nothing is read until the pipe is full, so the report meets a pipe with no room.
        capacity = fcntl.fcntl(reader.fileno(), fcntl.F_GETPIPE_SZ)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            queued = fcntl.ioctl(reader.fileno(), termios.FIONREAD, b"\0\0\0\0")
            if int.from_bytes(queued, "little") >= capacity:
                break
            time.sleep(0.01)
        output = reader.read()
    assert proc.wait(timeout=60) == expected.returncode, proc.stderr.read()
    assert output == expected.stdout
