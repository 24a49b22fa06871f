"""Fixtures for the Python client's tests: the real inbox-rpc binary, a fresh store per test.

Test modules import them by name (a conftest.py here would shadow the `conftest` module that
other suites run in the same pytest session import), and importing this module first puts
clients/python on sys.path.

The binary is $INBOX_RPC_BIN, else .build/debug/inbox-rpc of this checkout. A missing binary
fails every test: it must never turn into a green run. A watchdog ends the run with a traceback
if one test takes more than a minute, so a hang is a failure too.
"""

from __future__ import annotations

import faulthandler
import os
import sys
from pathlib import Path
from typing import Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO_ROOT / "clients" / "python"))

from inbox_rpc_client import Client  # noqa: E402

SERVER_BIN = os.environ.get("INBOX_RPC_BIN") or str(REPO_ROOT / ".build" / "debug" / "inbox-rpc")
TEST_WATCHDOG_SECONDS = 60


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


@pytest.fixture
def inbox(server_bin: str, store: str) -> Iterator[Client]:
    """A client on a fresh store seeded with the sample feed, with the server's test methods."""
    with Client(server_bin, store=store, sample_feed=True, args=["--test-methods"], timeout=10) as client:
        yield client
