"""What the shell client's tests (and the README tour) share: paths, the real inbox-rpc binary,
a fresh store per test, and a runner for clients/shell/inbox.

The binary is $INBOX_RPC_BIN, else .build/debug/inbox-rpc of this checkout; a missing binary
fails every test. A watchdog ends the run with a traceback if one test takes over five minutes (a hang).
Test modules import the fixtures by name: a conftest.py here would shadow the `conftest` module
that other suites run in the same pytest session import.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict, Optional

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
INBOX = REPO_ROOT / "clients" / "shell" / "inbox"
sys.path.insert(0, str(REPO_ROOT / "clients"))

from client_test_fixtures import SAMPLE_IDS, SERVER_BIN, server_bin, stand_in_server, store, watchdog  # noqa: E402, F401

#: The server's clock in these tests (2026-12-02 03:01 UTC): a payload sent "now" is sent then, so two
#: calls a minute apart show the same card.
NOW = 1796180460

#: Runs clients/shell/inbox: `inbox("feed", input=None, timeout=120, **extra_env)` (a deadline that only catches a hang).
Runner = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def base_env(server_bin: str, tmp_path: Path) -> Dict[str, str]:
    """The environment without the user's INBOX_* settings, with a private TMPDIR."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("INBOX")}
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env.update(INBOX_RPC_BIN=server_bin, TMPDIR=str(tmp))
    return env




@pytest.fixture
def inbox(base_env: Dict[str, str], store: str) -> Runner:
    """Runs clients/shell/inbox on a fresh store seeded with the sample feed."""

    def run(*args: str, input: Optional[str] = None, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
        full_env = {**base_env, "INBOX_STORE": store, "INBOX_RPC_FLAGS": f"--sample-feed --test-clock {NOW}", **env}
        stdin = {"input": input} if input is not None else {"stdin": subprocess.DEVNULL}
        return subprocess.run(
            [str(INBOX), *args], env=full_env, capture_output=True, text=True, timeout=timeout, **stdin
        )

    return run
