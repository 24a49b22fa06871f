"""The connection: framings, notifications, cancellation, timeouts, shutdown, a server that dies,
given streams, and where the server binary is found."""

from __future__ import annotations

from python_client_support import REPO_ROOT, inbox, replies_fit_the_contract, server_bin, stand_in_server, store, watchdog  # noqa: F401  (fixtures; first: it finds the package)

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import List

import pytest

from client_test_fixtures import plant
from inbox_rpc_client import Client, InboxRpcError, Notification, ServerExited, find_server


@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_both_framings_carry_calls_errors_and_notifications(server_bin: str, framing: str) -> None:
    seen: List[Notification] = []
    # --framing forces the server's: a client that wrote the other framing would get no reply.
    args = ["--framing", framing]
    with Client(server_bin, store=":memory:", sample_feed=True, framing=framing, args=args, on_notification=seen.append) as c:
        assert c.rpc.ping() == "pong"
        assert len(c.feed.list(limit=200)["items"]) == 10
        c.button.tap(id="welcome", button=1)
        with pytest.raises(c.errors.MessageNotFound):
            c.message.get(id="welcome")
    assert c.returncode == 0
    assert {n.method for n in seen} == {"log", "feed.changed"}


def test_notifications_reach_callbacks_until_removed(inbox: Client) -> None:
    every: List[Notification] = []
    changes: List[Notification] = []
    inbox.on(None, every.append)
    remove = inbox.on("feed.changed", changes.append)
    inbox.feed.list()
    inbox.message.tap(id="plain-note")
    remove()
    inbox.message.tap(id="summer-sale")
    inbox.rpc.ping()  # the notifications of a request come before its reply
    counts = {"total": 10, "unread": 9, "unactioned": 9, "pinned": 1, "unseen": 9}
    assert changes == [Notification("feed.changed", {"reason": "opened", "updated": ["plain-note"], "counts": counts})]
    assert sum(n.method == "log" for n in every) == 6
    assert [n.params for n in every if n.method == "feed.changed"][-1] == {
        "reason": "opened", "updated": ["summer-sale"], "counts": {**counts, "unread": 8, "unactioned": 8, "unseen": 8}}


def test_a_failing_callback_does_not_stop_the_replies(inbox: Client) -> None:
    inbox.on(None, lambda notification: 1 / 0)
    inbox.message.dismiss(id="hero-banner")
    assert inbox.rpc.ping() == "pong"


def test_waiting_for_a_reply_inside_a_callback_raises_instead_of_deadlocking(inbox: Client) -> None:
    problems: List[BaseException] = []

    def callback(notification: Notification) -> None:
        try:
            inbox.rpc.ping()
        except RuntimeError as error:
            problems.append(error)

    inbox.on("feed.changed", callback)
    inbox.message.dismiss(id="hero-banner")
    inbox.rpc.ping()
    assert problems and "notification callback" in str(problems[0])


def test_reading_the_contract_first_inside_a_callback_raises_instead_of_deadlocking(inbox: Client) -> None:
    problems: List[BaseException] = []

    def callback(notification: Notification) -> None:
        try:
            inbox.errors
        except RuntimeError as error:
            problems.append(error)

    inbox.on("feed.changed", callback)
    inbox.call("message.dismiss", id="hero-banner")  # by name: the contract is not read yet
    assert problems and "contract" in str(problems[0])
    assert inbox.errors.MessageNotFound.name == "MessageNotFound"


def test_calls_from_many_threads_each_get_their_own_reply(inbox: Client) -> None:
    failures: List[str] = []

    def worker(n: int) -> None:
        for i in range(20):
            if inbox.call("test.echo", value=f"{n}-{i}") != f"{n}-{i}":
                failures.append(f"{n}-{i}")

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert failures == []


def test_cancel_sends_cancel_request_and_the_call_raises_request_cancelled(inbox: Client) -> None:
    call = inbox.start("test.sleep", ms=20000)
    other = inbox.start("test.sleep", ms=10)
    assert other.result(10) == {"slept": 10}
    call.cancel()
    with pytest.raises(inbox.errors.RequestCancelled) as raised:
        call.result(10)  # well before the 20 s the call sleeps
    assert raised.value.code == -32800 and raised.value.method == "test.sleep"


def test_a_namespaced_start_can_be_cancelled(inbox: Client, tmp_path: Path) -> None:
    call = inbox.feed.list.start(limit=1)
    assert [c["id"] for c in call.result(10)["items"]] == ["welcome"]
    call.cancel()  # after the reply: nothing to cancel, and nothing breaks
    assert inbox.rpc.ping() == "pong"


