"""clients/shell/inbox against the real server: calls over the contract, the views, the exit statuses."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict

import pytest

from shell_support import INBOX, NOW, REPO_ROOT, SAMPLE_IDS, Runner, stand_in_server
from shell_support import base_env, inbox, server_bin, store, watchdog  # noqa: F401  (fixtures)

PAYLOAD = REPO_ROOT / "clients" / "examples" / "flash-sale-push.json"
CONTRACT = REPO_ROOT / "Schemas" / "openrpc.json"


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr}"
    return done.stdout


def test_the_script_is_shellcheck_clean() -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck, "shellcheck is not installed (script/bootstrap installs it)"
    done = subprocess.run([shellcheck, "-x", str(INBOX), str(INBOX.parent / "views.sh")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_the_readme_gives_the_script_s_line_counts() -> None:
    said = re.search(r"Size: `inbox` (\d+) lines .*?`views.sh` (\d+)", (INBOX.parent / "README.md").read_text(), re.DOTALL)
    assert said, "clients/shell/README.md no longer gives the line counts"
    counts = [len(path.read_text().splitlines()) for path in (INBOX, INBOX.parent / "views.sh")]
    assert [int(said.group(1)), int(said.group(2))] == counts


def test_help_tells_the_syntax_and_the_exit_rule(inbox: Runner) -> None:
    text = ok(inbox("help"))
    assert "usage: inbox [options] METHOD [JSON | key=value ...]" in text
    assert "100 + (-32000 - C)" in text and "3 the server failed" in text
    assert inbox().returncode == 2


def test_methods_come_from_the_server_s_contract(inbox: Runner) -> None:
    contract = json.loads(CONTRACT.read_text())
    listed = [line.split("(")[0] for line in ok(inbox("methods")).splitlines()]
    callable_ = [m["name"] for m in contract["methods"] if m.get("x-direction") != "server-to-host"]
    assert listed == callable_
    assert "feed.changed" not in listed  # a notification the server sends is no method to call
    assert any(line.startswith("message.tap(id*, performDefault)") for line in ok(inbox("methods")).splitlines())


def test_errors_lists_every_named_error_with_the_status_of_the_rule(inbox: Runner) -> None:
    rows = [line.split("\t") for line in ok(inbox("--contract", str(CONTRACT), "errors")).splitlines()]
    named = json.loads(CONTRACT.read_text())["components"]["errors"]
    assert [row[0] for row in rows] == list(named)
    statuses = {row[0]: int(row[2].split()[1]) for row in rows}
    for name, error in named.items():
        assert statuses[name] == exit_rule(error["code"]), name
    assert statuses["MessageNotFound"] == 101 and statuses["InvalidParams"] == 202
    distinct = [status for status in statuses.values() if status != 1]
    assert len(distinct) == len(set(distinct)), "two named errors share an exit status"


def exit_rule(code: int) -> int:
    """The documented rule, written out again here to check the script against it."""
    if -32099 <= code <= -32000:
        return 100 + (-32000 - code)
    if -32655 <= code <= -32600:
        return 200 + (-32600 - code)
    return 1


# MARK: - Views


def test_feed_list_prints_one_line_per_card_then_the_counts(inbox: Runner) -> None:
    done = inbox("feed.list")
    lines = ok(done).splitlines()
    assert done.stderr == ""  # the server's warnings stay in its log unless -v
    cards = [line for line in lines if line.startswith("u")]
    assert [line[3:].split()[0] for line in cards] == SAMPLE_IDS
    assert lines[0].startswith("up welcome              classic   ")
    assert lines[0].endswith("  Welcome to your inbox")
    assert lines[1] == "     (0) Mark read -> markRead  (1) Dismiss -> dismiss  (2) Docs -> openURL https://docs.pushwoosh.com/"
    assert "     shown as classic, not wallet: the host cannot add wallet passes" in "\n".join(lines)
    assert lines[-1] == "this page: 10 (u unread, p pinned); 10 messages: 10 unread, 10 not opened, 1 pinned"


def test_feed_list_pages_with_the_cursor_it_prints(inbox: Runner) -> None:
    first = ok(inbox("feed.list", "limit=4")).splitlines()
    assert first[-1].startswith("next page: inbox feed.list cursor=")
    cursor_word = first[-1].split()[-1]
    second = json.loads(ok(inbox("--json", "feed.list", "limit=4", cursor_word)))
    assert [card["id"] for card in second["items"]] == SAMPLE_IDS[4:8]


def test_a_tab_is_listed_counted_marked_read_and_cleared_with_its_filter_named(inbox: Runner) -> None:
    captioned = 'customData={"displayType":"captioned"}'
    lines = ok(inbox("feed.list", captioned)).splitlines()
    assert [line[3:].split()[0] for line in lines if line.startswith("u")] == ["summer-sale"]
    assert lines[-1] == ('this page: 1 (u unread, p pinned); in the tab {"displayType":"captioned"}: '
                         "1 messages: 1 unread, 1 not opened, 0 pinned")
    assert ok(inbox("feed.markAllRead", captioned)) == 'in the tab {"displayType":"captioned"}: newly read: 1\n'
    assert ok(inbox("feed.counts")) == "10 messages: 9 unread, 10 not opened, 1 pinned\n"
    assert ok(inbox("feed.dismissRead")) == "dismissed 1 read messages, pinned or not\n"
    assert ok(inbox("feed.dismissAll", 'customData={"campaign":"q4"}')) == (
        'in the tab {"campaign":"q4"}: dismissed 1 messages\n')
    assert ok(inbox("feed.counts")) == "8 messages: 8 unread, 8 not opened, 1 pinned\n"


def test_key_value_words_are_typed_by_the_param_schema(inbox: Runner) -> None:
    videos = json.loads(ok(inbox("--json", "feed.list", 'kinds=["video","carousel"]', "unreadOnly=true")))
    assert [card["id"] for card in videos["items"]] == ["new-arrivals", "the-reveal"]
    # ids are strings in the contract: a numeric-looking id stays a string (and is not found)
    done = inbox("message.get", "id=123")
    assert done.returncode == 101 and '{"id":"123"}' in done.stderr
    assert json.loads(ok(inbox("--json", "message.markRead", 'ids=["welcome","nope"]'))) == {"changed": 1, "unchanged": ["nope"]}


def test_params_may_be_one_json_object(inbox: Runner) -> None:
    page = json.loads(ok(inbox("--json", "feed.list", '{"limit": 2}')))
    assert [card["id"] for card in page["items"]] == SAMPLE_IDS[:2]
    assert inbox("feed.list", "{not json").returncode == 2


def test_a_method_without_a_view_prints_its_result_as_json(inbox: Runner) -> None:
    assert json.loads(ok(inbox("rpc.ping"))) == "pong"
    assert "attributes" in json.loads(ok(inbox("config.get")))


def test_tap_marks_read_and_opened_and_prints_the_row_action(inbox: Runner) -> None:
    assert ok(inbox("message.tap", "id=plain-note", "performDefault=false")).splitlines()[0].endswith("is now unread")
    assert ok(inbox("message.tap", "id=plain-note")).splitlines() == [
        "plain-note (Your order shipped) is now read, opened",
        "the host opens: deeplink myapp://orders/1234",
    ]
    assert json.loads(ok(inbox("--json", "feed.counts"))) == {"total": 10, "unread": 9, "unactioned": 9, "pinned": 1, "unseen": 9}


@pytest.mark.parametrize(
    "card_id, button, expected",
    [
        ("summer-sale", "0", ["button action: openURL https://example.com/promo/SUMMER2026, for the host to carry out"]),
        ("summer-sale", "1", ['button action: custom {"tag":"save_promo"}, for the host to carry out']),
        ("welcome", "0", ["button action: markRead, carried out by the server"]),
        ("welcome", "1", ["button action: dismiss, carried out by the server", "welcome is no longer in the feed"]),
    ],
)
def test_button_tap_prints_the_action_and_who_carries_it_out(inbox: Runner, card_id: str, button: str, expected: list) -> None:
    assert ok(inbox("button.tap", f"id={card_id}", f"button={button}")).splitlines() == expected


def test_a_dismissal_is_kept_by_every_later_server(inbox: Runner) -> None:
    assert ok(inbox("message.dismiss", "id=hero-banner")) == "hero-banner dismissed\n"
    assert ok(inbox("message.dismiss", "id=hero-banner")) == "hero-banner had been dismissed before\n"
    assert "hero-banner" not in ok(inbox("feed.list"))
    assert ok(inbox("feed.counts")) == "9 messages: 9 unread, 9 not opened, 1 pinned\n"
    assert inbox("message.get", "id=hero-banner").returncode == 101


def test_get_and_slide_tap_show_a_card_and_its_slides(inbox: Runner) -> None:
    card = ok(inbox("message.get", "id=new-arrivals")).splitlines()
    assert card[0] == "card new-arrivals, kind carousel"
    assert "  slide 0   New in, https://cdn.example.com/inbox/1.jpg" in card
    assert ok(inbox("slide.tap", "id=new-arrivals", "slide=1")) == (
        "the slide opens: deeplink myapp://product/2\nnew-arrivals is now read\n"
    )


def test_seen_and_video_views(inbox: Runner) -> None:
    assert ok(inbox("feed.seen", 'appeared=["summer-sale"]', 'disappeared=["summer-sale","nope"]')) == (
        "newly read: summer-sale\nnot in the feed: nope\n"
    )
    assert ok(inbox("video.play", "id=the-reveal")) == (
        "the host plays: https://cdn.example.com/inbox/clip.mp4 (poster https://cdn.example.com/inbox/poster.jpg)\n"
        "the-reveal is now read\n"
    )
    failed = inbox("video.play", "id=summer-sale")
    assert failed.returncode != 0 and "NotAVideoCard (-32002)" in failed.stderr, failed.stderr


def test_wallet_views(inbox: Runner) -> None:
    """The sample feed's pass, from the contract examples' pass host (a local https server behind a
    CONNECT proxy, with a throwaway CA), then the Wallet sheet's outcome."""
    sys.path.insert(0, str(REPO_ROOT / "Schemas"))
    import record_examples

    with record_examples.example_backend() as setup:
        flags = f"--sample-feed --test-clock {NOW} --backend-ca-file {setup.ca_file} --pass-dir {setup.pass_dir}"
        env = {"INBOX_RPC_FLAGS": flags, "https_proxy": setup.proxy_url}
        refused = inbox("wallet.download", "id=loyalty-card", **env)
        assert refused.returncode != 0 and "NotAWalletCard (-32003)" in refused.stderr, refused.stderr
        ok(inbox("config.set", 'attributes={"walletPasses": true}', **env))  # a host that can add passes
        lines = ok(inbox("wallet.download", "id=loyalty-card", **env)).splitlines()
    digest = hashlib.sha256(record_examples.pass_server.make_pass()).hexdigest()
    assert lines == [
        f"the pass is at {setup.pass_dir}/{digest}.pkpass ({len(record_examples.pass_server.make_pass())} bytes, sha256 {digest})",
        f"from {record_examples.PASS_URL}; loyalty-card is now read",
    ]
    assert ok(inbox("wallet.report", "id=loyalty-card", "outcome=failed", "reason=no room\nin the Wallet")) == (
        "loyalty-card: the pass was not added (no room\\nin the Wallet)\nloyalty-card is now read\n"
    )


