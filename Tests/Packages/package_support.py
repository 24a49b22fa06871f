"""What the package tests share: the built packages (script/package puts them in .build/packages),
the release number, and the checks both installed binaries must pass."""

from __future__ import annotations

import glob
import json
import os
import subprocess
from pathlib import Path
from typing import List

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = REPO_ROOT / ".build" / "packages"
VERSION = (REPO_ROOT / "VERSION").read_text().strip()


def built(pattern: str) -> Path:
    """The one package in .build/packages matching `pattern`; a missing one fails, never skips."""
    found = glob.glob(str(PACKAGES / pattern))
    assert len(found) == 1, f"expected one {pattern} in {PACKAGES} (run script/package), found {found}"
    return Path(found[0])


def run(*command: str, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(list(command), capture_output=True, text=True, timeout=120, **kwargs)
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def as_root(*command: str) -> List[str]:
    return list(command) if os.geteuid() == 0 else ["sudo", *command]


def modversion(package: str) -> str:
    return run("pkg-config", "--modversion", package).stdout.strip()


def check_version(binary: str, env: dict = None) -> None:
    """`--version` names the release; `--version --json` the libraries loaded, which are the versions
    of those installed here (the wheel carries copies of this machine's jansson and SQLite)."""
    assert run(binary, "--version", env=env).stdout.splitlines()[0] == f"inbox-rpc {VERSION}"
    report = json.loads(run(binary, "--version", "--json", env=env).stdout)
    assert report["version"] == VERSION
    assert report["libraries"] == {
        "sqlite": modversion("sqlite3"), "jansson": modversion("jansson"), "libcurl": modversion("libcurl")
    }


def check_feed_counts(binary: str, store: Path, env: dict = None) -> None:
    """One `feed.counts` round trip over stdio, on a store seeded with the sample feed."""
    request = '{"jsonrpc":"2.0","id":1,"method":"feed.counts"}\n'
    done = run(binary, "--store", str(store), "--sample-feed", input=request, env=env)
    assert json.loads(done.stdout) == {
        "jsonrpc": "2.0", "id": 1, "result": {"total": 10, "unread": 10, "unactioned": 10, "pinned": 1, "unseen": 10}
    }


def check_backend(binary: str, env: dict = None) -> None:
    """`inbox-rpc backend` (the backend double, on the system's libmicrohttpd) listens, prints its URL
    and answers getInboxMessages with the sample feed, then exits 0 when --for has elapsed."""
    import urllib.request

    proc = subprocess.Popen([binary, "backend", "--for", "30", "--log", os.devnull], stdout=subprocess.PIPE, env=env)
    try:
        url = proc.stdout.readline().decode().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/json/1.3/"), url
        body = json.dumps({"request": {"application": "A", "userId": "u"}}).encode()
        with urllib.request.urlopen(urllib.request.Request(url + "getInboxMessages", body), timeout=30) as reply:
            assert len(json.loads(reply.read())["response"]["messages"]) == 10
    finally:
        proc.kill()
        proc.wait(10)
