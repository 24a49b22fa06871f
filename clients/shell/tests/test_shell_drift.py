"""The shell client follows a changed contract with no change to the script: against a stand-in
server (clients/contract_double.py) that serves a copy of Schemas/openrpc.json with one more
method and one more named error, `inbox` lists both, calls the method by its name with a
key=value param typed by its schema, and reports the error by its name with the status the
documented rule gives its code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Dict

from shell_support import INBOX, REPO_ROOT
from shell_support import base_env, server_bin, watchdog  # noqa: F401  (fixtures)

DOUBLE = REPO_ROOT / "clients" / "contract_double.py"


def changed_contract(directory: Path) -> Path:
    contract = json.loads((REPO_ROOT / "Schemas" / "openrpc.json").read_text())
    contract["components"]["errors"]["FrobnicationRefused"] = {"code": -32099, "message": "Frobnication refused"}
    contract["methods"].append(
        {
            "name": "inbox.frobnicate",
            "summary": "Frobnicates.",
            "paramStructure": "by-name",
            "params": [
                {"name": "x", "required": True, "schema": {"type": "integer"}},
                {"name": "label", "schema": {"type": "string"}},
            ],
            "result": {"name": "frobnicated", "schema": {"type": "object"}},
            "errors": [{"$ref": "#/components/errors/FrobnicationRefused"}],
        }
    )
    path = directory / "openrpc.json"
    path.write_text(json.dumps(contract))
    return path


def double_server(directory: Path, contract: Path, answers: Dict[str, dict]) -> Path:
    """The double as an executable the client starts as its server (it ignores the flags)."""
    answers_file = directory / "answers.json"
    answers_file.write_text(json.dumps(answers))
    script = directory / "double-server"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{DOUBLE}" "{contract}" "{answers_file}"\n')
    script.chmod(0o755)
    return script


def run(env: Dict[str, str], server: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(INBOX), *args], env={**env, "INBOX_RPC_BIN": str(server)}, capture_output=True, text=True, timeout=30
    )


def test_a_new_method_is_listed_and_called_by_its_name(base_env: Dict[str, str], tmp_path: Path) -> None:
    contract = changed_contract(tmp_path)
    server = double_server(tmp_path, contract, {"inbox.frobnicate": {"result": {"frobnicated": True}}})
    listed = run(base_env, server, "methods")
    assert "inbox.frobnicate(x*, label)  Frobnicates." in listed.stdout.splitlines()
    done = run(base_env, server, "inbox.frobnicate", "x=1", "label=2")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"frobnicated": True}
    missing = run(base_env, server, "inbox.frobnicate", "label=2")
    assert missing.returncode == 2 and "inbox.frobnicate needs x" in missing.stderr


def test_the_params_sent_follow_the_new_schema(base_env: Dict[str, str], tmp_path: Path) -> None:
    """x (an integer) goes as the number 1, label (a string) as the text "2"."""
    contract = changed_contract(tmp_path)
    echo = tmp_path / "echo-server"
    echo.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"contract = json.load(open({str(contract)!r}))\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    result = contract if request['method'] == 'rpc.discover' else request.get('params')\n"
        "    print(json.dumps({'jsonrpc': '2.0', 'id': request['id'], 'result': result}), flush=True)\n"
    )
    echo.chmod(0o755)
    done = run(base_env, echo, "--json", "inbox.frobnicate", "x=1", "label=2")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"x": 1, "label": "2"}


def test_a_new_error_is_reported_by_its_name(base_env: Dict[str, str], tmp_path: Path) -> None:
    contract = changed_contract(tmp_path)
    refusal = {"error": {"code": -32099, "message": "Frobnication refused", "data": {"why": "too blue"}}}
    server = double_server(tmp_path, contract, {"inbox.frobnicate": refusal})
    done = run(base_env, server, "inbox.frobnicate", "x=1")
    assert done.returncode == 199  # 100 + (-32000 - -32099)
    assert done.stderr == 'inbox: FrobnicationRefused (-32099): Frobnication refused: {"why":"too blue"}\n'
    errors = run(base_env, server, "errors").stdout.splitlines()
    assert "FrobnicationRefused\t-32099\texit 199" in errors


def test_the_script_names_neither(base_env: Dict[str, str]) -> None:
    for path in (INBOX, INBOX.parent / "views.sh"):
        text = path.read_text()
        assert "frobnicate" not in text and "Frobnication" not in text