def test_a_file_param_reads_a_file_or_stdin(inbox: Runner) -> None:
    from_file = ok(inbox("message.resolve", f"payload=@{PAYLOAD}")).splitlines()
    assert from_file[0] == "card flash-sale-42, kind captioned"
    assert "  on tap    openURL https://example.com/sale" in from_file
    assert "  button 1  Not now -> dismiss" in from_file
    from_stdin = ok(inbox("message.resolve", "payload=@-", input=PAYLOAD.read_text())).splitlines()
    assert from_stdin[:5] == from_file[:5]
    assert inbox("message.get", "id=flash-sale-42").returncode == 101
    assert inbox("message.resolve", "payload=@/no/such/file.json").returncode == 2


def test_ingest_adds_the_message_to_the_feed(inbox: Runner) -> None:
    assert ok(inbox("message.ingest", f"payload=@{PAYLOAD}")).splitlines()[:2] == [
        "added to the store:",
        "card flash-sale-42, kind captioned",
    ]
    assert ok(inbox("feed.counts")).startswith("11 messages:")


def test_payload_text_shows_its_control_characters_escaped(inbox: Runner, tmp_path: Path) -> None:
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps({"inbox_id": "x", "text": "hi\u001b[2J\nbutton 0 fake\u202e", "order": "1"}))
    shown = ok(inbox("message.resolve", f"payload=@{hostile}"))
    assert "\x1b" not in shown and "\u202e" not in shown
    assert "hi\\u001b[2J\\nbutton 0 fake\\u202e" in shown
    refused = inbox("message.get", "id=a\u202eb\u001b")
    assert refused.returncode == 101 and "\u202e" not in refused.stderr and "\x1b" not in refused.stderr
    assert '{"id":"a\\u202eb\\u001b"}' in refused.stderr


