"""What a host sees from a damaged, truncated or foreign store file, after a clean and after an
unclean end of the last server (a write-ahead log left beside the store); and the store's other
refusals: a file-size limit, the store deleted while open, two servers creating one store."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import time

import pytest

from conftest import HANG
from test_store import T0, backend_message, ingest, open_server

STORE_FAILURE = -32020


@pytest.fixture
def store_dir():
    path = tempfile.mkdtemp(prefix="inbox-damage-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def digest(path: str) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def made_store(path: str, count: int = 400) -> None:
    server = open_server(path)
    ingest(server, [backend_message(i) for i in range(count)])
    server.close_stdin()
    assert server.wait_exit()[0] == 0
    assert not os.path.exists(path + "-wal"), "a clean end removes the write-ahead log"


def flip_table_pages(path: str) -> None:
    with open(path, "r+b") as f:
        f.seek(8192)
        f.write(b"\xa5" * 16384)


def session(path: str, requests: list[tuple[str, dict]]) -> tuple[int, list[dict]]:
    """Runs one server over `requests` (NDJSON, then end of input); its exit code and its replies."""
    lines = b"".join(
        json.dumps({"jsonrpc": "2.0", "id": i, "method": m, "params": p}).encode() + b"\n"
        for i, (m, p) in enumerate(requests))
    done = subprocess.run([os.environ["INBOX_RPC_BIN"], "--store", path],
                          input=lines, capture_output=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, [r for r in replies if "id" in r]


REQUESTS = [
    ("rpc.ping", {}),
    ("feed.list", {"limit": 200}),
    ("feed.list", {"limit": 200}),
    ("message.dismiss", {"id": "m0001"}),
    ("feed.counts", {}),
]


def unclean(path: str) -> None:
    """What a server killed with SIGKILL leaves: the write-ahead log beside the store."""
    open(path + "-wal", "ab").close()


@pytest.mark.parametrize("ending", ["clean", "unclean"])
def test_flipped_bytes_in_table_pages_fail_every_store_request_and_nothing_is_written(store_dir, ending):
    path = os.path.join(store_dir, "inbox.sqlite")
    made_store(path)
    flip_table_pages(path)
    if ending == "unclean":
        unclean(path)
    before = digest(path)
    code, replies = session(path, REQUESTS)
    assert code == 0
    assert replies[0]["result"] == "pong", "the server stays up and answers what needs no store"
    errors = [r for r in replies[1:] if "error" in r]
    # The damage is met by the first read that reaches it (clean) or by the background check
    # (unclean, which the dismiss waits for); from then on every store request fails the same way.
    assert errors and all(e["error"]["code"] == STORE_FAILURE for e in errors), replies
    assert all(e["error"]["data"]["kind"] == "corrupt" for e in errors)
    first = replies.index(errors[0])
    assert all("error" in r for r in replies[first:]), replies
    assert "error" in replies[3], "a write into a damaged store is refused"
    assert digest(path) == before, "nothing is written into a damaged store"


@pytest.mark.parametrize("ending", ["clean", "unclean"])
def test_a_truncated_store_is_refused_at_open(store_dir, ending):
    path = os.path.join(store_dir, "inbox.sqlite")
    made_store(path)
    os.truncate(path, 12288)
    if ending == "unclean":
        unclean(path)
    before = digest(path)
    code, replies = session(path, REQUESTS)
    assert code == 4 and replies == []
    assert digest(path) == before


@pytest.mark.parametrize("ending", ["clean", "unclean"])
@pytest.mark.parametrize("mode", ["delete", "wal"])
def test_another_programs_sqlite_database_is_refused_untouched(store_dir, ending, mode):
    path = os.path.join(store_dir, "other.sqlite")
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA journal_mode={mode}")
    connection.execute("CREATE TABLE contacts (name TEXT)")
    connection.execute("INSERT INTO contacts VALUES ('ada')")
    connection.commit()
    connection.close()
    if ending == "unclean":
        unclean(path)
    before = digest(path)
    code, replies = session(path, REQUESTS)
    assert code == 4 and replies == []
    assert digest(path) == before, "header bytes or journal mode changed"
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == mode
    connection.close()


def test_an_unclean_end_checks_in_the_background_and_serves_a_sound_store(store_dir):
    path = os.path.join(store_dir, "inbox.sqlite")
    server = open_server(path)
    ingest(server, [backend_message(i) for i in range(300)])
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait()
    assert os.path.exists(path + "-wal")
    code, replies = session(path, REQUESTS)
    assert code == 0 and all("result" in r for r in replies), replies
    # The write waits for the check's verdict in the scheduler, not on a thread: the reads behind
    # it may be answered first.
    assert {r["id"]: r for r in replies}[3]["result"] == {"dismissed": True}
    assert not os.path.exists(path + "-wal"), "a completed check and a clean end leave no log"


def test_a_file_size_limit_is_a_store_error_not_a_crash(store_dir):
    path = os.path.join(store_dir, "inbox.sqlite")
    big = "x" * 4000
    lines = b"".join(
        json.dumps({"jsonrpc": "2.0", "id": i, "method": "message.ingest",
                    "params": {"payload": {**backend_message(i), "text": big}}}).encode() + b"\n"
        for i in range(300)) + b'{"jsonrpc":"2.0","id":"ping","method":"rpc.ping"}\n'

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (512 * 1024, 512 * 1024))

    done = subprocess.run([os.environ["INBOX_RPC_BIN"], "--store", path, "--test-clock", str(T0)], input=lines,
                          capture_output=True, timeout=120, preexec_fn=limit)
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    errors = [r for r in replies if "error" in r]
    assert errors and errors[0]["error"]["code"] == STORE_FAILURE and errors[0]["error"]["data"]["kind"] == "full"
    assert replies[-1] == {"jsonrpc": "2.0", "id": "ping", "result": "pong"}


def test_writes_after_the_store_directory_was_deleted_are_refused(store_dir):
    path = os.path.join(store_dir, "sub", "inbox.sqlite")
    server = open_server(path)
    ingest(server, [backend_message(i) for i in range(3)])
    shutil.rmtree(os.path.dirname(path))
    reply = server.call("message.dismiss", {"id": "m0001"})
    assert reply["error"]["code"] == STORE_FAILURE and reply["error"]["data"]["kind"] == "fileGone", reply
    reply = server.call("message.ingest", {"payload": backend_message(9)})
    assert reply["error"]["data"]["kind"] == "fileGone"
    server.close_stdin()
    server.wait_exit()


def test_two_servers_creating_one_store_both_start(store_dir):
    for trial in range(30):
        path = os.path.join(store_dir, f"new-{trial}.sqlite")
        ping = b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}\n'
        procs = [subprocess.Popen([os.environ["INBOX_RPC_BIN"], "--store", path], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
        results = [p.communicate(ping, timeout=30) for p in procs]
        codes = [p.returncode for p in procs]
        assert codes == [0, 0], (trial, codes, [r[1][-300:] for r in results])


def test_a_write_waiting_for_another_process_lock_holds_up_no_read_or_ping(store_dir):
    path = os.path.join(store_dir, "inbox.sqlite")
    server = open_server(path)
    ingest(server, [backend_message(i) for i in range(5)])
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")  # another process's write lock
    try:
        server.send({"jsonrpc": "2.0", "id": "w1", "method": "message.dismiss", "params": {"id": "m0001"}})
        server.send({"jsonrpc": "2.0", "id": "w2", "method": "message.markRead", "params": {"ids": ["m0002"]}})
        # Order, not speed: each read's reply is the next frame (call checks its id), ahead of the
        # stalled writes' replies, which cannot come before the lock is released or times out.
        for method, params in [("rpc.ping", None), ("feed.counts", {}), ("feed.list", {"limit": 10}),
                               ("message.get", {"id": "m0003"})]:
            reply = server.call(method, params) if params is not None else server.call(method)
            assert "result" in reply, reply
        assert reply["result"]["id"] == "m0003"
    finally:
        other.execute("ROLLBACK")
        other.close()
    replies = {r["id"]: r for r in (server.recv(timeout=10), server.recv(timeout=10))}
    assert replies["w1"]["result"] == {"dismissed": True}, replies
    assert "result" in replies["w2"], replies
    assert server.call("feed.counts")["result"]["total"] == 4
    server.close_stdin()
    server.wait_exit()


def test_another_sqlite_client_closing_leaves_the_running_servers_log_in_place(store_dir):
    # SQLite holds a shared lock on the store file while a connection has it open in WAL mode, which
    # tells another client's last connection, as it closes, that it is not the last. The server's
    # open once closed a descriptor of the file after SQLite's connection opened, which drops every
    # POSIX lock the process holds on it: the `sqlite3` shell or a backup script closing then
    # deleted the log under the server, and its later commits went unseen by every other process.
    path = os.path.join(store_dir, "inbox.sqlite")
    server = open_server(path)
    ingest(server, [backend_message(i) for i in range(3)])
    for _ in range(2):
        other = sqlite3.connect(path, isolation_level=None)
        assert other.execute("SELECT count(*) FROM messages").fetchone() == (3,)
        other.close()
        assert os.path.exists(path + "-wal") and os.path.exists(path + "-shm")
    assert server.call("message.dismiss", {"id": "m0001"})["result"] == {"dismissed": True}
    fresh = sqlite3.connect(path)
    assert dict(fresh.execute("SELECT id, status FROM messages"))["m0001"] == 4
    fresh.close()
    server.close_stdin()
    assert server.wait_exit()[0] == 0


def stored_statuses(path: str) -> dict[str, int]:
    """The statuses in the store file itself, read as it is on disk (no write-ahead log)."""
    with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as database:
        try:
            return dict(database.execute("SELECT id, status FROM messages"))
        except sqlite3.OperationalError:  # not even the schema checkpointed yet
            return {}


@pytest.mark.parametrize("when", ["before the watch", "after the first read"])
def test_a_store_moved_away_is_checkpointed_without_another_request(store_dir, when):
    # The server watches its file from a quarter second in (the watch costs every exit a grace
    # period), and checks at that moment for a rename it has missed; either way the changes the
    # write-ahead log holds reach the moved file with no request to find the rename.
    path = os.path.join(store_dir, "inbox.sqlite")
    server = open_server(path)
    ingest(server, [backend_message(i) for i in range(3)])
    assert server.call("message.dismiss", {"id": "m0001"})["result"] == {"dismissed": True}
    if when == "after the first read":
        assert server.call("feed.counts")["result"]["total"] == 2
    moved = path + ".moved"
    os.rename(path, moved)
    deadline = time.monotonic() + HANG
    while stored_statuses(moved).get("m0001") != 4:
        assert time.monotonic() < deadline, "the moved file never received the dismissal"
        time.sleep(0.02)
    server.close_stdin()
    assert server.wait_exit()[0] == 0
    assert stored_statuses(moved)["m0001"] == 4


def test_a_store_replaced_before_the_first_read_is_not_read(store_dir):
    # The reading connection opens at the first read, by the store's path: a store replaced before
    # then (another file under the name) must not be read in place of the one the server opened.
    path = os.path.join(store_dir, "inbox.sqlite")
    server = open_server(path)  # made, and not read yet
    elsewhere = os.path.join(store_dir, "elsewhere.sqlite")
    other = open_server(elsewhere)
    ingest(other, [backend_message(i) for i in range(7)])
    other.close_stdin()
    assert other.wait_exit()[0] == 0
    os.rename(path, path + ".moved")
    os.rename(elsewhere, path)
    reply = server.call("feed.list", {"limit": 10})
    assert reply["error"]["code"] == STORE_FAILURE and reply["error"]["data"]["kind"] == "fileGone", reply
    server.close_stdin()
    assert server.wait_exit()[0] == 0
    assert len(stored_statuses(path)) == 7, "the other store is left as it was"
