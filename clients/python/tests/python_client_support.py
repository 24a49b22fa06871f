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

sys.path.insert(0, str(REPO_ROOT / "Tests" / "EndToEnd"))

from client_test_fixtures import SAMPLE_IDS, SERVER_BIN, server_bin, stand_in_server, store, watchdog  # noqa: E402, F401
from contract import CONTRACT, ContractViolation  # noqa: E402
from inbox_rpc_client import Client  # noqa: E402

# Every reply and notification the client reads in these tests must fit Schemas/openrpc.json: the
# reader's dispatch is wrapped to check each message before the client handles it. A violation is
# kept (the reader thread cannot fail a test) and fails the test that saw it.
CONTRACT_VIOLATIONS: list = []
_dispatch = Client._dispatch


def _checked_dispatch(self, message):  # type: ignore[no-untyped-def]
    try:
        if isinstance(message, dict) and "method" in message and "id" not in message:
            CONTRACT.check_notification(message)
        elif isinstance(message, dict) and "id" in message:
            call = self._pending.get(message["id"]) if isinstance(message["id"], int) else None
            if call is not None:
                CONTRACT.check_reply(call.method, message)
    except ContractViolation as violation:
        CONTRACT_VIOLATIONS.append(str(violation))
    _dispatch(self, message)


Client._dispatch = _checked_dispatch  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def replies_fit_the_contract() -> Iterator[None]:
    CONTRACT_VIOLATIONS.clear()
    yield
    assert not CONTRACT_VIOLATIONS, CONTRACT_VIOLATIONS[0]


@pytest.fixture
def inbox(server_bin: str, store: str) -> Iterator[Client]:
    """A client on a fresh store seeded with the sample feed, with the server's test methods."""
    with Client(server_bin, store=store, sample_feed=True, args=["--test-methods"], timeout=10) as client:
        yield client
