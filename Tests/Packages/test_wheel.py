"""The Python wheel, installed with pip into a fresh virtualenv from the file alone (no index): the
`inbox-rpc` command on PATH, the binary finding jansson and SQLite inside the wheel, the client
starting the packaged server without INBOX_RPC_BIN, the README tour against it, and the tag
auditwheel gave it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from package_support import REPO_ROOT, VERSION, built, check_backend, check_feed_counts, check_version, run

WHEEL = built(f"inbox_rpc-{VERSION}-py3-none-manylinux_*_x86_64.whl")


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("INBOX", "PYTHON", "VIRTUAL_ENV"))}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("wheel") / "venv"
    run(sys.executable, "-m", "venv", str(root))
    run(str(root / "bin" / "pip"), "install", "--no-index", "--disable-pip-version-check", "-q", str(WHEEL),
        env=clean_env(PIP_NO_INDEX="1"))
    return root


@pytest.fixture(scope="module")
def site_packages(venv: Path) -> Path:
    return Path(run(str(venv / "bin" / "python"), "-c", "import inbox_rpc, os; print(os.path.dirname(os.path.dirname(inbox_rpc.__file__)))").stdout.strip())


def test_auditwheel_names_the_tag_the_wheel_carries() -> None:
    tag = re.search(r"-(manylinux_\d+_\d+_x86_64)\.whl$", WHEEL.name).group(1)
    shown = run(str(REPO_ROOT / ".venv-package" / "bin" / "auditwheel"), "show", str(WHEEL)).stdout
    assert f'following platform tag: "{tag}"' in " ".join(shown.split()), shown


def test_the_command_on_path_is_the_server(venv: Path, tmp_path: Path) -> None:
    command = str(venv / "bin" / "inbox-rpc")
    check_version(command, env=clean_env())
    check_feed_counts(command, tmp_path / "inbox.sqlite", env=clean_env())
    check_backend(command, env=clean_env())


def test_the_binary_finds_jansson_inside_the_wheel(site_packages: Path) -> None:
    binary = site_packages / "inbox_rpc" / "inbox-rpc"
    resolved = dict(re.findall(r"^\s*(\S+) => (\S+)", run("ldd", str(binary)).stdout, re.MULTILINE))
    [path] = [p for name, p in resolved.items() if name.startswith("libjansson")]
    assert Path(path).resolve().is_relative_to((site_packages / "inbox_rpc.libs").resolve()), path
    assert not [p for n, p in resolved.items() if n.startswith("libjansson") and p.startswith(("/usr/lib", "/lib"))]
    assert not [n for n in resolved if n.startswith("libsqlite3")], "SQLite is linked in (Sources/CSQLite)"


def test_the_client_starts_the_packaged_server_without_inbox_rpc_bin(venv: Path, site_packages: Path, tmp_path: Path) -> None:
    script = (
        "import json\n"
        "from inbox_rpc_client import Client, find_server\n"
        f"with Client(store={str(tmp_path / 'inbox.sqlite')!r}, sample_feed=True) as inbox:\n"
        "    try:\n"
        "        inbox.message.get(id='nope')\n"
        "    except inbox.errors.MessageNotFound as error:\n"
        "        name = error.name\n"
        "    print(json.dumps({'binary': inbox.command[0], 'counts': inbox.feed.counts(), 'error': name}))\n"
    )
    # PATH without the virtualenv's bin: the client finds the binary through its package.
    done = run(str(venv / "bin" / "python"), "-c", script, cwd=tmp_path, env=clean_env(PATH="/usr/bin:/bin"))
    out = json.loads(done.stdout)
    assert out["binary"] == str(site_packages / "inbox_rpc" / "inbox-rpc")
    assert out["counts"]["total"] == 10
    assert out["error"] == "MessageNotFound", "the contract comes from the packaged server, offline"
    assert (site_packages / "inbox_rpc_client" / "methods.pyi").is_file(), "the editor types are in the wheel"


def test_the_readme_tour_runs_against_the_installed_server(venv: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir=.", "clients/shell/tests/test_readme_tour.py"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
        env=clean_env(INBOX_RPC_TOUR_PATH=str(venv / "bin")),
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout, done.stdout


def test_the_registry_launch_starts_the_mcp_face_of_the_installed_command(venv: Path) -> None:
    # What `uvx inbox-rpc mcp` runs: the package's command with server.json's package arguments.
    entry = json.loads((REPO_ROOT / "server.json").read_text())
    arguments = [a["value"] for a in entry["packages"][0]["packageArguments"]]
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "host", "version": "1"}}}
    done = run(str(venv / "bin" / "inbox-rpc"), *arguments, "--store", ":memory:", input=json.dumps(request) + "\n",
               env=clean_env())
    result = json.loads(done.stdout.splitlines()[0])["result"]
    assert result["serverInfo"]["name"] == "inbox-rpc" and result["serverInfo"]["version"] == VERSION
    assert "tools" in result["capabilities"]
