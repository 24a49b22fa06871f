"""The examples in clients/python/examples run against the real server and say what they did."""

from __future__ import annotations

from python_client_support import REPO_ROOT, server_bin, store, watchdog, replies_fit_the_contract  # noqa: F401  (fixtures)

import os
import subprocess
import sys
from typing import Dict

import pytest

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


def run(env: Dict[str, str], example: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(EXAMPLES / example), *args], env=env, capture_output=True, text=True, timeout=30
    )


def test_list_feed_prints_every_card_and_the_counts(env: Dict[str, str]) -> None:
    done = run(env, "list_feed.py", "--page-size", "3", "--warnings")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("*P welcome ")
    assert "10 shown (* unread, P pinned); total 10, unread 10, unactioned 10, pinned 1" in lines
    assert sum(line.startswith("warning: ") for line in lines) == 6


def test_tap_button_acts_on_each_kind_of_action(env: Dict[str, str]) -> None:
    opened = run(env, "tap_button.py", "summer-sale", "0")
    assert opened.stdout.splitlines() == [
        "feed.changed: opened {'updated': ['summer-sale']}",
        "open https://example.com/promo/SUMMER2026 (the host opens it)",
        "summer-sale stays in the feed, opened",
    ]
    dismissed = run(env, "tap_button.py", "welcome", "1")
    assert dismissed.stdout.splitlines() == [
        "feed.changed: dismissed {'removed': ['welcome']}",
        "dismiss: done by the server",
        "welcome left the feed",
    ]
    assert run(env, "tap_button.py", "welcome", "1").returncode == 3
    wrong = run(env, "tap_button.py", "summer-sale", "2")
    assert wrong.returncode == 4 and "no button 2" in wrong.stdout


def test_dismiss_is_kept_by_the_next_server(env: Dict[str, str]) -> None:
    assert run(env, "dismiss.py", "hero-banner").stdout.splitlines() == [
        "dismissed hero-banner",
        "9 messages left, 9 unread",
    ]
    assert run(env, "dismiss.py", "hero-banner").stdout.splitlines()[0] == "hero-banner was already dismissed"
    assert "hero-banner" not in run(env, "list_feed.py").stdout


def test_resolve_shows_the_card_of_a_payload(env: Dict[str, str]) -> None:
    done = run(env, "resolve.py", str(PAYLOAD))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["flash-sale-42: captioned card", "  Flash sale / 40% off shoes until midnight"]


def test_sync_reports_or_says_why_it_cannot(env: Dict[str, str]) -> None:
    done = run(env, "sync.py")
    if done.returncode == 0:
        assert done.stdout.startswith("synced: added ")
    elif done.returncode == 6:
        assert done.stderr.strip() == "this inbox-rpc has no feed.sync"
    else:
        assert done.returncode == 7 and done.stderr.startswith("sync is not set up: "), done.stderr
