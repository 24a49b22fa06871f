"""The connection: framings, notifications, cancellation, timeouts, shutdown, and a server that dies."""

from __future__ import annotations

from python_client_support import inbox, server_bin, stand_in_server, store, watchdog, replies_fit_the_contract  # noqa: F401  (fixtures; first: it finds the package)

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import List

import pytest

from inbox_rpc_client import (
    CallTimeout,
    Client,
    ContractViolation,
    MessageNotFound,
    Notification,
    ProtocolError,
    RequestCancelled,
    ServerExited,
    find_server,
)


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_both_framings_carry_calls_errors_and_notifications(server_bin: str, framing: str) -> None:
    with Client(server_bin, store=":memory:", sample_feed=True, framing=framing) as inbox:  # type: ignore[arg-type]
        assert inbox.ping() == "pong"
        assert len(inbox.feed_list(limit=200)["items"]) == 10
        inbox.button_tap("welcome", 1)
        with pytest.raises(MessageNotFound):
            inbox.message_get("welcome")
        methods = {n.method for n in inbox.take_notifications()}
        assert methods == {"log", "feed.changed"}
    assert inbox.returncode == 0


def test_the_lsp_framing_really_sends_headers(server_bin: str) -> None:
    """The server is forced to LSP framing: an NDJSON client would get no reply at all."""
    with Client(server_bin, store=":memory:", framing="lsp", args=["--framing", "lsp"], timeout=5) as inbox:
        assert inbox.ping() == "pong"


def test_notifications_reach_the_callback_and_the_iterator(server_bin: str) -> None:
    seen: List[Notification] = []
    with Client(server_bin, store=":memory:", sample_feed=True, on_notification=seen.append) as inbox:
        inbox.feed_list()
        inbox.message_dismiss("hero-banner")
        logged = [n for n in inbox.notifications(timeout=0.2) if n.method == "log"]
        assert len(logged) == 6 and all(n.params["level"] == "warn" for n in logged)
    assert Notification("feed.changed", {"reason": "dismissed", "removed": ["hero-banner"]}) in seen
    assert sum(n.method == "log" for n in seen) == 6


def test_a_listener_for_one_method_hears_only_it_until_removed(inbox: Client) -> None:
    changes: List[Notification] = []
    remove = inbox.add_listener(changes.append, "feed.changed")
    inbox.feed_list()
    inbox.message_tap("plain-note")
    remove()
    inbox.message_tap("summer-sale")
    assert changes == [Notification("feed.changed", {"reason": "opened", "updated": ["plain-note"]})]


def test_the_notification_queue_is_bounded(server_bin: str) -> None:
    with Client(server_bin, store=":memory:", sample_feed=True, max_notifications=4) as inbox:
        inbox.feed_list()  # six warnings about the sample feed's cards
        assert [n.method for n in inbox.take_notifications()] == ["log"] * 4
        assert inbox.dropped_notifications == 2


def test_waiting_for_a_reply_inside_a_callback_raises_instead_of_deadlocking(inbox: Client) -> None:
    problems: List[BaseException] = []

    def callback(notification: Notification) -> None:
        try:
            inbox.ping()
        except ProtocolError as error:
            problems.append(error)

    inbox.on_notification = callback
    inbox.message_dismiss("hero-banner")
    assert problems and "notification callback" in str(problems[0])


def test_calls_from_many_threads_each_get_their_own_reply(inbox: Client) -> None:
    failures: List[str] = []

    def worker(n: int) -> None:
        for i in range(20):
            value = f"{n}-{i}"
            if inbox.call("test.echo", value=value) != value:
                failures.append(value)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert failures == []


def test_cancel_makes_a_running_call_raise_request_cancelled(inbox: Client) -> None:
    call = inbox.start("test.sleep", ms=5000)
    time.sleep(0.1)
    call.cancel()
    started = time.monotonic()
    with pytest.raises(RequestCancelled):
        call.result(5)
    assert time.monotonic() - started < 2


def test_a_call_that_times_out_raises_and_is_cancelled_on_the_server(inbox: Client) -> None:
    started = time.monotonic()
    with pytest.raises(CallTimeout) as raised:
        inbox.call("test.sleep", ms=5000, timeout=0.3)
    assert raised.value.method == "test.sleep"
    assert time.monotonic() - started < 3  # the call sleeps 5 s
    assert inbox.ping() == "pong"  # the connection is still good; the late reply is dropped
    assert inbox._pending == {}


