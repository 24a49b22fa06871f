"""The store is the user's alone: a store file, `-wal` or `-shm` that another user owns or can write,
a symbolic link, or a directory others can write without the sticky bit is refused (exit 3, saying
why); one others can only read is made 0600 with a warning; an empty file adopted as a store is made
0600. The other-user cases need root (to create files as `nobody` with setpriv, or chown them) and
skip elsewhere, saying so."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
import time

import pytest

from conftest import BIN

NOBODY = 65534


@pytest.fixture
def place():
    path = tempfile.mkdtemp(prefix="inbox-trust-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def start(store: str) -> subprocess.CompletedProcess:
    """Runs a server on `store` until end of input (one ping)."""
    ping = b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}\n'
    return subprocess.run([BIN, "--store", store], input=ping, capture_output=True, timeout=30)


def make_store(path: str) -> None:
    run = start(path)
    assert run.returncode == 0, run.stderr


def mode(path: str) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def assert_refused(run: subprocess.CompletedProcess, *words: str) -> None:
    text = run.stderr.decode()
    assert run.returncode == 3, (run.returncode, text)
    assert run.stdout == b"", run.stdout
    assert "refusing the store" in text and "move it away" in text, text
    for word in words:
        assert word in text, (word, text)


def remove_companion(path: str) -> None:
    """The signal file stays beside a closed store: a test that plants its own removes it first."""
    if os.path.lexists(path):
        os.remove(path)


def as_other_user() -> None:
    """Skips (printing why) unless this process can act as another user."""
    reason = None
    if os.geteuid() != 0:
        reason = "needs root to create or own files as another user (uid 65534)"
    elif shutil.which("setpriv") is None:
        reason = "needs setpriv (util-linux) to act as another user"
    if reason:
        print(f"skipped: {reason}")
        pytest.skip(reason)


# -- the user's own files ------------------------------------------------------------------------


def test_a_store_others_can_write_is_refused_and_left_as_it_is(place):
    path = os.path.join(place, "inbox.sqlite")
    make_store(path)
    os.chmod(path, 0o666)
    before = open(path, "rb").read()
    assert_refused(start(path), "written by other users", "0666")
    assert mode(path) == 0o666 and open(path, "rb").read() == before


def test_a_store_others_can_read_is_made_private_with_a_warning(place):
    path = os.path.join(place, "inbox.sqlite")
    make_store(path)
    os.chmod(path, 0o644)
    run = start(path)
    assert run.returncode == 0, run.stderr
    assert b"could be read by other users (mode 0644); it is now 0600" in run.stderr
    assert mode(path) == 0o600


def test_an_empty_file_adopted_as_a_new_store_becomes_0600(place):
    path = os.path.join(place, "inbox.sqlite")
    with open(path, "wb"):
        pass
    os.chmod(path, 0o644)
    assert start(path).returncode == 0
    assert mode(path) == 0o600
    assert open(path, "rb").read(16) == b"SQLite format 3\x00"


def test_a_new_store_is_0600_in_a_0700_directory(place):
    path = os.path.join(place, "deeper", "inbox.sqlite")
    assert start(path).returncode == 0
    assert mode(path) == 0o600 and mode(os.path.dirname(path)) == 0o700


def test_a_symbolic_link_as_the_store_is_refused_and_its_target_untouched(place):
    target = os.path.join(place, "target")
    with open(target, "wb"):
        pass
    os.chmod(target, 0o644)
    link = os.path.join(place, "inbox.sqlite")
    os.symlink(target, link)
    assert_refused(start(link), "symbolic link")
    assert os.path.getsize(target) == 0 and mode(target) == 0o644


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-signal"])
def test_a_companion_file_that_is_a_link_or_writable_by_others_is_refused(place, suffix):
    path = os.path.join(place, "inbox.sqlite")
    make_store(path)
    companion = path + suffix
    remove_companion(companion)
    elsewhere = os.path.join(place, "elsewhere")
    with open(elsewhere, "wb"):
        pass
    os.symlink(elsewhere, companion)
    assert_refused(start(path), companion, "symbolic link")
    os.remove(companion)
    with open(companion, "wb"):
        pass
    os.chmod(companion, 0o662)
    assert_refused(start(path), companion, "written by other users")


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-signal"])
def test_a_companion_file_others_can_read_is_made_private_with_a_warning(place, suffix):
    path = os.path.join(place, "inbox.sqlite")
    make_store(path)
    remove_companion(path + suffix)
    with open(path + suffix, "wb"):
        pass
    os.chmod(path + suffix, 0o644)
    run = start(path)
    assert run.returncode == 0, run.stderr
    assert f"{path}{suffix} could be read by other users (mode 0644); it is now 0600".encode() in run.stderr


@pytest.mark.parametrize("kind", ["fifo", "directory"])
@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-signal"])
def test_a_companion_that_is_a_fifo_or_a_directory_is_refused(place, suffix, kind):
    path = os.path.join(place, "inbox.sqlite")
    make_store(path)
    companion = path + suffix
    remove_companion(companion)
    if kind == "fifo":
        os.mkfifo(companion, 0o600)
    else:
        os.mkdir(companion, 0o700)
    assert_refused(start(path), companion, "not a regular file")


def test_a_directory_others_can_write_is_refused_unless_sticky(place):
    shared = os.path.join(place, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o777)
    path = os.path.join(shared, "inbox.sqlite")
    assert_refused(start(path), "the directory", "no sticky bit")
    assert not os.path.exists(path)
    os.chmod(shared, 0o1777)
    assert start(path).returncode == 0
    assert mode(path) == 0o600


# -- another user's files (root only) --------------------------------------------------------------


def run_as_nobody(script: str) -> None:
    subprocess.run(
        ["setpriv", "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups", "sh", "-c", script],
        check=True, timeout=10,
    )


@pytest.fixture
def shared_tmp(place):
    """A world-writable sticky directory, like /tmp."""
    os.chmod(place, 0o1777)
    return place


def test_an_empty_file_another_user_planted_is_not_adopted(shared_tmp):
    as_other_user()
    path = os.path.join(shared_tmp, "inbox.sqlite")
    run_as_nobody(f"umask 0; : > '{path}'")
    assert os.stat(path).st_uid == NOBODY
    assert_refused(start(path), "another user (uid 65534)")
    assert os.path.getsize(path) == 0 and os.stat(path).st_uid == NOBODY


def test_another_users_store_is_refused_even_at_mode_0600(shared_tmp):
    as_other_user()
    path = os.path.join(shared_tmp, "inbox.sqlite")
    make_store(path)
    os.chown(path, NOBODY, NOBODY)
    assert_refused(start(path), "another user (uid 65534)")


def test_a_wal_another_user_planted_is_refused(shared_tmp):
    as_other_user()
    path = os.path.join(shared_tmp, "inbox.sqlite")
    make_store(path)
    run_as_nobody(f"umask 077; : > '{path}-wal'")
    assert_refused(start(path), f"{path}-wal", "another user (uid 65534)")


def test_a_directory_another_user_owns_is_refused(place):
    as_other_user()
    theirs = os.path.join(place, "theirs")
    os.mkdir(theirs, 0o755)
    os.chown(theirs, NOBODY, NOBODY)
    assert_refused(start(os.path.join(theirs, "inbox.sqlite")), "the directory", "another user (uid 65534)")


def test_a_store_another_user_made_cannot_point_the_sync_at_their_port(shared_tmp, other_user_bin):
    """The whole attack: `nobody` makes a store in a shared directory with a clear-text backend URL
    of theirs saved in it; the victim's server refuses the store before reading a setting."""
    as_other_user()
    path = os.path.join(shared_tmp, "inbox.sqlite")
    save = ('{"jsonrpc":"2.0","id":1,"method":"config.set","params":{"backend":'
            '{"baseUrl":"http://127.0.0.1:9/json/1.3/","application":"APP-12345"}}}')
    run_as_nobody(f"umask 0; echo '{save}' | '{other_user_bin}' --store '{path}' --backend-url http://127.0.0.1:9/json/1.3/ "
                  f"> /dev/null 2>&1")
    assert os.stat(path).st_uid == NOBODY and os.path.getsize(path) > 0
    env = {**os.environ, "INBOX_RPC_API_TOKEN": "victim-token"}
    run = subprocess.run([BIN, "--store", path, "--application", "APP-12345"], input=b"", capture_output=True,
                         timeout=30, env=env)
    assert_refused(run, "another user (uid 65534)")


