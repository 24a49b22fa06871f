"""Paths shared by the shell client's tests (a module of its own: conftest is not importable by name)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Callable

REPO_ROOT = Path(__file__).resolve().parents[3]
INBOX = REPO_ROOT / "clients" / "shell" / "inbox"
SERVER_BIN = os.environ.get("INBOX_RPC_BIN") or str(REPO_ROOT / ".build" / "debug" / "inbox-rpc")

#: Runs clients/shell/inbox: `inbox("feed", input=None, timeout=30, **extra_env)`.
Runner = Callable[..., "subprocess.CompletedProcess[str]"]
