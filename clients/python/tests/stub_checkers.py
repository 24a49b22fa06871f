"""Runs the generated declarations through real type checkers: mypy for the Python stub (when the
running Python has it; the end-to-end virtualenv does), Debian's tsc for contract.d.ts."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def mypy(package_dir: Path, source: str, directory: Path) -> subprocess.CompletedProcess:
    """mypy --strict, for Python 3.9, on `source` importing the package found in `package_dir`."""
    pytest.importorskip("mypy", reason="mypy is in the end-to-end virtualenv (Tests/EndToEnd/requirements.txt)")
    script = directory / "use_client.py"
    script.write_text(source)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.9", "--no-incremental",
         "--cache-dir", str(directory / ".mypy_cache"), str(script)],
        env={**os.environ, "MYPYPATH": str(package_dir)}, capture_output=True, text=True, timeout=300, cwd=directory)


def tsc(declarations: Path, source: str, directory: Path) -> subprocess.CompletedProcess:
    """tsc --strict --noEmit on `source` importing `./contract` (a copy of `declarations`)."""
    compiler = shutil.which("tsc")
    assert compiler, "tsc not found: script/bootstrap installs Debian's node-typescript"
    shutil.copy(declarations, directory / "contract.d.ts")
    (directory / "use.ts").write_text(source)
    return subprocess.run([compiler, "--strict", "--noEmit", "contract.d.ts", "use.ts"],
                          capture_output=True, text=True, timeout=300, cwd=directory)
