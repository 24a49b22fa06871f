"""The shell client against a broken or hostile server (a stand-in script in place of the binary):
one deadline per call that no line moves, a bound on a frame, a reason for every failure whatever
the input, and views that escape whatever the server sends. Nothing is timed: each test waits for
the outcome under the runner's hang-only deadline, and a stand-in that never stops is one only the
client's own rule can end."""

from __future__ import annotations

from shell_support import INBOX, REPO_ROOT, base_env, server_bin, stand_in_server  # noqa: F401  (fixtures)
from client_test_fixtures import answering_server

import subprocess
from pathlib import Path
from typing import Dict

CONTRACT = str(REPO_ROOT / "Schemas" / "openrpc.json")



def run(env: Dict[str, str], server: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(INBOX), "--contract", CONTRACT, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env={**env, "INBOX_RPC_BIN": str(server)})


def test_lines_that_are_not_the_reply_do_not_move_the_deadline(base_env: Dict[str, str], tmp_path: Path) -> None:
    noisy = stand_in_server(tmp_path, "noisy", """
        import sys
        line = '{"jsonrpc":"2.0","method":"log","params":{"level":"info","message":"noise"}}\\n'
        while True:
            sys.stdout.write(line)
            sys.stdout.flush()
    """)
    done = run(base_env, noisy, "--timeout", "2", "feed.counts")
    assert done.returncode == 3 and "no reply from inbox-rpc within 2 s" in done.stderr, done.stderr[-500:]


def test_an_endless_line_ends_the_call_at_the_frame_bound(base_env: Dict[str, str], tmp_path: Path) -> None:
    endless = stand_in_server(tmp_path, "endless", """
        import sys
        while True:
            sys.stdout.write("x" * 65536)
    """)
    done = run(base_env, endless, "--timeout", "600", "--max-frame-bytes", "100000", "feed.counts")
    assert done.returncode == 3 and "wrote a frame larger than 100000 bytes" in done.stderr, done.stderr[-500:]


def test_counts_that_are_strings_reach_the_terminal_escaped(base_env: Dict[str, str], tmp_path: Path) -> None:
    hostile = answering_server(tmp_path, "hostile", """{"result": {"total": "\\u001b]0;owned\\u0007",
        "unread": "\\u001b[2J", "unactioned": "a\\nb", "pinned": "\\u202e"}}""")
    done = run(base_env, hostile, "feed.counts")
    assert done.returncode == 0, done.stderr
    assert not any(c in done.stdout for c in "\x1b\x07\u202e"), repr(done.stdout)
    assert done.stdout == "\\u001b]0;owned\\u0007 messages: \\u001b[2J unread, a\\nb not opened, \\u202e pinned\n"


def test_a_result_the_view_cannot_read_is_shown_as_json_with_a_reason(base_env: Dict[str, str], tmp_path: Path) -> None:
    odd = answering_server(tmp_path, "odd", '{"result": {"items": 5, "title": "\\u001b[31m"}}')
    done = run(base_env, odd, "feed.list")
    assert done.returncode == 3
    assert "the result of feed.list is not what the contract says" in done.stderr
    assert "\x1b" not in done.stdout and '"\\u001b[31m"' in done.stdout


def test_a_malformed_error_reply_is_named_with_what_came(base_env: Dict[str, str], tmp_path: Path) -> None:
    for error, shown in [('"boom"', '"boom"'), ("null", "null"), ('{"code": "x"}', '{"code":"x"}')]:
        server = answering_server(tmp_path, "errs", f"{{'error': json.loads({error!r})}}")
        done = run(base_env, server, "feed.counts")
        assert done.returncode == 3, (error, done.stderr)
        assert f"inbox-rpc sent a malformed error: {shown}" in done.stderr, done.stderr


def test_every_usage_error_says_why_whatever_the_input(base_env: Dict[str, str], tmp_path: Path) -> None:
    echo = answering_server(tmp_path, "echo", '{"result": request.get("params")}')
    big = "k" * 1_000_000
    # In a session a line may be as long as it likes: a 1 MB word is refused with a reason, shortened.
    done = run(base_env, echo, "session", stdin=f"feed.list {big}=1\nfeed.list {big}\n")
    lines = done.stderr.splitlines()
    assert f"inbox: feed.list takes no param {'k' * 60}" in done.stderr or any("takes no param" in l for l in lines)
    assert any("expected key=value, not " + "k" * 60 + "… (1000000 characters)" in l for l in lines), lines
    assert all(len(l) < 1000 for l in lines)
    for args, reason in [(["--timeout", "0", "feed.counts"], "the timeout must be above 0 s"),
                         (["--timeout", "forever", "feed.counts"], "the timeout must be a number of seconds"),
                         (["--max-frame-bytes", "-1", "feed.counts"], "--max-frame-bytes must be a number of bytes")]:
        done = run(base_env, echo, *args)
        assert done.returncode == 2 and reason in done.stderr, (args, done.stderr)
