"""The examples in clients/python/examples run against the real server and say what they did."""

from __future__ import annotations

from python_client_support import REPO_ROOT, replies_fit_the_contract, server_bin, store, watchdog  # noqa: F401  (fixtures)

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict

import pytest

from fake_backend import TOKEN, FakeBackend
from sync_support import backend, backend_args  # noqa: F401  (a fixture)

EXAMPLES = REPO_ROOT / "clients" / "python" / "examples"
PAYLOAD = REPO_ROOT / "clients" / "examples" / "flash-sale-push.json"


@pytest.fixture
def env(server_bin: str, store: str) -> Dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT / "clients" / "python"),
        "INBOX_RPC_BIN": server_bin,
        "INBOX_STORE": store,
        "INBOX_RPC_FLAGS": "--sample-feed",
    }


def run(env: Dict[str, str], example: str, *args: str, input: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXAMPLES / example), *args], env=env, input=input,
                          capture_output=True, text=True, timeout=30)


def test_list_feed_prints_every_card_and_the_counts(env: Dict[str, str]) -> None:
    done = run(env, "list_feed.py", "--page-size", "3", "--warnings")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("*P welcome ")
    assert "10 shown (* unread, P pinned); total 10, unread 10, unactioned 10, pinned 1" in lines
    assert sum(line.startswith("warning: ") for line in lines) == 6
    assert run(env, "list_feed.py").stdout.splitlines()[-1] == "6 warnings from the server (--warnings lists them)"


def test_tap_button_acts_on_each_kind_of_action(env: Dict[str, str]) -> None:
    assert run(env, "tap_button.py", "summer-sale", "0").stdout.splitlines() == [
        "feed.changed: opened {'updated': ['summer-sale']}, 9 unread",
        "open https://example.com/promo/SUMMER2026 (the host opens it)",
        "summer-sale stays in the feed, opened",
    ]
    assert "custom action for the host: {'tag': 'save_promo'}" in run(env, "tap_button.py", "summer-sale", "1").stdout.splitlines()
    assert run(env, "tap_button.py", "welcome", "1").stdout.splitlines() == [
        "feed.changed: dismissed {'removed': ['welcome']}, 8 unread",
        "dismiss: done by the server",
        "welcome left the feed",
    ]
    gone = run(env, "tap_button.py", "welcome", "1")
    assert gone.returncode == 3 and gone.stdout == "no message 'welcome' in the feed\n"
    wrong = run(env, "tap_button.py", "summer-sale", "2")
    assert wrong.returncode == 4 and "no button 2" in wrong.stdout


def test_dismiss_is_kept_by_the_next_server(env: Dict[str, str]) -> None:
    assert run(env, "dismiss.py", "hero-banner").stdout.splitlines() == ["dismissed hero-banner", "9 messages left, 9 unread"]
    assert run(env, "dismiss.py", "hero-banner").stdout.splitlines()[0] == "hero-banner was already dismissed"
    assert run(env, "dismiss.py", "nope").returncode == 3
    assert "hero-banner" not in run(env, "list_feed.py").stdout


def test_payload_text_reaches_the_terminal_escaped(env: Dict[str, str], tmp_path: Path) -> None:
    forged = json.loads(PAYLOAD.read_text())
    forged["aps"]["alert"]["title"] = "Flash\x1b[2J sale\n  button 9: Claim prize -> openURL https://evil.example\u202e"
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    done = run(env, "resolve.py", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "  Flash\\u001b[2J sale\\n  button 9: Claim prize -> openURL https://evil.example\\u202e / 40% off shoes until midnight", lines
    assert "\x1b" not in done.stdout and "\u202e" not in done.stdout
    assert not any(line.startswith("  button 9") for line in lines), lines


def test_resolve_shows_the_card_of_a_payload(env: Dict[str, str], tmp_path: Path) -> None:
    done = run(env, "resolve.py", str(PAYLOAD))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["flash-sale-42: captioned card", "  Flash sale / 40% off shoes until midnight"]
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"aps": {"alert": "a plain push"}}))
    refused = run(env, "resolve.py", str(plain))
    assert refused.returncode == 5 and refused.stdout.startswith("not an inbox message: ")