def test_sync_failures_exit_with_the_status_of_their_code(inbox: Runner) -> None:
    """No backend configured (-32033), then one that refuses connections (-32030)."""
    done = inbox("feed.sync")
    assert done.returncode == 133 and "BackendNotConfigured (-32033)" in done.stderr
    unreachable = "--sample-feed --application APP-12345 --backend-url http://127.0.0.1:9/json/1.3/"
    done = inbox("feed.sync", INBOX_RPC_FLAGS=unreachable)
    assert done.returncode == 130 and "BackendUnavailable (-32030)" in done.stderr


def test_sync_prints_progress_on_stderr_and_the_report_on_stdout(base_env: Dict[str, str], tmp_path: Path) -> None:
    """The client side of feed.sync, against a stand-in server that reports progress and writes
    its members in an order of its own (id before jsonrpc, method last)."""
    fake = stand_in_server(
        tmp_path,
        "syncing-server",
        f"""
            import json, sys
            contract = json.load(open({str(CONTRACT)!r}))
            for line in sys.stdin:
                request = json.loads(line)
                if request["method"] == "rpc.discover":
                    print(json.dumps({{"id": request["id"], "result": contract, "jsonrpc": "2.0"}}))
                    sys.stdout.flush()
                    continue
                for done in (1, 2):
                    note = {{"params": {{"stage": "fetch", "done": done, "total": 2}}, "jsonrpc": "2.0", "method": "sync.progress"}}
                    print(json.dumps(note))
                print(json.dumps({{"params": {{"level": "warn"}}, "jsonrpc": "2.0", "method": "log"}}))
                report = {{"added": 2, "updated": 1, "removed": 0, "expired": 0, "pushed": 3, "pending": 1, "failed": 0, "throttled": False}}
                print(json.dumps({{"result": report, "id": request["id"], "jsonrpc": "2.0"}}))
                sys.stdout.flush()
            """,
    )
    done = subprocess.run(
        [str(INBOX), "feed.sync"], env={**base_env, "INBOX_RPC_BIN": str(fake)}, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "from the backend: 2 new, 1 changed, 0 gone, 0 expired\nto the backend: 3 sent, 1 waiting, 0 failed\n"
    assert done.stderr == "sync: fetch 1 of 2\nsync: fetch 2 of 2\n"


# MARK: - Errors and exit statuses


@pytest.mark.parametrize(
    "args, status, stderr",
    [
        (("message.tap", "id=nope"), 101, 'inbox: MessageNotFound (-32001): Message not found: {"id":"nope"}\n'),
        (
            ("button.tap", "id=summer-sale", "button=2"),
            202,
            "inbox: InvalidParams (-32602): Invalid params: button: no button 2: the card has 2 (indexes start at 0)\n",
        ),
        (("feed.list", "kinds=[\"poster\"]"), 202, None),
        (("feed.frobnicate",), 2, "inbox: unknown method feed.frobnicate (inbox methods lists them)\nRun 'inbox help' for usage.\n"),
        (("feed.list", "lim=2"), 2, None),
        (("message.tap",), 2, None),
        (("message.tap", "plain-note"), 2, None),
        (("message.resolve", "payload=@/no/such/file.json"), 2, None),
    ],
)
def test_errors_map_to_exit_statuses(inbox: Runner, args: tuple, status: int, stderr: str) -> None:
    done = inbox(*args)
    assert done.returncode == status, done.stderr
    assert done.stdout == ""
    if stderr is not None:
        assert done.stderr == stderr


def test_a_payload_that_is_no_inbox_message_exits_110(inbox: Runner, tmp_path: Path) -> None:
    plain = tmp_path / "plain-push.json"
    plain.write_text('{"aps": {"alert": "no inbox fields"}}')
    done = inbox("message.resolve", f"payload=@{plain}")
    assert done.returncode == 110 and "NotAnInboxMessage (-32010)" in done.stderr
    not_json = tmp_path / "broken.json"
    not_json.write_text("{")
    assert inbox("message.resolve", f"payload=@{not_json}").returncode == 2


def test_json_mode_prints_the_error_object_on_stderr(inbox: Runner) -> None:
    done = inbox("--json", "message.get", "id=nope")
    assert done.returncode == 101 and done.stdout == ""
    assert json.loads(done.stderr) == {"code": -32001, "message": "Message not found", "data": {"id": "nope"}}


# MARK: - Sessions


def test_a_session_keeps_one_server_for_many_calls(inbox: Runner) -> None:
    calls = (
        "feed.counts\n# comments and blank lines are skipped\n\nmessage.tap id=plain-note\n"
        "message.dismiss id=welcome\nfeed.counts\nquit\nfeed.counts\n"
    )
    done = inbox("session", input=calls)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "10 messages: 10 unread, 10 not opened, 1 pinned",
        "plain-note (Your order shipped) is now read, opened",
        "the host opens: deeplink myapp://orders/1234",
        "welcome dismissed",
        "9 messages: 8 unread, 8 not opened, 0 pinned",
    ]


