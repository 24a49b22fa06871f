"""script/check-budgets, which script/test runs after the debug build: it passes on a tree within
every budget, and fails on each budget exceeded, naming it and by how much. The trees are made
here, and the binary asked for tools/list is a stand-in that answers with a result of a chosen size."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "script" / "check-budgets"

STAND_IN = """#!{python}
import json, sys
assert sys.argv[1:] == ["mcp", "--store", ":memory:"], sys.argv
for line in sys.stdin:
    request = json.loads(line)
    if request.get("id") == 1:
        print(json.dumps({{"jsonrpc": "2.0", "id": 1, "result": {{}}}}), flush=True)
    elif request.get("id") == 2:
        result = {{"tools": [{{"name": "t", "description": "x" * {padding}}}]}}
        print(json.dumps({{"jsonrpc": "2.0", "id": 2, "result": result}}), flush=True)
"""
# The stand-in's result, compact, without the description's padding.
RESULT_OVERHEAD = len(json.dumps({"tools": [{"name": "t", "description": ""}]}, separators=(",", ":")))


def make_tree(root: Path, *, tools_list=24 * 1024, python_core=520, shell=380, readme=16 * 1024, results=250) -> Path:
    """A tree whose every measure is the figure given (the defaults: each at its budget)."""
    core = root / "clients/python/inbox_rpc_client"
    core.mkdir(parents=True)
    (core / "client.py").write_text("x = 1\n" * (python_core - 3))
    (core / "__init__.py").write_text("\n\n\n")
    (core / "methods.pyi").write_text("x: int\n" * 1000)  # generated: not counted
    (root / "clients/shell").mkdir(parents=True)
    (root / "clients/shell/inbox").write_text("echo\n" * shell)
    (root / "clients/shell/views.sh").write_text("echo\n" * 1000)  # not the client's core
    (root / "README.md").write_bytes(b"r" * (readme - 1) + b"\n")
    (root / "bench").mkdir()
    (root / "bench/RESULTS.md").write_text("| a |\n" * results)
    binary = root / "inbox-rpc"
    binary.write_text(STAND_IN.format(python=sys.executable, padding=tools_list - RESULT_OVERHEAD))
    binary.chmod(0o755)
    return binary


def check(root: Path, binary: Path | None = None) -> subprocess.CompletedProcess:
    argv = [sys.executable, str(CHECK), "--root", str(root)] + (["--binary", str(binary)] if binary else [])
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_a_tree_at_every_budget_passes(tmp_path):
    done = check(tmp_path, make_tree(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OVER" not in done.stdout
    assert "tools/list of inbox-rpc mcp: 24,576 bytes, 0 under its budget of 24,576" in done.stdout


@pytest.mark.parametrize("measure, figure, says", [
    ("tools_list", 24 * 1024 + 100, "tools/list of inbox-rpc mcp is 24,676 bytes, 100 over its budget of 24,576"),
    ("python_core", 564, "Python client's core (clients/python/inbox_rpc_client/*.py) is 564 lines, 44 over its budget of 520"),
    ("shell", 381, "the shell client (clients/shell/inbox) is 381 lines, 1 over its budget of 380"),
    ("readme", 24_007, "README.md is 24,007 bytes, 7,623 over its budget of 16,384"),
    ("results", 608, "bench/RESULTS.md is 608 lines, 358 over its budget of 250"),
])
def test_each_budget_exceeded_fails_naming_it_and_by_how_much(tmp_path, measure, figure, says):
    done = check(tmp_path, make_tree(tmp_path, **{measure: figure}))
    assert done.returncode == 1, done.stdout + done.stderr
    over = [line for line in done.stdout.splitlines() if "OVER BUDGET" in line]
    assert len(over) == 1 and says in over[0], done.stdout


def test_a_missing_binary_or_file_fails_as_unmeasured(tmp_path):
    make_tree(tmp_path)
    (tmp_path / "README.md").unlink()
    done = check(tmp_path, tmp_path / "no-such-binary")
    assert done.returncode == 1
    assert "no binary at" in done.stdout and "README.md: cannot be measured" in done.stdout, done.stdout
