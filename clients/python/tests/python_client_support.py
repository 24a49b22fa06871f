"""Fixtures for the Python client's tests: the real inbox-rpc binary, a fresh store per test.

Test modules import them by name (a conftest.py here would shadow the `conftest` module that
other suites run in the same pytest session import), and importing this module first puts
clients/python on sys.path.

The binary is $INBOX_RPC_BIN, else .build/debug/inbox-rpc of this checkout. A missing binary
fails every test: it must never turn into a green run. A watchdog ends the run with a traceback
if one test takes more than a minute, so a hang is a failure too.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO_ROOT / "clients" / "python"))
sys.path.insert(0, str(REPO_ROOT / "clients"))

from client_test_fixtures import SAMPLE_IDS, SERVER_BIN, server_bin, store, watchdog  # noqa: E402, F401
from inbox_rpc_client import Client  # noqa: E402


@pytest.fixture
def inbox(server_bin: str, store: str) -> Iterator[Client]:
    """A client on a fresh store seeded with the sample feed, with the server's test methods."""
    with Client(server_bin, store=store, sample_feed=True, args=["--test-methods"], timeout=10) as client:
        yield client
