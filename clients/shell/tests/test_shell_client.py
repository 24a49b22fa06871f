"""clients/shell/inbox against the real server: every command, its output, its exit codes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Dict

import pytest

from shell_support import INBOX, REPO_ROOT, SAMPLE_IDS, Runner, stand_in_server
from shell_support import base_env, inbox, server_bin, store, watchdog  # noqa: F401  (fixtures)

PAYLOAD = REPO_ROOT / "clients" / "examples" / "flash-sale-push.json"


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    return done.stdout


def test_the_script_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is not installed (script/bootstrap installs it)"
    done = subprocess.run([shellcheck, str(INBOX)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_help_lists_the_commands_and_the_exit_codes(inbox: Runner) -> None:
    text = ok(inbox("help"))
    for word in ("feed", "tap ID", "button ID N", "dismiss ID", "sync", "resolve FILE", "counts", "session"):
        assert word in text
    assert "3 message not found" in text and "10 the server failed" in text
    assert inbox().returncode == 2
    unknown = inbox("frobnicate")
    assert unknown.returncode == 2 and "unknown command: frobnicate" in unknown.stderr


# MARK: - Commands


def test_feed_prints_one_line_per_card_then_the_counts(inbox: Runner) -> None:
    done = inbox("feed")
    lines = ok(done).splitlines()
    assert done.stderr == ""  # the server's warnings stay in its log unless -v
    cards = [line for line in lines if line.startswith("*")]
    assert [line[3:].split()[0] for line in cards] == SAMPLE_IDS
    assert lines[0].startswith("*P welcome              classic   ")
    assert lines[0].endswith("  Welcome to your inbox")
    assert lines[1] == "     [0] Mark read: markRead  [1] Dismiss: dismiss  [2] Docs: openURL https://docs.pushwoosh.com/"
    assert "     degraded from wallet: the host cannot add wallet passes" in "\n".join(lines)
    assert lines[-1] == "10 shown (* unread, P pinned); total 10, unread 10, unactioned 10, pinned 1"


def test_feed_pages_with_the_cursor_it_prints(inbox: Runner) -> None:
    first = ok(inbox("feed", "--limit", "4")).splitlines()
    assert first[-1].startswith("more: inbox feed --cursor ")
    cursor = first[-1].split()[-1]
    second = json.loads(ok(inbox("--json", "feed", "--limit", "4", "--cursor", cursor)))
    assert [card["id"] for card in second["items"]] == SAMPLE_IDS[4:8]


def test_feed_json_is_the_raw_result_and_filters_apply(inbox: Runner) -> None:
    page = json.loads(ok(inbox("--json", "feed")))
    assert [card["id"] for card in page["items"]] == SAMPLE_IDS
    videos = json.loads(ok(inbox("--json", "feed", "--kind", "video", "--kind", "carousel")))
    assert [card["id"] for card in videos["items"]] == ["new-arrivals", "the-reveal"]
    ok(inbox("read", "welcome"))
    unread = json.loads(ok(inbox("--json", "feed", "--unread")))
    assert "welcome" not in [card["id"] for card in unread["items"]]


def test_tap_marks_read_and_opened_and_prints_the_row_action(inbox: Runner) -> None:
    assert ok(inbox("tap", "plain-note", "--no-default")).splitlines()[-1] == "state: unread"
    assert ok(inbox("tap", "plain-note")).splitlines() == [
        "tapped plain-note: Your order shipped",
        "action: deeplink myapp://orders/1234",
        "state: read, opened",
    ]
    assert json.loads(ok(inbox("--json", "counts"))) == {"total": 10, "unread": 9, "unactioned": 9, "pinned": 1}


@pytest.mark.parametrize(
    "card_id, button, expected",
    [
        ("summer-sale", "0", ["action: openURL https://example.com/promo/SUMMER2026", "performed: no (the host acts on it)"]),
        ("summer-sale", "1", ['action: custom {"tag":"save_promo"}', "performed: no (the host acts on it)"]),
        ("welcome", "0", ["action: markRead", "performed: yes"]),
        ("welcome", "1", ["action: dismiss", "performed: yes", "the message left the feed"]),
    ],
)
def test_button_prints_the_action_and_whether_the_server_performed_it(
    inbox: Runner, card_id: str, button: str, expected: list
) -> None:
    assert ok(inbox("button", card_id, button)).splitlines() == expected


def test_a_dismissal_is_kept_by_every_later_server(inbox: Runner) -> None:
    assert ok(inbox("dismiss", "hero-banner")) == "dismissed hero-banner\n"
    assert ok(inbox("dismiss", "hero-banner")) == "hero-banner was already dismissed\n"
    assert "hero-banner" not in ok(inbox("feed"))
    assert ok(inbox("counts")) == "total 9, unread 9, unactioned 9, pinned 1\n"
    assert inbox("get", "hero-banner").returncode == 3


def test_get_and_slide_show_a_card_and_its_slides(inbox: Runner) -> None:
    card = ok(inbox("get", "new-arrivals")).splitlines()
    assert card[0] == "new-arrivals  carousel"
    assert "slide 0: New in https://cdn.example.com/inbox/1.jpg" in card
    assert ok(inbox("slide", "new-arrivals", "1")) == "action: deeplink myapp://product/2\n"


def test_resolve_reads_a_file_or_stdin_and_stores_nothing(inbox: Runner) -> None:
    from_file = ok(inbox("resolve", str(PAYLOAD))).splitlines()
    assert from_file[0] == "flash-sale-42  captioned"
    assert "row action: openURL https://example.com/sale" in from_file
    assert "button 1: Not now: dismiss" in from_file
    from_stdin = ok(inbox("resolve", "-", input=PAYLOAD.read_text())).splitlines()
    assert from_stdin[:5] == from_file[:5]
    assert inbox("get", "flash-sale-42").returncode == 3


def test_ingest_adds_the_message_to_the_feed(inbox: Runner) -> None:
    assert ok(inbox("ingest", str(PAYLOAD))).splitlines()[0] == "added: flash-sale-42"
    assert ok(inbox("counts")).startswith("total 11,")


def test_call_sends_any_method_and_prints_json(inbox: Runner) -> None:
    assert json.loads(ok(inbox("call", "rpc.ping"))) == "pong"
    page = json.loads(ok(inbox("call", "feed.list", '{"limit": 2}')))
    assert [card["id"] for card in page["items"]] == SAMPLE_IDS[:2]
    assert inbox("call", "feed.list", "[not json").returncode == 2


def test_sync_failures_exit_7(inbox: Runner) -> None:
    """No backend configured, then one that refuses connections: both exit 7 with the code said."""
    done = inbox("sync")
    assert done.returncode == 7 and "(-32033)" in done.stderr
    unreachable = "--sample-feed --application APP-12345 --backend-url http://127.0.0.1:9/json/1.3/"
    done = inbox("sync", INBOX_RPC_FLAGS=unreachable)
    assert done.returncode == 7 and "(-32030)" in done.stderr


def test_sync_prints_progress_on_stderr_and_the_report_on_stdout(base_env: Dict[str, str], tmp_path: Path) -> None:
    """The client side of feed.sync, against a stand-in server that reports progress."""
    fake = stand_in_server(
        tmp_path,
        "syncing-server",
            """
            import json, sys
            for line in sys.stdin:
                request = json.loads(line)
                for done in (1, 2):
                    note = {"jsonrpc": "2.0", "method": "sync.progress", "params": {"stage": "fetch", "done": done, "total": 2}}
                    print(json.dumps(note, separators=(",", ":")))
                report = {"added": 2, "updated": 1, "removed": 0, "expired": 0, "pushed": 3, "pending": 1, "failed": 0, "throttled": False}
                print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": report}))
                sys.stdout.flush()
            """,
    )
    done = subprocess.run(
        [str(INBOX), "sync"], env={**base_env, "INBOX_RPC_BIN": str(fake)}, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "synced: added 2, updated 1, removed 0, expired 0, pushed 3, pending 1\n"
    assert done.stderr == "sync: fetch 1/2\nsync: fetch 2/2\n"


# MARK: - Errors and exit codes


@pytest.mark.parametrize(
    "args, status, stderr",
    [
        (("tap", "nope"), 3, 'inbox: Message not found (-32001): {"id":"nope"}\n'),
        (("dismiss", "nope"), 3, 'inbox: Message not found (-32001): {"id":"nope"}\n'),
        (
            ("button", "summer-sale", "2"),
            4,
            "inbox: Invalid params: button: no button 2: the card has 2 (indexes start at 0) (-32602)\n",
        ),
        (("feed", "--kind", "poster"), 4, None),
        (("call", "feed.frobnicate"), 6, 'inbox: Method not found (-32601): {"method":"feed.frobnicate"}\n'),
        (("button", "summer-sale", "x"), 2, None),
        (("tap",), 2, None),
        (("resolve", "/no/such/file.json"), 2, None),
    ],
)
def test_errors_map_to_exit_codes(inbox: Runner, args: tuple, status: int, stderr: str) -> None:
    done = inbox(*args)
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    if stderr is not None:
        assert done.stderr == stderr


def test_a_payload_that_is_no_inbox_message_exits_5(inbox: Runner, tmp_path: Path) -> None:
    plain = tmp_path / "plain-push.json"
    plain.write_text('{"aps": {"alert": "no inbox fields"}}')
    done = inbox("resolve", str(plain))
    assert done.returncode == 5 and "Not an inbox message (-32010)" in done.stderr
    not_json = tmp_path / "broken.json"
    not_json.write_text("{")
    assert inbox("resolve", str(not_json)).returncode == 2


def test_json_mode_prints_the_error_object_on_stderr(inbox: Runner) -> None:
    done = inbox("--json", "get", "nope")
    assert done.returncode == 3 and done.stdout == ""
    assert json.loads(done.stderr) == {"code": -32001, "message": "Message not found", "data": {"id": "nope"}}


# MARK: - Sessions


def test_a_session_keeps_one_server_for_many_commands(inbox: Runner) -> None:
    commands = "counts\n# comments and blank lines are skipped\n\ntap plain-note\ndismiss welcome\ncounts\nquit\ncounts\n"
    done = inbox("session", input=commands)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "total 10, unread 10, unactioned 10, pinned 1",
        "tapped plain-note: Your order shipped",
        "action: deeplink myapp://orders/1234",
        "state: read, opened",
        "dismissed welcome",
        "total 9, unread 8, unactioned 8, pinned 0",
    ]


def test_a_failed_command_does_not_end_the_session_but_sets_its_status(inbox: Runner) -> None:
    done = inbox("session", input="tap nope\ncounts\n")
    assert done.returncode == 3
    assert done.stdout == "total 10, unread 10, unactioned 10, pinned 1\n"
    assert "Message not found" in done.stderr


def test_a_session_refuses_to_read_a_payload_from_its_own_stdin(inbox: Runner) -> None:
    done = inbox("session", input="resolve -\ncounts\n")
    assert done.returncode == 2 and "give a FILE" in done.stderr
    assert done.stdout == "total 10, unread 10, unactioned 10, pinned 1\n"


def test_a_timeout_that_is_no_number_is_a_usage_error(inbox: Runner) -> None:
    done = inbox("--timeout", "soon", "counts")
    assert done.returncode == 2 and "not soon" in done.stderr


# MARK: - The server failing


def test_a_missing_binary_exits_10(inbox: Runner) -> None:
    done = inbox("counts", INBOX_RPC_BIN="/no/such/inbox-rpc")
    assert done.returncode == 10 and "inbox-rpc not found at /no/such/inbox-rpc" in done.stderr


def test_a_store_that_cannot_open_exits_10_with_the_server_s_reason(inbox: Runner, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = inbox("--store", str(blocker / "inbox.sqlite"), "counts")
    assert done.returncode == 10
    assert "exited with status 3" in done.stderr and "cannot open the store" in done.stderr


def test_a_server_killed_mid_call_exits_10_at_once(base_env: Dict[str, str], tmp_path: Path, server_bin: str) -> None:
    pid_file = tmp_path / "server.pid"
    wrapper = tmp_path / "inbox-rpc"
    wrapper.write_text(f'#!/bin/sh\necho $$ > "{pid_file}"\nexec "{server_bin}" "$@"\n')
    wrapper.chmod(0o755)
    process = subprocess.Popen(
        [str(INBOX), "--server-flag", "--test-methods", "call", "test.sleep", '{"ms": 20000}'],
        env={**base_env, "INBOX_RPC_BIN": str(wrapper), "INBOX_STORE": str(tmp_path / "inbox.sqlite")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 5
    while not (pid_file.exists() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)  # the request is in
    os.kill(int(pid_file.read_text()), signal.SIGKILL)
    started = time.monotonic()
    _, stderr = process.communicate(timeout=10)
    assert time.monotonic() - started < 3
    assert process.returncode == 10
    assert "inbox-rpc exited with status 137 before replying" in stderr


def test_a_silent_server_times_out_and_exits_10(inbox: Runner, tmp_path: Path) -> None:
    silent = tmp_path / "silent-server"
    silent.write_text("#!/bin/sh\nexec sleep 30\n")
    silent.chmod(0o755)
    started = time.monotonic()
    done = inbox("counts", INBOX_RPC_BIN=str(silent), INBOX_TIMEOUT="0.5")
    assert time.monotonic() - started < 5
    assert done.returncode == 10 and "no reply from inbox-rpc within 0.5 s" in done.stderr


def test_a_server_that_closes_its_output_but_lingers_is_killed(inbox: Runner, tmp_path: Path) -> None:
    lingering = tmp_path / "lingering-server"
    lingering.write_text("#!/bin/sh\nexec >&-\nexec sleep 30\n")
    lingering.chmod(0o755)
    started = time.monotonic()
    done = inbox("counts", INBOX_RPC_BIN=str(lingering))
    assert time.monotonic() - started < 5
    assert done.returncode == 10 and "exited with status 137 before replying" in done.stderr


def test_a_server_dying_in_a_session_ends_it_with_10(inbox: Runner, tmp_path: Path, server_bin: str) -> None:
    dying = tmp_path / "dying-server"
    dying.write_text(f'#!/bin/sh\nhead -n 1 | "{server_bin}" --store :memory:\necho "dying now" >&2\nexit 7\n')
    dying.chmod(0o755)
    done = inbox("session", input="counts\ncounts\ncounts\n", INBOX_RPC_BIN=str(dying))
    assert done.returncode == 10
    assert done.stdout == "total 0, unread 0, unactioned 0, pinned 0\n"
    assert "exited with status 7" in done.stderr and "dying now" in done.stderr


def test_options_win_over_the_environment_and_verbose_shows_the_log(inbox: Runner, tmp_path: Path) -> None:
    other = str(tmp_path / "other.sqlite")
    assert ok(inbox("--store", other, "--json", "counts")).count('"total": 10') == 1
    ok(inbox("--store", other, "dismiss", "welcome"))
    assert ok(inbox("counts")).startswith("total 10,")  # INBOX_STORE's store is untouched
    verbose = inbox("-v", "feed")
    assert 'notification: {"jsonrpc":"2.0","method":"log"' in verbose.stderr
    assert "inbox-rpc warn: message loyalty-card [degraded]" in verbose.stderr
