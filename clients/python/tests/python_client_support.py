"""Fixtures for the Python client's tests: the real inbox-rpc binary, a fresh store per test, and
every frame the client reads checked against Schemas/openrpc.json.

Test modules import them by name (a conftest.py here would shadow the `conftest` module that
other suites run in the same pytest session import), and importing this module first puts
clients/python, clients/ and Tests/EndToEnd on sys.path.

The binary is $INBOX_RPC_BIN, else .build/debug/inbox-rpc of this checkout. A missing binary
fails every test: it must never turn into a green run. A watchdog ends the run with a traceback
if one test takes more than five minutes, so a hang is a failure too (a loaded machine is not).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
for path in ("clients/python", "clients", "Tests/EndToEnd"):
    sys.path.insert(0, str(REPO_ROOT / path))

from client_test_fixtures import SAMPLE_IDS, SERVER_BIN, server_bin, stand_in_server, store, watchdog  # noqa: E402, F401
from contract import CONTRACT, DOCUMENT_PATH, ContractViolation  # noqa: E402
from inbox_rpc_client import Client  # noqa: E402

CONTRACT_DOUBLE = REPO_ROOT / "clients" / "contract_double.py"

# Every reply and notification the client reads from the real server in these tests must fit
# Schemas/openrpc.json: the reader's dispatch is wrapped to check each message before the client
# handles it. A violation is kept (the reader thread cannot fail a test) and fails the test that
# saw it. Stand-in servers answer outside the contract on purpose and are not checked.
CONTRACT_VIOLATIONS: list = []
_dispatch = Client._dispatch


def _checked_dispatch(self: Client, message: Any) -> None:
    if self.command[:1] != [os.path.abspath(SERVER_BIN)]:
        return _dispatch(self, message)
    try:
        if isinstance(message, dict) and "method" in message and "id" not in message:
            CONTRACT.check_notification(message)
        elif isinstance(message, dict) and isinstance(message.get("id"), int) and message["id"] in self._pending:
            CONTRACT.check_reply(self._pending[message["id"]].method, message)
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
    with Client(server_bin, store=store, sample_feed=True, args=["--test-methods"], timeout=20) as client:
        yield client


def changed_contract(directory: Path) -> Path:
    """A copy of the contract with one more method (`inbox.frobnicate {x}`) and one more named
    error (`FrobnicationRefused`, -32099), as a later server could serve."""
    document = json.loads(Path(DOCUMENT_PATH).read_text())
    document["methods"].append({
        "name": "inbox.frobnicate",
        "summary": "Frobnicates the inbox.",
        "params": [{"name": "x", "required": True, "schema": {"type": "integer", "description": "How hard."}}],
        "result": {"name": "outcome", "schema": {"type": "object", "required": ["frobnicated"], "additionalProperties": False,
                                                 "properties": {"frobnicated": {"type": "integer", "description": "How many."}}}},
        "errors": [{"$ref": "#/components/errors/FrobnicationRefused"}],
    })
    document["components"]["errors"]["FrobnicationRefused"] = {
        "code": -32099, "message": "Frobnication refused", "data": "The inbox will not be frobnicated: data {x}."}
    path = directory / "openrpc.json"
    path.write_text(json.dumps(document, indent=2))
    return path


def contract_double(directory: Path, contract: Path, answers: Dict[str, Any], **options: Any) -> Client:
    """A client of clients/contract_double.py serving `contract` and answering with `answers`."""
    answers_path = directory / "answers.json"
    answers_path.write_text(json.dumps(answers))
    return Client(sys.executable, args=[str(CONTRACT_DOUBLE), str(contract), str(answers_path)], **options)