def test_listen_calls_methods_by_name_and_prints_notifications_first(env: Dict[str, str]) -> None:
    lines = 'message.dismiss {"id": "welcome"}\nfeed.counts\nmessage.get {"id": "welcome"}\nfeed.frobnicate\n'
    done = run(env, "listen.py", input=lines)
    assert done.returncode == 1, done.stderr  # two of the calls failed
    assert done.stdout.splitlines() == [
        'feed.changed {"reason": "dismissed", "removed": ["welcome"], "counts": {"total": 9, "unread": 9, '
        '"unactioned": 9, "pinned": 0, "unseen": 9}}',
        'message.dismiss -> {"dismissed": true}',
        'feed.counts -> {"total": 9, "unread": 9, "unactioned": 9, "pinned": 0, "unseen": 9}',
        'message.get -> MessageNotFound -32001 {"id": "welcome"}',
        'feed.frobnicate -> error -32601 {"method": "feed.frobnicate"}',
    ]


def test_sync_without_a_backend_says_why(env: Dict[str, str]) -> None:
    done = run(env, "sync.py")
    assert done.returncode == 7 and done.stderr.startswith("sync is not set up: "), done.stderr


def test_sync_reports_what_it_merged(env: Dict[str, str], backend: FakeBackend) -> None:
    backend.add_message("m1")
    backend.add_message("m2")
    env.update(INBOX_RPC_FLAGS=" ".join(backend_args(backend)), INBOX_RPC_API_TOKEN=TOKEN)
    done = run(env, "sync.py", "--force")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("synced: added 2, updated 0, removed 0"), done.stdout
    assert "sync: done" in done.stderr


def test_ctrl_c_cancels_the_sync_on_the_server(env: Dict[str, str], backend: FakeBackend, tmp_path: Path) -> None:
    trace = tmp_path / "session.trace"
    backend.fail("timeout", method="getInboxMessages", delay=30)
    env.update(INBOX_RPC_FLAGS=" ".join([*backend_args(backend), "--trace", str(trace)]), INBOX_RPC_API_TOKEN=TOKEN)
    # A suite started in the background (`script/test &` from a script) runs with SIGINT ignored,
    # and an ignored signal stays ignored across exec: the example gets Ctrl-C as a terminal has it.
    example = subprocess.Popen([sys.executable, str(EXAMPLES / "sync.py"), "--force"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 20
    while not backend.calls("getInboxMessages") and time.monotonic() < deadline:
        time.sleep(0.05)  # until the sync waits on the backend
    example.send_signal(signal.SIGINT)
    try:
        out, err = example.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # a hang: what the example said so far tells where it stopped
        example.kill()
        out, err = example.communicate()
        raise AssertionError(f"sync.py still running 30 s after Ctrl-C; stdout {out!r}, stderr {err!r}") from None
    assert example.returncode == 9 and "sync cancelled" in err, (out, err)
    frames = [json.loads(line)["frame"] for line in trace.read_text().splitlines() if line.strip()]
    [sync] = [f for f in frames if f.get("method") == "feed.sync"]
    assert {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": sync["id"]}} in frames
    assert [f["error"]["code"] for f in frames if f.get("id") == sync["id"] and "error" in f] == [-32800]


def blocked_signals(thread_id: int) -> int:
    """The mask of signals the thread `thread_id` (a native id) blocks, from /proc."""
    with open(f"/proc/self/task/{thread_id}/status", encoding="ascii") as status:
        return int(next(line for line in status if line.startswith("SigBlk:")).split()[1], 16)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads each thread's signal mask from /proc")
def test_ctrl_c_reaches_the_main_thread_whatever_the_client_runs(server_bin: str, store: str) -> None:
    """The client's reader and stderr threads block SIGINT and SIGTERM, so the kernel delivers a
    Ctrl-C to the main thread: one noted on the reader thread would leave a main thread waiting for
    a reply (as sync.py does) deaf to it until the reply came (seen on a loaded machine)."""
    from inbox_rpc_client import Client

    with Client(server_bin, store=store) as client:
        assert client.call("rpc.ping") == "pong"
        threads = [client._reader] + ([client._drainer] if client._drainer is not None else [])
        for thread in threads:
            mask = blocked_signals(thread.native_id)
            assert mask & (1 << (signal.SIGINT - 1)) and mask & (1 << (signal.SIGTERM - 1)), (thread.name, hex(mask))
        assert not blocked_signals(threading.main_thread().native_id) & (1 << (signal.SIGINT - 1))
