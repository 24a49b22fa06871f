"""An in-memory store (`--store :memory:`) is made only where another user cannot rename its
directory or put a link in its place: a parent others can write without the sticky bit is skipped
with a warning, and when none is left the server exits 3 saying why. Another user (`nobody`, played
with setpriv) then can neither take the store away nor make the clean-up at exit delete someone
else's files. The other-user cases need root and setpriv, and skip elsewhere, saying so."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile

import pytest

from conftest import BIN
from sync_support import SyncServer, push_payload, servers  # noqa: F401
from test_store_trust import NOBODY, as_other_user

PING = b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}\n'


def as_nobody(script: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "sh", "-c", script],
        capture_output=True, timeout=30,
    )


@pytest.fixture
def place():
    """A directory every user may enter, holding the shared parent and the victim's directory."""
    path = tempfile.mkdtemp(prefix="inbox-memory-trust-")
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def victim(place):
    """A directory of someone else's with a file in it, which no clean-up may touch."""
    path = os.path.join(place, "victim")
    os.mkdir(path, 0o755)
    with open(os.path.join(path, "precious"), "w") as out:
        out.write("keep me")
    return path


def shared(place: str, mode: int) -> str:
    path = os.path.join(place, "shared")
    os.mkdir(path)
    os.chmod(path, mode)
    return path


def memory_directories(parent: str) -> list[str]:
    return glob.glob(os.path.join(parent, "inbox-rpc-memory.*"))


def memory_server(parent: str, servers: list) -> SyncServer:
    """A server on an in-memory store with `parent` as `$XDG_RUNTIME_DIR`, one message ingested."""
    server = SyncServer(":memory:", [], env={"XDG_RUNTIME_DIR": parent}, clock=None)
    servers.append(server)
    assert server.call("rpc.ping") == "pong"
    server.call("message.ingest", {"payload": push_payload("kept")})
    return server


def swap_for_link(parent: str, target: str) -> str:
    """What `nobody` does to every in-memory store's directory in `parent`: rename it away and put
    a link to `target` in its place. Returns the shell's output (its refusals)."""
    run = as_nobody(
        f"for d in '{parent}'/inbox-rpc-memory.*; do [ -e \"$d\" ] || continue; "
        f"mv \"$d\" \"$d.gone\" && ln -s '{target}' \"$d\"; done; exit 0")
    return run.stderr.decode()


def test_a_parent_others_can_write_without_the_sticky_bit_is_skipped_and_the_attack_finds_nothing(
        place, victim, servers):
    """The reported attack: `nobody` swaps every in-memory store's directory in the parent for a link
    to a victim's while the server runs. The server made none there: it answers from its store to
    the end, exits 0, and the victim's files are all there."""
    as_other_user()
    parent = shared(place, 0o777)
    server = memory_server(parent, servers)
    assert memory_directories(parent) == [], os.listdir(parent)
    assert f"not in {parent} can be written by other users and has no sticky bit" in server.stderr_text()
    swap_for_link(parent, victim)
    # The store was not taken away: every later request is answered from it.
    assert server.call("feed.counts")["total"] == 1
    assert server.close() == 0
    assert os.listdir(victim) == ["precious"]


def test_in_a_sticky_parent_another_user_can_neither_move_the_directory_nor_link_in_its_place(
        place, victim, servers):
    as_other_user()
    parent = shared(place, 0o1777)
    server = memory_server(parent, servers)
    (directory,) = memory_directories(parent)
    assert os.stat(directory).st_mode & 0o777 == 0o700
    refusals = swap_for_link(parent, victim)
    assert "Operation not permitted" in refusals or "Permission denied" in refusals, refusals
    assert memory_directories(parent) == [directory] and not os.path.islink(directory)
    assert server.call("feed.counts")["total"] == 1
    assert server.close() == 0
    assert memory_directories(parent) == [], "the directory is removed at exit"
    assert os.listdir(victim) == ["precious"]


def test_a_leftover_name_that_is_a_link_is_not_followed_by_the_sweep(place, victim):
    """A name shaped like a leftover of a process that has gone, but a link to someone else's
    directory: the next in-memory store's sweep leaves it and what it points at alone."""
    parent = shared(place, 0o700)
    gone = subprocess.Popen(["true"])
    gone.wait()
    link = os.path.join(parent, f"inbox-rpc-memory.{gone.pid}.abcdef")
    os.symlink(victim, link)
    run = subprocess.run([BIN, "--store", ":memory:"], input=PING, capture_output=True, timeout=30,
                         env={**os.environ, "XDG_RUNTIME_DIR": parent})
    assert run.returncode == 0, run.stderr
    assert os.path.islink(link) and os.listdir(victim) == ["precious"]


def test_with_no_parent_left_the_server_exits_3_saying_why(place):
    """Every candidate (`$XDG_RUNTIME_DIR`, /dev/shm, `$TMPDIR`, /tmp) others may write without the
    sticky bit: /dev/shm and /tmp are covered by such a directory in a mount namespace of the run's
    own (root only)."""
    as_other_user()
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux) to cover /dev/shm and /tmp")
    parent = shared(place, 0o777)
    script = (f"mount --bind '{parent}' /dev/shm && mount --bind '{parent}' /tmp && "
              f"printf '%s\\n' '{PING.decode().strip()}' | '{BIN}' --store :memory:")
    run = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                         capture_output=True, timeout=30,
                         env={**os.environ, "XDG_RUNTIME_DIR": parent, "TMPDIR": parent})
    if b"mount" in run.stderr and run.returncode not in (0, 3):
        pytest.skip(f"cannot make a mount namespace here: {run.stderr.decode()[-300:]}")
    text = run.stderr.decode()
    assert run.returncode == 3, (run.returncode, text)
    assert "refusing to make an in-memory store" in text and "no sticky bit" in text, text
    assert "XDG_RUNTIME_DIR" in text, text
    assert run.stdout == b"", run.stdout
    assert memory_directories(parent) == []