def test_a_server_killed_mid_call_raises_server_exited_at_once(inbox: Client) -> None:
    assert inbox.process is not None
    call = inbox.start("test.sleep", ms=20000)
    threading.Timer(0.2, os.kill, (inbox.process.pid, signal.SIGKILL)).start()
    started = time.monotonic()
    with pytest.raises(ServerExited) as raised:
        call.result(15)
    assert time.monotonic() - started < 5
    error = raised.value
    assert error.returncode == -signal.SIGKILL and error.method == "test.sleep"
    assert "inbox-rpc exited with status -9 during test.sleep" in str(error)
    with pytest.raises(ServerExited):
        inbox.ping()  # later calls fail at once too


def test_a_server_that_cannot_start_reports_its_status_and_stderr(server_bin: str, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with Client(server_bin, store=str(blocker / "inbox.sqlite")) as inbox:
        with pytest.raises(ServerExited) as raised:
            inbox.feed_counts()
    assert raised.value.returncode == 3
    assert "cannot open the store" in raised.value.stderr_tail


def test_a_server_flooding_stderr_never_blocks(inbox: Client) -> None:
    assert inbox.call("test.log", count=3000, bytes=300) == {"logged": 3000}
    assert inbox.ping() == "pong"
    deadline = time.monotonic() + 5
    while "line 2999" not in inbox.stderr_tail and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "test.log line 2999" in inbox.stderr_tail


def test_stderr_can_be_copied_to_a_file(server_bin: str, tmp_path: Path) -> None:
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as sink:
        with Client(server_bin, store=":memory:", args=["--test-methods"], stderr=sink) as inbox:
            inbox.call("test.log", count=2)
    assert "test.log line 1" in log_path.read_text()


def test_closing_sends_shutdown_and_exit_and_the_server_exits_0(server_bin: str) -> None:
    inbox = Client(server_bin, store=":memory:")
    assert inbox.close() == 0
    assert inbox.close() == 0  # twice is harmless
    with pytest.raises(ProtocolError):
        inbox.ping()


def test_closing_kills_a_server_that_does_not_exit(tmp_path: Path) -> None:
    stuck = stand_in_server(
        tmp_path, "stuck-server", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)\n"
    )
    inbox = Client(str(stuck), close_timeout=0.5)
    started = time.monotonic()
    assert inbox.close() == -signal.SIGKILL
    assert time.monotonic() - started < 3


def test_closing_after_the_server_died_does_not_hang(inbox: Client) -> None:
    inbox.kill()
    started = time.monotonic()
    inbox.close()
    assert time.monotonic() - started < 3