def test_a_failed_call_does_not_end_the_session_but_sets_its_status(inbox: Runner) -> None:
    done = inbox("session", input="message.tap id=nope\nfeed.counts\n")
    assert done.returncode == 101
    assert done.stdout == "10 messages: 10 unread, 10 not opened, 1 pinned\n"
    assert "MessageNotFound" in done.stderr


def test_a_session_refuses_to_read_a_payload_from_its_own_stdin(inbox: Runner) -> None:
    done = inbox("session", input="message.resolve payload=@-\nfeed.counts\n")
    assert done.returncode == 2 and "give a FILE" in done.stderr
    assert done.stdout == "10 messages: 10 unread, 10 not opened, 1 pinned\n"


def test_a_timeout_that_is_no_number_is_a_usage_error(inbox: Runner) -> None:
    done = inbox("--timeout", "soon", "feed.counts")
    assert done.returncode == 2 and "not soon" in done.stderr


# MARK: - The server failing


def test_a_missing_binary_exits_3(inbox: Runner) -> None:
    done = inbox("feed.counts", INBOX_RPC_BIN="/no/such/inbox-rpc")
    assert done.returncode == 3 and "inbox-rpc not found at /no/such/inbox-rpc" in done.stderr


def test_a_store_that_cannot_open_exits_3_with_the_server_s_reason(inbox: Runner, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = inbox("--store", str(blocker / "inbox.sqlite"), "feed.counts")
    assert done.returncode == 3
    assert "exited with status 3" in done.stderr and "cannot open the store" in done.stderr


def test_a_server_killed_mid_call_exits_3_at_once(base_env: Dict[str, str], tmp_path: Path, server_bin: str) -> None:
    pid_file = tmp_path / "server.pid"
    wrapper = tmp_path / "inbox-rpc"
    wrapper.write_text(f'#!/bin/sh\necho $$ > "{pid_file}"\nexec "{server_bin}" "$@"\n')
    wrapper.chmod(0o755)
    # test.sleep is served with --test-methods but is not in the contract: give the client a copy with it.
    contract = json.loads(CONTRACT.read_text())
    contract["methods"].append({"name": "test.sleep", "params": [{"name": "ms", "schema": {"type": "integer"}}]})
    (tmp_path / "contract.json").write_text(json.dumps(contract))
    process = subprocess.Popen(
        [str(INBOX), "--contract", str(tmp_path / "contract.json"), "--server-flag", "--test-methods", "test.sleep", "ms=20000"],
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
    # The request sleeps 20 s; the client's answer names the kill, so it did not wait for the sleep.
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 3
    assert "inbox-rpc exited with status 137 before replying" in stderr


def test_a_silent_server_times_out_and_exits_3(inbox: Runner, tmp_path: Path) -> None:
    silent = tmp_path / "silent-server"
    silent.write_text("#!/bin/sh\nexec sleep 600\n")
    silent.chmod(0o755)
    # The stand-in sleeps past the runner's hang deadline: only the client's own timeout ends the call.
    done = inbox("feed.counts", INBOX_RPC_BIN=str(silent), INBOX_TIMEOUT="0.5")
    assert done.returncode == 3 and "no reply from inbox-rpc within 0.5 s" in done.stderr


def test_a_server_that_closes_its_output_but_lingers_is_killed(inbox: Runner, tmp_path: Path) -> None:
    lingering = tmp_path / "lingering-server"
    lingering.write_text("#!/bin/sh\nexec >&-\nexec sleep 600\n")
    lingering.chmod(0o755)
    # It sleeps past the runner's hang deadline: only the client's kill ends the call.
    done = inbox("feed.counts", INBOX_RPC_BIN=str(lingering))
    assert done.returncode == 3 and "exited with status 137 before replying" in done.stderr


def test_a_server_dying_in_a_session_ends_it_with_3(inbox: Runner, tmp_path: Path, server_bin: str) -> None:
    dying = tmp_path / "dying-server"
    dying.write_text(f'#!/bin/sh\nfor n in 1 2; do IFS= read -r line; printf "%s\\n" "$line"; done | "{server_bin}" --store :memory:\necho "dying now" >&2\nexit 7\n')
    dying.chmod(0o755)
    done = inbox("session", input="feed.counts\nfeed.counts\nfeed.counts\n", INBOX_RPC_BIN=str(dying))
    assert done.returncode == 3
    assert done.stdout == "0 messages: 0 unread, 0 not opened, 0 pinned\n"  # its rpc.discover, then one call
    assert "exited with status 7" in done.stderr and "dying now" in done.stderr


def test_options_win_over_the_environment_and_verbose_shows_the_log(inbox: Runner, tmp_path: Path) -> None:
    other = str(tmp_path / "other.sqlite")
    assert ok(inbox("--store", other, "--json", "feed.counts")).count('"total": 10') == 1
    ok(inbox("--store", other, "message.dismiss", "id=welcome"))
    assert ok(inbox("feed.counts")).startswith("10 messages:")  # INBOX_STORE's store is untouched
    verbose = inbox("-v", "feed.list")
    assert 'notification: {"jsonrpc":"2.0","method":"log"' in verbose.stderr
    assert "inbox-rpc warn: message loyalty-card [degraded]" in verbose.stderr
