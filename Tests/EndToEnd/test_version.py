"""One release number, from VERSION, everywhere the server says it; and `--version` names the C
libraries the process loaded, as the machine's pkg-config describes what is installed."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import BIN, REPO_ROOT, run_cli

with open(os.path.join(REPO_ROOT, "VERSION"), encoding="utf-8") as f:
    VERSION = f.read().strip()


def modversion(package: str) -> str:
    return subprocess.run(["pkg-config", "--modversion", package], capture_output=True, text=True, check=True).stdout.strip()


def version_json(**env: str) -> dict:
    done = subprocess.run([BIN, "--version", "--json"], capture_output=True, text=True, timeout=10, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1, "one JSON object on one line"
    return json.loads(done.stdout)


def test_version_names_the_release_and_the_libraries_in_use() -> None:
    done = run_cli("--version")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines == [
        f"inbox-rpc {VERSION}",
        f"SQLite {modversion('sqlite3')}",
        f"jansson {modversion('jansson')}",
        f"libcurl {modversion('libcurl')}",
    ]


def test_version_json_lists_the_loaded_libraries() -> None:
    report = version_json()
    assert report == {
        "name": "inbox-rpc",
        "version": VERSION,
        "protocolVersion": report["protocolVersion"],
        "libraries": {"sqlite": modversion("sqlite3"), "jansson": modversion("jansson"), "libcurl": modversion("libcurl")},
    }
    assert isinstance(report["protocolVersion"], str) and report["protocolVersion"]


def test_version_without_libcurl_says_why_and_still_succeeds() -> None:
    report = version_json(INBOX_RPC_LIBCURL="libcurl-not-installed.so.4")
    assert report["libraries"]["libcurl"] is None
    assert "libcurl-not-installed.so.4" in report["libcurlMissing"]
    assert report["libraries"]["sqlite"] == modversion("sqlite3")
    text = subprocess.run([BIN, "--version"], capture_output=True, text=True, env={**os.environ, "INBOX_RPC_LIBCURL": "libcurl-not-installed.so.4"})
    assert text.returncode == 0
    assert text.stdout.splitlines()[-1].startswith("libcurl not loaded (libcurl-not-installed.so.4"), text.stdout


def test_json_without_version_is_a_usage_error() -> None:
    done = run_cli("--json")
    assert done.returncode == 2
    assert b"--json goes with --version" in done.stderr
    assert done.stdout == b""


@pytest.mark.parametrize("framing", ["ndjson"])
def test_discover_and_initialize_carry_the_release_number(spawn, framing) -> None:
    server = spawn(framing=framing)
    assert server.call("rpc.discover")["result"]["info"]["version"] == VERSION
    assert server.call("initialize")["result"]["serverInfo"] == {"name": "inbox-rpc", "version": VERSION}


def test_the_composed_contract_takes_its_version_from_the_version_file() -> None:
    with open(os.path.join(REPO_ROOT, "Schemas", "openrpc.json"), encoding="utf-8") as f:
        assert json.load(f)["info"]["version"] == VERSION
    with open(os.path.join(REPO_ROOT, "Schemas", "methods.json"), encoding="utf-8") as f:
        assert "version" not in json.load(f)["info"], "VERSION is the one place the number is written"


def test_the_client_package_carries_the_release_number() -> None:
    import tomllib

    with open(os.path.join(REPO_ROOT, "clients", "python", "pyproject.toml"), "rb") as f:
        assert tomllib.load(f)["project"]["version"] == VERSION
