"""The suite's closing lines when it is spread over processes (pytest-xdist, as script/test runs it):
the contract count adds up what every worker validated, and a test's recorded figure is shown."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import BIN

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.timeout(240)
def test_two_workers_report_the_contract_count_and_the_campaign_figure():
    env = {**os.environ, "INBOX_RPC_BIN": BIN, "INBOX_RPC_SYNC_ROUNDS": "5"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile", "-p", "no:cacheprovider",
         f"--rootdir={HERE}", os.path.join(HERE, "test_version.py"), os.path.join(HERE, "test_sync_campaign.py")],
        capture_output=True, text=True, timeout=220, env=env, cwd=HERE,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    checked = re.search(r"^contract: (\d+) replies and notifications validated", done.stdout, re.M)
    assert checked and int(checked.group(1)) > 0, done.stdout[-2000:]
    assert re.search(r"^sync fault campaign: 5 rounds, .*converged, nothing lost", done.stdout, re.M), done.stdout[-2000:]
