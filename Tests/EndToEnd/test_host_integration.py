"""clients/examples/host_integration.py, a host's integration test against `inbox-rpc backend`, runs
and says that every status arrived exactly once through a fault and a SIGKILL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sync_support import BIN

ROOT = Path(__file__).resolve().parents[2]


def test_the_host_integration_example_passes_and_says_what_it_checked():
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_")},
           "INBOX_RPC_BIN": BIN, "PYTHONPATH": str(ROOT / "clients" / "python")}
    done = subprocess.run([sys.executable, str(ROOT / "clients" / "examples" / "host_integration.py")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "synced: added 3"
    assert "server killed with SIGKILL" in lines
    assert any(line.startswith("sync met the fault: ") and "failed 1" in line for line in lines), lines
    assert "synced again: pushed 1, pending 0" in lines
    assert lines[-1] == "every status arrived exactly once"
