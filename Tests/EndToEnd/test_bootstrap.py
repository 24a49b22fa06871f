"""script/bootstrap installs by purpose: `script/server --help` on a fresh machine installs what
building and running the server needs and nothing else (no browser, editor or test tool), while
`script/bootstrap --test` brings the test tools. A fresh machine is played by stubs on PATH:
dpkg-query finds nothing installed, apt-get and sudo record what they are asked, swift builds
nothing; the server that runs is the one under test."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from conftest import BIN, REPO_ROOT

SERVER_PACKAGES = {"libjansson-dev", "libsqlite3-dev", "libcurl4-openssl-dev", "libminizip1", "libmicrohttpd-dev",
                   "pkg-config"}
EDITORS = {"emacs-nox", "elpa-eglot", "elpa-markdown-mode", "neovim"}
NOT_FOR_THE_SERVER = {"chromium", "lintian", "help2man", "valgrind", "nodejs",
                      "node-typescript", "microsocks", "shellcheck", "jq", "dpkg-dev"} | EDITORS


def stub(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@pytest.fixture
def fresh_machine(tmp_path):
    """A checkout's scripts beside the server under test, and a PATH whose package tools are stubs."""
    checkout = tmp_path / "checkout"
    shutil.copytree(Path(REPO_ROOT) / "script", checkout / "script", ignore=shutil.ignore_patterns("stubgen"))
    release = checkout / ".build" / "release"
    release.mkdir(parents=True)
    os.symlink(BIN, release / "inbox-rpc")
    tools = tmp_path / "bin"
    tools.mkdir()
    log = tmp_path / "apt.log"
    stub(tools, "dpkg-query", "exit 1\n")
    stub(tools, "apt-get", f'echo "$*" >>"{log}"\n')
    stub(tools, "sudo", 'exec "$@"\n')
    stub(tools, "swift", "exit 0\n")
    env = {**os.environ, "PATH": f"{tools}:{os.environ['PATH']}", "HOME": str(tmp_path / "home")}
    return checkout, env, log


def installed(log: Path) -> set[str]:
    """The packages `apt-get install` was asked for."""
    asked = set()
    for line in log.read_text().splitlines() if log.exists() else []:
        words = line.split()
        if "install" in words:
            asked |= {w for w in words[words.index("install") + 1:] if not w.startswith("-")}
    return asked


def test_the_servers_help_on_a_fresh_machine_installs_only_what_the_server_needs(fresh_machine):
    checkout, env, log = fresh_machine
    run = subprocess.run([checkout / "script" / "server", "--help"], env=env, capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr.decode()[-800:]
    assert run.stdout.startswith(b"inbox-rpc"), run.stdout[:200]
    assert installed(log) == SERVER_PACKAGES
    assert not installed(log) & NOT_FOR_THE_SERVER


def test_bootstrap_for_the_tests_brings_the_test_tools(fresh_machine):
    checkout, env, log = fresh_machine
    run = subprocess.run([checkout / "script" / "bootstrap", "--test"], env=env, capture_output=True, timeout=60)
    assert run.returncode == 0, run.stderr.decode()[-800:]
    assert installed(log) >= SERVER_PACKAGES | NOT_FOR_THE_SERVER
    # The editors come without their recommends (a desktop's worth a headless test never uses).
    lean = [line.split() for line in log.read_text().splitlines() if "--no-install-recommends" in line.split()]
    assert [set(words) & EDITORS for words in lean] == [EDITORS], log.read_text()


@pytest.mark.timeout(300)
def test_bootstrap_for_packaging_brings_the_packaging_tools_and_no_browser(fresh_machine):
    checkout, env, log = fresh_machine
    # The wheel's virtualenv is made with the real python; only the Debian packages are looked at here.
    env = {**env, "INBOX_RPC_VENV_CACHE": str(checkout / "venvs")}
    (checkout / "packaging").mkdir()
    (checkout / "packaging" / "requirements.txt").write_text("")
    run = subprocess.run([checkout / "script" / "bootstrap", "--package"], env=env, capture_output=True, timeout=280)
    assert run.returncode == 0, run.stderr.decode()[-800:]
    assert installed(log) == SERVER_PACKAGES | {"dpkg-dev", "help2man", "lintian"}


def test_bootstrap_refuses_an_unknown_purpose(fresh_machine):
    checkout, env, log = fresh_machine
    run = subprocess.run([checkout / "script" / "bootstrap", "--everything"], env=env, capture_output=True, timeout=60)
    assert run.returncode == 2 and b"usage: script/bootstrap" in run.stderr
    assert not log.exists()