def test_attach_talks_over_given_streams(server_bin: str) -> None:
    process = subprocess.Popen(
        [server_bin, "--store", ":memory:", "--sample-feed"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    with Client.attach(process.stdout, process.stdin, framing="lsp") as inbox:
        assert inbox.feed_counts()["total"] == 10
        assert inbox.returncode is None
    assert process.wait(5) == 0
    process.stdout.close()


def test_attached_streams_that_end_raise_server_exited(server_bin: str) -> None:
    read_end, write_end = os.pipe()
    os.close(write_end)  # the "server" output ends at once
    sink = open(os.devnull, "wb")
    with Client.attach(os.fdopen(read_end, "rb"), sink) as inbox:
        with pytest.raises(ServerExited) as raised:
            inbox.ping()
        assert raised.value.returncode is None


def test_odd_frames_from_the_server_are_skipped_and_late_errors_are_typed(tmp_path: Path) -> None:
    """A server that writes a non-JSON line, a request and a batch still gets its replies matched."""
    fake = stand_in_server(
        tmp_path,
        "odd-server",
            """
            import json, sys
            for line in sys.stdin:
                request = json.loads(line)
                if "id" not in request:
                    continue
                out = sys.stdout
                out.write("not json\\n")
                out.write(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "host.question"}) + "\\n")
                if request["method"] == "shutdown":
                    out.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": None}) + "\\n")
                elif request["method"] == "bad.error":
                    out.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": {"code": "x"}}) + "\\n")
                else:
                    reply = {"jsonrpc": "2.0", "id": request["id"], "result": request["method"]}
                    out.write(json.dumps([reply]) + "\\n")
                out.flush()
            """,
    )
    with Client(str(fake), timeout=5) as inbox:
        assert inbox.call("any.method") == "any.method"
        with pytest.raises(ProtocolError):
            inbox.call("bad.error")


def test_check_replies_validates_every_result_against_the_servers_document(inbox: Client) -> None:
    contract = inbox.check_replies()
    inbox.feed_list(limit=3)
    inbox.message_get("welcome")
    assert inbox.feed_counts()["total"] == 10
    assert contract.checked == 3


def test_check_replies_raises_for_a_result_that_breaks_the_document(inbox: Client) -> None:
    document = inbox.discover()
    # A document whose counts must be strings: the server's real reply breaks it.
    document["components"]["schemas"]["Counts"]["properties"]["total"] = {"type": "string"}
    inbox.check_replies(document)
    with pytest.raises(ContractViolation, match="feed.counts result breaks its schema"):
        inbox.feed_counts()
    assert inbox.ping() == "pong"  # the connection goes on


def test_sync_progress_reaches_on_progress_during_the_call(tmp_path: Path) -> None:
    """The client side of feed.sync, against a stand-in server that reports progress."""
    report = {"added": 2, "updated": 1, "removed": 0, "expired": 0, "pushed": 3, "pending": 0, "failed": 0, "throttled": False}
    fake = stand_in_server(
        tmp_path,
        "syncing-server",
            f"""
            import json, sys
            for line in sys.stdin:
                request = json.loads(line)
                if "id" not in request:
                    continue
                if request["method"] == "feed.sync":
                    for stage, done in (("push", 3), ("fetch", 1), ("fetch", 2)):
                        note = {{"jsonrpc": "2.0", "method": "sync.progress",
                                 "params": {{"stage": stage, "done": done, "total": 3}}}}
                        print(json.dumps(note))
                    print(json.dumps({{"jsonrpc": "2.0", "id": request["id"], "result": json.loads({json.dumps(json.dumps(report))})}}))
                else:
                    print(json.dumps({{"jsonrpc": "2.0", "id": request["id"], "result": None}}))
                sys.stdout.flush()
            """,
    )
    progress: List[dict] = []
    with Client(str(fake), timeout=5) as inbox:
        assert inbox.feed_sync(on_progress=progress.append) == report
    assert [p["stage"] for p in progress] == ["push", "fetch", "fetch"]
    assert json.dumps(progress[0]) == '{"stage": "push", "done": 3, "total": 3}'


def test_find_server_prefers_the_argument_then_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, server_bin: str
) -> None:
    monkeypatch.setenv("INBOX_RPC_BIN", server_bin)
    assert find_server("/explicit/inbox-rpc") == "/explicit/inbox-rpc"
    assert find_server() == server_bin
    monkeypatch.delenv("INBOX_RPC_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="INBOX_RPC_BIN"):
        find_server()


def test_find_server_takes_the_packaged_server_after_the_environment_before_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, server_bin: str
) -> None:
    # The `inbox-rpc` wheel installs package `inbox_rpc` with the binary beside its __init__.py.
    package = tmp_path / "site" / "inbox_rpc"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "import os\ndef binary():\n    return os.path.join(os.path.dirname(__file__), 'inbox-rpc')\n"
    )
    on_path = tmp_path / "bin"
    on_path.mkdir()
    for directory in (package, on_path):
        (directory / "inbox-rpc").symlink_to(server_bin)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "inbox_rpc", raising=False)
    monkeypatch.setenv("PATH", str(on_path))
    monkeypatch.setenv("INBOX_RPC_BIN", server_bin)
    assert find_server() == server_bin, "INBOX_RPC_BIN still overrides"
    monkeypatch.delenv("INBOX_RPC_BIN")
    assert find_server() == str(package / "inbox-rpc")
    with Client(timeout=10, args=["--store", ":memory:", "--sample-feed"]) as inbox:
        assert inbox.command[0] == str(package / "inbox-rpc")
        assert inbox.feed_counts()["total"] == 10
    (package / "inbox-rpc").unlink()
    assert find_server() == str(on_path / "inbox-rpc"), "a package without its binary is passed over"


def test_from_env_reads_the_store_and_flags_like_the_shell_client(
    monkeypatch: pytest.MonkeyPatch, server_bin: str, store: str
) -> None:
    monkeypatch.setenv("INBOX_RPC_BIN", server_bin)
    monkeypatch.setenv("INBOX_STORE", store)
    monkeypatch.setenv("INBOX_RPC_FLAGS", "--sample-feed --log-level error")
    with Client.from_env() as inbox:
        assert inbox.feed_counts()["total"] == 10
        assert inbox.command[1:] == ["--store", store, "--sample-feed", "--log-level", "error"]
    assert os.path.exists(store)
