"""Which server the shell client starts: the one it is told to run (--bin, INBOX_RPC_BIN), else
`inbox-rpc` on PATH, else, when INBOX_RPC_BUILD asks for it, the build of the checkout holding the
script; never a build because it lies in the current directory, which may be anyone's repository.

Each binary is a script that leaves a mark in a file when run (and starts the real server when it
stands for one that should be run), so a test sees which ran, not only which was named."""

from __future__ import annotations

import atexit
import json
import shutil
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Dict

from shell_support import INBOX
from shell_support import base_env, server_bin, store, watchdog  # noqa: F401  (fixtures)

from client_test_fixtures import plant  # noqa: E402  (shell_support puts clients/ on sys.path)

def bare_path() -> str:
    """A directory of /usr/bin's and /bin's programs (jq, the shell's tools) but inbox-rpc: the suite
    installs the .deb beside these tests, so /usr/bin may hold one for a while."""
    directory = Path(tempfile.gettempdir()) / f"inbox-rpc-bare-path-{os.getpid()}"
    if not directory.is_dir():
        directory.mkdir()
        atexit.register(shutil.rmtree, directory, True)
        for place in (Path("/bin"), Path("/usr/bin")):
            for program in place.iterdir():
                link = directory / program.name
                if not program.name.startswith("inbox-rpc") and not link.exists():
                    link.symlink_to(program)
    return str(directory)


BARE_PATH = bare_path()


def run(script: Path, env: Dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(script), *args, "--json", "feed.counts"], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_a_build_in_the_current_directory_is_never_run(base_env: Dict[str, str], tmp_path: Path) -> None:
    mark, theirs = tmp_path / "ran", tmp_path / "their-checkout"
    for build in ("release", "debug"):
        plant(theirs / ".build" / build / "inbox-rpc", mark)
    env = {k: v for k, v in base_env.items() if k != "INBOX_RPC_BIN"}
    env["PATH"] = BARE_PATH
    for asked in ({}, {"INBOX_RPC_BUILD": "1"}):  # the script's checkout (this one) has no build in the way: copy it
        copy = tmp_path / "client" / "clients" / "shell"
        copy.mkdir(parents=True, exist_ok=True)
        for name in ("inbox", "views.sh"):
            shutil.copy(INBOX.parent / name, copy / name)
        done = run(copy / "inbox", {**env, **asked}, theirs)
        assert done.returncode == 3 and "inbox-rpc not found" in done.stderr and "INBOX_RPC_BUILD=1" in done.stderr, done.stderr
    assert not mark.exists(), mark.read_text()


def test_the_told_binary_then_path_s_are_run(base_env: Dict[str, str], server_bin: str, store: str, tmp_path: Path) -> None:
    mark, here = tmp_path / "ran", tmp_path / "here"
    plant(here / ".build" / "release" / "inbox-rpc", mark)
    told = plant(tmp_path / "told" / "inbox-rpc", mark, f"exec '{server_bin}' \"$@\"")
    on_path = plant(tmp_path / "bin" / "inbox-rpc", mark, f"exec '{server_bin}' \"$@\"")
    env = {**base_env, "INBOX_STORE": store, "INBOX_RPC_BUILD": "1", "PATH": f"{on_path.parent}:{BARE_PATH}"}
    env["INBOX_RPC_BIN"] = str(told)
    assert run(INBOX, env, here).returncode == 0
    del env["INBOX_RPC_BIN"]
    assert run(INBOX, env, here, "--bin", str(told)).returncode == 0
    assert run(INBOX, env, here).returncode == 0, "PATH's before the checkout's build"
    assert mark.read_text().splitlines() == [str(told), str(told), str(on_path)]


def test_the_checkout_s_build_is_run_when_asked(base_env: Dict[str, str], server_bin: str, store: str, tmp_path: Path) -> None:
    mark, checkout, elsewhere = tmp_path / "ran", tmp_path / "checkout", tmp_path / "elsewhere"
    (checkout / "clients" / "shell").mkdir(parents=True)
    elsewhere.mkdir()
    for name in ("inbox", "views.sh"):
        shutil.copy(INBOX.parent / name, checkout / "clients" / "shell" / name)
    debug = plant(checkout / ".build" / "debug" / "inbox-rpc", mark, f"exec '{server_bin}' \"$@\"")
    env = {k: v for k, v in base_env.items() if k != "INBOX_RPC_BIN"}
    env.update(INBOX_STORE=store, PATH=BARE_PATH)
    script = checkout / "clients" / "shell" / "inbox"
    assert run(script, env, elsewhere).returncode == 3, "not asked: not run"
    done = run(script, {**env, "INBOX_RPC_BUILD": "1"}, elsewhere)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 0  # the real server, on the fresh store
    plant(checkout / ".build" / "release" / "inbox-rpc", mark, f"exec '{server_bin}' \"$@\"")
    assert run(script, {**env, "INBOX_RPC_BUILD": "1"}, elsewhere).returncode == 0
    assert mark.read_text().splitlines() == [str(debug), str(checkout / ".build" / "release" / "inbox-rpc")]
