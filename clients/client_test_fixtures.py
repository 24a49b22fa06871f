"""Fixtures both clients' tests share: the real inbox-rpc binary, a per-test watchdog, a fresh
store path, and the sample feed's ids.

The binary is $INBOX_RPC_BIN, else .build/debug/inbox-rpc of this checkout. A missing binary fails
every test: it must never turn into a green run. The watchdog ends the run with a traceback if one
test takes more than a minute, so a hang is a failure too. The suites' support modules import
these by name (a conftest.py would shadow the `conftest` module the end-to-end suite imports).
"""

from __future__ import annotations

import faulthandler
import os
import sys
import textwrap
from pathlib import Path
from typing import Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SERVER_BIN = os.environ.get("INBOX_RPC_BIN") or str(REPO_ROOT / ".build" / "debug" / "inbox-rpc")
TEST_WATCHDOG_SECONDS = 300  # a hang, not a loaded machine (tsc and mypy alone can take a minute then)

#: The messages of the sample feed (Sources/InboxApp/Resources/sample-feed.json), feed order.
SAMPLE_IDS = [
    "welcome",
    "summer-sale",
    "new-arrivals",
    "the-reveal",
    "loyalty-card",
    "hero-banner",
    "plain-note",
    "broken-video",
    "captioned-no-image",
    "unknown-kind",
]


def plant(path: Path, mark: Path, then: str = "exit 1") -> Path:
    """A script at `path` that leaves its own path in `mark` when run, then does `then`: a planted
    binary shows whether a client ran it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho \"$0\" >> '{mark}'\n{then}\n")
    path.chmod(0o755)
    return path


@pytest.fixture(scope="session", autouse=True)
def server_bin() -> str:
    if not (os.path.isfile(SERVER_BIN) and os.access(SERVER_BIN, os.X_OK)):
        pytest.fail(
            f"inbox-rpc not found at {SERVER_BIN}: build it (swift build --product inbox-rpc) or set INBOX_RPC_BIN",
            pytrace=False,
        )
    return os.path.abspath(SERVER_BIN)


@pytest.fixture(autouse=True)
def watchdog() -> Iterator[None]:
    faulthandler.dump_traceback_later(TEST_WATCHDOG_SECONDS, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def store(tmp_path: Path) -> str:
    return str(tmp_path / "inbox.sqlite")


def stand_in_server(directory: Path, name: str, code: str) -> Path:
    """An executable Python script that plays the server (`code`, dedented), for the client paths
    the real one cannot be made to take."""
    script = directory / name
    script.write_text(f"#!{sys.executable}\n" + textwrap.dedent(code))
    script.chmod(0o755)
    return script


def answering_server(directory: Path, name: str, reply: str) -> Path:
    """A stand-in server that answers each request with `reply`, a Python expression of `request`
    giving the members after the id: `{"result": ...}` or `{"error": ...}` (`json` is imported)."""
    return stand_in_server(directory, name, f"""
import json, sys
for line in sys.stdin:
    request = json.loads(line)
    if "id" in request:
        sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": request["id"], **({reply})}}) + "\\n")
        sys.stdout.flush()
""")
