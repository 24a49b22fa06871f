"""Fixtures for the MCP tests: run in a virtualenv with one release of the official MCP SDK
(.venv-mcp2: 2.x, .venv-mcp1: the last 1.x with the mcp-proxy bridge, .venv-mcp19: 1.9.x, revision
2025-03-26, .venv-mcp15: 1.5.x, revision 2024-11-05), or with an agent stack (.venv-smolagents,
.venv-autogen: their own test_agent_*.py); script/bootstrap makes them, script/test runs each.
The fake Pushwoosh backend comes from the end-to-end suite."""

from __future__ import annotations

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "EndToEnd"))

from fake_backend import FakeBackend  # noqa: E402


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(60))


@pytest.fixture
def store(tmp_path) -> str:
    return str(tmp_path / "inbox.sqlite")


@pytest.fixture
def backend():
    server = FakeBackend()
    yield server
    server.close()


@pytest.fixture
def backend_args(backend, tmp_path) -> list[str]:
    """Flags pointing the server at the fake backend; the token from a file, as a bare environment needs."""
    from fake_backend import APP, TOKEN, USER

    token = tmp_path / "token"
    token.write_text(TOKEN)
    return ["--backend-url", backend.url, "--application", APP, "--hwid", "hw-test", "--user-id", USER,
            "--token-file", str(token)]