def test_a_call_that_times_out_raises_and_is_cancelled_on_the_server(inbox: Client) -> None:
    call = inbox.start("test.sleep", ms=20000)
    with pytest.raises(TimeoutError, match="test.sleep"):
        call.result(0.3)
    # The server was told: its -32800 comes back well before the 20 s the call would sleep, and
    # the connection goes on. Replies may come in any order, so the test waits for that one.
    with pytest.raises(inbox.errors.RequestCancelled):
        call.result(10)
    assert inbox.call("test.sleep", ms=1) == {"slept": 1}
    assert inbox._pending == {}


def test_a_server_killed_mid_call_raises_server_exited_at_once(inbox: Client) -> None:
    assert inbox.process is not None
    call = inbox.start("test.sleep", ms=20000)
    threading.Timer(0.2, os.kill, (inbox.process.pid, signal.SIGKILL)).start()
    with pytest.raises(ServerExited) as raised:
        call.result(15)
    assert raised.value.returncode == -signal.SIGKILL and raised.value.method == "test.sleep"
    assert "inbox-rpc exited with status -9 during test.sleep" in str(raised.value)
    with pytest.raises(ServerExited):
        inbox.rpc.ping()  # later calls fail at once too


def test_a_server_that_cannot_start_reports_its_status_and_stderr(server_bin: str, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with Client(server_bin, store=str(blocker / "inbox.sqlite"), contract={"methods": []}) as client:
        with pytest.raises(ServerExited) as raised:
            client.call("feed.counts")
    assert raised.value.returncode == 3
    assert "cannot open the store" in raised.value.stderr_tail and "cannot open the store" in str(raised.value)


def test_a_server_flooding_stderr_never_blocks_and_its_end_is_kept(inbox: Client) -> None:
    assert inbox.call("test.log", count=3000, bytes=300) == {"logged": 3000}
    assert inbox.rpc.ping() == "pong"
    inbox.close()
    assert "test.log line 2999" in inbox.stderr_tail[-1] and len(inbox.stderr_tail) == 20


def test_stderr_can_go_to_a_file(server_bin: str, tmp_path: Path) -> None:
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as sink:
        with Client(server_bin, store=":memory:", args=["--test-methods"], stderr=sink) as client:
            assert client.call("test.log", count=2) == {"logged": 2}
    assert "test.log line 1" in log_path.read_text()


def test_closing_sends_shutdown_and_exit_and_the_server_exits_0(server_bin: str) -> None:
    client = Client(server_bin, store=":memory:")
    assert client.close() == 0
    assert client.close() == 0  # twice is harmless
    with pytest.raises(ServerExited):
        client.rpc.ping()


def test_closing_kills_a_server_that_does_not_exit(tmp_path: Path) -> None:
    stuck = stand_in_server(tmp_path, "stuck-server", "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(60)\n")
    client = Client(str(stuck), close_timeout=0.5)
    # The stand-in ignores SIGTERM and sleeps 60 s: only the kill ends it with SIGKILL's status.
    assert client.close() == -signal.SIGKILL


def test_attach_talks_over_given_streams_and_a_given_contract(server_bin: str, tmp_path: Path) -> None:
    process = subprocess.Popen([server_bin, "--store", ":memory:", "--sample-feed"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    from python_client_support import DOCUMENT_PATH
    with Client.attach(process.stdout, process.stdin, framing="lsp", contract=DOCUMENT_PATH) as client:  # type: ignore[arg-type]
        assert client.feed.counts()["total"] == 10
        assert client.returncode is None
    assert process.wait(5) == 0
    process.stdout.close()  # type: ignore[union-attr]


def test_attached_streams_that_end_raise_server_exited() -> None:
    read_end, write_end = os.pipe()
    os.close(write_end)  # the "server" output ends at once
    with open(os.devnull, "wb") as sink, Client.attach(os.fdopen(read_end, "rb"), sink) as client:
        with pytest.raises(ServerExited) as raised:
            client.call("rpc.ping")
        assert raised.value.returncode is None


def test_odd_frames_are_skipped_and_replies_still_matched(tmp_path: Path) -> None:
    """A server that writes a line that is not JSON, a request, and a reply inside a batch."""
    odd = stand_in_server(tmp_path, "odd-server", """
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            if "id" not in request:
                continue
            print("not json")
            print(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "host.question"}))
            if request["method"] == "bad.error":
                print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "error": "not an object"}))
            else:
                print(json.dumps([{"jsonrpc": "2.0", "id": request["id"], "result": request["method"]}]))
            sys.stdout.flush()
        """)
    with Client(str(odd), timeout=10, stderr=subprocess.DEVNULL) as client:
        assert client.call("any.method") == "any.method"
        with pytest.raises(InboxRpcError) as raised:
            client.call("bad.error")  # the stand-in has no rpc.discover either: the base class
        assert raised.value.code is None and "not an object" in raised.value.message


def test_find_server_takes_the_argument_the_environment_the_wheel_then_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, server_bin: str
) -> None:
    # The `inbox-rpc` wheel installs package `inbox_rpc` with the binary beside its __init__.py.
    package = tmp_path / "site" / "inbox_rpc"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("import os\ndef binary():\n    return os.path.join(os.path.dirname(__file__), 'inbox-rpc')\n")
    on_path = tmp_path / "bin"
    on_path.mkdir()
    for directory in (package, on_path):
        (directory / "inbox-rpc").symlink_to(server_bin)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "inbox_rpc", raising=False)
    monkeypatch.setenv("PATH", str(on_path))
    monkeypatch.setenv("INBOX_RPC_BIN", server_bin)
    monkeypatch.delenv("INBOX_RPC_BUILD", raising=False)
    monkeypatch.chdir(tmp_path)
    assert find_server("/explicit/inbox-rpc") == "/explicit/inbox-rpc"
    assert find_server() == server_bin
    monkeypatch.delenv("INBOX_RPC_BIN")
    assert find_server() == str(package / "inbox-rpc")
    mark = tmp_path / "ran"
    plant(tmp_path / ".build" / "debug" / "inbox-rpc", mark)  # in the current directory: never run
    with Client(args=["--store", ":memory:", "--sample-feed"], timeout=10) as client:
        assert client.command[0] == str(package / "inbox-rpc")
        assert client.feed.counts()["total"] == 10
    (package / "inbox-rpc").unlink()
    assert find_server() == str(on_path / "inbox-rpc"), "a package without its binary is passed over"
    (on_path / "inbox-rpc").unlink()
    with pytest.raises(FileNotFoundError, match="INBOX_RPC_BIN"):
        find_server()
    assert not mark.exists()


def test_a_build_in_the_current_directory_is_never_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A cloned repository someone else wrote: its .build is their program, not a server to start.
    mark, here = tmp_path / "ran", tmp_path / "their-checkout"
    for build in ("release", "debug"):
        plant(here / ".build" / build / "inbox-rpc", mark)
    monkeypatch.delenv("INBOX_RPC_BIN", raising=False)
    monkeypatch.setitem(sys.modules, "inbox_rpc", None)  # no wheel
    # No server on PATH: not even a package installed meanwhile (the suite installs the .deb beside).
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-on-path"))
    monkeypatch.chdir(here)
    for asked in ("", "1"):  # asking for the checkout's build means this package's checkout, not the directory
        monkeypatch.setenv("INBOX_RPC_BUILD", asked)
        monkeypatch.setattr("inbox_rpc_client.client.CHECKOUT", str(tmp_path / "no-build"))
        with pytest.raises(FileNotFoundError, match="INBOX_RPC_BUILD"):
            Client(timeout=10)
    assert not mark.exists(), mark.read_text()


def test_the_checkout_s_build_is_run_when_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, server_bin: str) -> None:
    import inbox_rpc_client.client as module

    assert module.CHECKOUT == str(REPO_ROOT), "the package of this checkout finds the checkout"
    mark, checkout = tmp_path / "ran", tmp_path / "checkout"
    debug = plant(checkout / ".build" / "debug" / "inbox-rpc", mark, f"exec '{server_bin}' \"$@\"")
    monkeypatch.setattr(module, "CHECKOUT", str(checkout))
    monkeypatch.delenv("INBOX_RPC_BIN", raising=False)
    monkeypatch.setitem(sys.modules, "inbox_rpc", None)
    # No server on PATH: not even a package installed meanwhile (the suite installs the .deb beside).
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-on-path"))
    monkeypatch.delenv("INBOX_RPC_BUILD", raising=False)
    with pytest.raises(FileNotFoundError):
        find_server()
    monkeypatch.setenv("INBOX_RPC_BUILD", "1")
    with Client(args=["--store", ":memory:", "--sample-feed"], timeout=10) as client:
        assert client.command[0] == str(debug)
        assert client.feed.counts()["total"] == 10
    release = plant(checkout / ".build" / "release" / "inbox-rpc", mark)
    assert find_server() == str(release), "the release build first, as script/server builds it"
    assert mark.read_text().splitlines() == [str(debug)]


def test_from_env_reads_the_store_and_flags_like_the_shell_client(monkeypatch: pytest.MonkeyPatch, server_bin: str, store: str) -> None:
    monkeypatch.setenv("INBOX_RPC_BIN", server_bin)
    monkeypatch.setenv("INBOX_STORE", store)
    monkeypatch.setenv("INBOX_RPC_FLAGS", "--sample-feed --log-level error")
    with Client.from_env() as client:
        assert client.feed.counts()["total"] == 10
        assert client.command[1:] == ["--store", store, "--sample-feed", "--log-level", "error"]
    assert os.path.exists(store)
