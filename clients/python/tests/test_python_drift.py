"""Drift: a copy of the contract with one more method (`inbox.frobnicate {x}`) and one more named
error (`FrobnicationRefused`, -32099), served by clients/contract_double.py. The client calls the
method by its name in the contract and raises the error as its class, with no change to the
client; the generated declarations differ (--check fails), and regenerated they type-check the
new call."""

from __future__ import annotations

from python_client_support import CONTRACT, DOCUMENT_PATH, REPO_ROOT, changed_contract, contract_double, watchdog  # noqa: F401  (fixtures; first: it finds the package)

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inbox_rpc_client import InboxRpcError
from stub_checkers import mypy, tsc

GENERATOR = REPO_ROOT / "script" / "gen-client-stubs"
REFUSED = {"error": {"code": -32099, "message": "Frobnication refused", "data": {"x": 1}}}

PYTHON_USE = '''
from inbox_rpc_client import Client

def use(client: Client) -> int:
    try:
        return client.inbox.frobnicate(x=1)["frobnicated"]
    except client.errors.FrobnicationRefused as error:
        return int(error.code)
'''
TS_USE = '''
import type { ErrorName, Methods } from "./contract";
export const params: Methods["inbox.frobnicate"]["params"] = { x: 1 };
declare const result: Methods["inbox.frobnicate"]["result"];
export const count: number = result.frobnicated;
export const error: ErrorName = "FrobnicationRefused";
'''


def test_the_client_calls_a_new_method_by_its_name_and_gets_its_result(tmp_path: Path) -> None:
    answers = {"inbox.frobnicate": {"result": {"frobnicated": 3}}}
    with contract_double(tmp_path, changed_contract(tmp_path), answers, timeout=20) as client:
        assert dir(client.inbox) == ["frobnicate"]
        assert client.inbox.frobnicate(x=1) == {"frobnicated": 3}
        assert client.inbox.frobnicate.__doc__ == "Frobnicates the inbox."


def test_the_client_raises_a_new_named_error_as_its_class(tmp_path: Path) -> None:
    with contract_double(tmp_path, changed_contract(tmp_path), {"inbox.frobnicate": REFUSED}, timeout=20) as client:
        with pytest.raises(client.errors.FrobnicationRefused) as raised:
            client.inbox.frobnicate(x=1)
    error = raised.value
    assert isinstance(error, InboxRpcError) and type(error).__name__ == "FrobnicationRefused"
    assert (error.name, error.code, error.data, error.method) == ("FrobnicationRefused", -32099, {"x": 1}, "inbox.frobnicate")


def test_without_the_change_the_same_client_has_neither(tmp_path: Path) -> None:
    with contract_double(tmp_path, Path(DOCUMENT_PATH), {"inbox.frobnicate": REFUSED}, timeout=20) as client:
        with pytest.raises(AttributeError, match="inbox"):
            client.inbox.frobnicate(x=1)
        assert not hasattr(client.errors, "FrobnicationRefused")
        with pytest.raises(InboxRpcError) as raised:
            client.call("inbox.frobnicate", x=1)  # still callable by name: the base class, unnamed
        assert type(raised.value) is InboxRpcError and raised.value.name is None


def test_the_generator_check_reports_the_difference_in_both_declarations(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(GENERATOR), "--check", "--contract", str(changed_contract(tmp_path))],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "+++ clients/python/inbox_rpc_client/methods.pyi" in done.stderr
    assert "+    def frobnicate(self, *, x: int) -> InboxFrobnicateResult:" in done.stderr
    assert "+class FrobnicationRefused(InboxRpcError):" in done.stderr
    assert "+++ clients/node/contract.d.ts" in done.stderr
    assert '+  "inbox.frobnicate": { params: InboxFrobnicateParams; result: InboxFrobnicateResult };' in done.stderr
    assert '| "FrobnicationRefused"' in done.stderr


def test_the_regenerated_declarations_type_check_the_new_call(tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(REPO_ROOT / "clients" / "python" / "inbox_rpc_client", out / "clients" / "python" / "inbox_rpc_client")
    contract = changed_contract(tmp_path)
    written = subprocess.run([sys.executable, str(GENERATOR), "--contract", str(contract), "--out", str(out)],
                             capture_output=True, text=True, timeout=60)
    assert written.returncode == 0, written.stderr
    check = subprocess.run([sys.executable, str(GENERATOR), "--check", "--contract", str(contract), "--out", str(out)],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr
    (tmp_path / "ts").mkdir()
    assert tsc(out / "clients" / "node" / "contract.d.ts", TS_USE, tmp_path / "ts").returncode == 0
    assert tsc(REPO_ROOT / "clients" / "node" / "contract.d.ts", TS_USE, tmp_path / "ts").returncode != 0
    assert mypy(out / "clients" / "python", PYTHON_USE, tmp_path).returncode == 0
    before = mypy(REPO_ROOT / "clients" / "python", PYTHON_USE, tmp_path)
    assert '"Client" has no attribute "inbox"' in before.stdout, before.stdout