def test_a_signal_file_another_user_planted_is_refused(shared_tmp):
    as_other_user()
    path = os.path.join(shared_tmp, "inbox.sqlite")
    make_store(path)
    remove_companion(path + "-signal")
    run_as_nobody(f"umask 0; : > '{path}-signal'")
    assert_refused(start(path), f"{path}-signal", "another user (uid 65534)")
    assert os.stat(path + "-signal").st_uid == NOBODY


def test_another_users_lock_on_the_store_directory_does_not_stop_the_server(place):
    as_other_user()
    os.chmod(place, 0o755)  # others may open it (and so lock it), as a home directory often is
    path = os.path.join(place, "inbox.sqlite")
    make_store(path)
    holder = subprocess.Popen(
        ["setpriv", "--reuid", str(NOBODY), "--regid", str(NOBODY), "--clear-groups",
         "flock", "-x", place, "sleep", "120"])
    try:
        # Held by now, or the test would prove nothing.
        deadline = time.monotonic() + 10
        while subprocess.run(["flock", "-n", "-s", place, "true"]).returncode == 0:
            assert time.monotonic() < deadline, "the other user's lock was not taken"
            time.sleep(0.05)
        run = start(path)
        assert run.returncode == 0, run.stderr
        assert b'"result"' in run.stdout
    finally:
        holder.kill()
        holder.wait(5)


def test_a_new_store_beside_a_log_of_another_is_refused_until_that_store_is_back(place):
    path = os.path.join(place, "inbox.sqlite")
    # A server killed after a change leaves its frames in the -wal; the store is then moved alone.
    server = subprocess.Popen([BIN, "--store", path, "--sample-feed"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    server.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"message.dismiss","params":{"id":"welcome"}}\n')
    server.stdin.flush()
    while b'"id":1' not in server.stdout.readline():  # the reply, after the feed.changed it reports
        pass
    server.kill()
    server.wait(5)
    assert os.path.getsize(path + "-wal") > 0
    os.rename(path, path + ".moved")
    refused = start(path)
    text = refused.stderr.decode()
    assert refused.returncode == 3 and f"{path}-wal holds changes of another store" in text, text
    assert os.path.getsize(path) == 0
    os.replace(path + ".moved", path)
    counts = subprocess.run([BIN, "--store", path], capture_output=True, timeout=30,
                            input=b'{"jsonrpc":"2.0","id":1,"method":"feed.counts"}\n')
    assert counts.returncode == 0 and b'"total":9' in counts.stdout, counts  # the dismissal is there
