"""The persistent store over stdio: durability under SIGKILL, keyset paging, counts, expiry,
bad store files, two processes on one store, and the feed and message methods."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time

import pytest

import json

from conftest import BIN, Server, assert_error, frame
from other_user import as_nobody

T0 = 1_900_000_000  # a pinned clock: every message below is sent before it and expires after it


def backend_message(i: int, *, sent: int | None = None, pinned: bool = False, rt: int = T0 + 10**6) -> dict:
    params = {"u": {"pinned": True}} if pinned else {}
    return {
        "inbox_id": f"m{i:04d}", "order": str(1000 + i), "rt": str(rt),
        "send_date": str(sent if sent is not None else T0 - 10 * i), "title": f"Message {i}",
        "text": "Body", "action_type": 0, "action_params": json.dumps(params),
        "status": 1, "hash": f"H{i}",
    }


@pytest.fixture
def store_dir():
    path = tempfile.mkdtemp(prefix="inbox-e2e-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def open_server(path: str, *args: str, **kwargs) -> Server:
    """A server on a file store with its clock pinned at T0."""
    server = Server(["--store", path, *args], store=False, **kwargs)
    server.call("test.clock", {"now": T0})
    return server


def ingest(server: Server, messages: list[dict]) -> None:
    for start in range(0, len(messages), 500):
        chunk = messages[start : start + 500]
        batch = [
            {"jsonrpc": "2.0", "id": f"ingest-{start + k}", "method": "message.ingest", "params": {"payload": m}}
            for k, m in enumerate(chunk)
        ]
        server.send(batch)
        reply = server.recv(timeout=30)
        assert isinstance(reply, list) and len(reply) == len(chunk), reply
        assert all("result" in r for r in reply), [r for r in reply if "error" in r][:3]


def list_all(server: Server, limit: int = 50, **params) -> list[dict]:
    items, cursor = [], None
    while True:
        p = {"limit": limit, **params}
        if cursor:
            p["cursor"] = cursor
        result = server.call("feed.list", p)["result"]
        items += result["items"]
        cursor = result["nextCursor"]
        if cursor is None:
            return items


def feed_key(card: dict) -> tuple:
    """Pinned first, newest first (RFC 3339 UTC strings sort as times), ties by id ascending
    (docs/engine.md#feed-order)."""
    sent = card["sentAt"] or ""
    return (not card["pinned"], [-ord(c) for c in sent], card["id"])


# --------------------------------------------------------------------------
# Durability: every change whose reply was received survives SIGKILL.
# --------------------------------------------------------------------------

TRIALS = int(os.environ.get("DURABILITY_TRIALS", "50"))


@pytest.mark.timeout(600)
def test_sigkill_never_loses_an_acknowledged_change(store_dir):
    rng = random.Random(20261130)
    path = os.path.join(store_dir, "inbox.sqlite")
    seed = open_server(path)
    ingest(seed, [backend_message(i) for i in range(400)])
    seed.close_stdin()
    assert seed.wait_exit()[0] == 0

    acknowledged: dict[str, set[str]] = {"dismiss": set(), "read": set(), "tap": set()}
    # A dismiss sent but not acknowledged may still have committed: such a message may be gone.
    dismiss_sent: set[str] = set()
    killed_with_inflight = 0
    for trial in range(TRIALS):
        server = open_server(path)
        ops = []
        for k in range(20_000):
            op = rng.choice(["dismiss", "read", "tap"])
            target = f"m{rng.randrange(400):04d}"
            method = {"dismiss": "message.dismiss", "read": "message.markRead", "tap": "message.tap"}[op]
            params = {"ids": [target]} if op == "read" else {"id": target}
            ops.append((f"t{trial}-{k}", op, target, method, params))
        # A writer keeps requests coming in chunks, so the kill always lands with some in flight,
        # however fast the server is; the replies pile up in the harness's reader meanwhile.
        stop = threading.Event()
        sent = []

        def write_requests():
            for start in range(0, len(ops), 50):
                if stop.is_set():
                    return
                chunk = ops[start : start + 50]
                sent.extend(chunk)  # before writing: a reply may come before write() returns
                try:
                    server.write(b"".join(frame({"jsonrpc": "2.0", "id": i, "method": m, "params": p}, "ndjson")
                                          for i, _, _, m, p in chunk))
                except OSError:
                    return

        writer = threading.Thread(target=write_requests, daemon=True)
        writer.start()
        time.sleep(rng.uniform(0.005, 0.06))
        # Replies already written to the pipe count as received too.
        received = {reply["id"]: reply for reply in server.sigkill_and_drain(stop, writer)}
        if len(received) < len(sent):
            killed_with_inflight += 1
        for op_id, op, target, _, _ in list(sent):
            if op == "dismiss":
                dismiss_sent.add(target)
            reply = received.get(op_id)
            if reply is None or "error" in reply:
                continue
            result = reply["result"]
            if op == "dismiss" and result["dismissed"]:
                acknowledged["dismiss"].add(target)
            elif op == "read" and result["changed"]:
                acknowledged["read"].add(target)
            elif op == "tap":
                acknowledged["tap"].add(target)

    check = open_server(path)
    visible = {card["id"]: card for card in list_all(check, limit=200)}
    for target in acknowledged["dismiss"]:
        assert target not in visible, f"dismissed {target} came back after SIGKILL"
    for target in acknowledged["read"]:
        assert target in visible and visible[target]["read"] or target in dismiss_sent, f"read {target} lost"
    for target in acknowledged["tap"]:
        assert target in visible and visible[target]["actionPerformed"] or target in dismiss_sent, f"tap {target} lost"
    check.close_stdin()
    check.wait_exit()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert sum(len(v) for v in acknowledged.values()) > TRIALS, acknowledged
    assert killed_with_inflight > TRIALS // 2, "the kills should land while requests are in flight"
    print(f"durability: {TRIALS} SIGKILL trials, {sum(len(v) for v in acknowledged.values())} acknowledged "
          f"changes checked, {killed_with_inflight} kills with requests in flight, 0 lost")


# --------------------------------------------------------------------------
# Paging
# --------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_paging_with_inserts_and_dismissals_between_pages(store_dir):
    rng = random.Random(7)
    server = open_server(os.path.join(store_dir, "inbox.sqlite"))
    # Few distinct send times, so ties broken by id are exercised; pinned ones among them.
    ingest(server, [backend_message(i, sent=T0 - 60 * rng.randrange(100), pinned=i % 41 == 0) for i in range(1000)])
    original = {f"m{i:04d}" for i in range(1000)}
    dismissed, seen, cursor, extra = set(), [], None, 2000
    while True:
        params = {"limit": 7}
        if cursor:
            params["cursor"] = cursor
        result = server.call("feed.list", params)["result"]
        seen += result["items"]
        cursor = result["nextCursor"]
        ingest(server, [backend_message(extra, sent=T0 - 60 * rng.randrange(100), pinned=extra % 5 == 0)])
        extra += 1
        victim = f"m{rng.randrange(1000):04d}"
        if server.call("message.dismiss", {"id": victim})["result"]["dismissed"]:
            dismissed.add(victim)
        if cursor is None:
            break
    ids = [card["id"] for card in seen]
    assert len(ids) == len(set(ids)), "a message appeared twice"
    missing = (original - dismissed) - set(ids)
    assert not missing, f"skipped {sorted(missing)[:5]}"
    keys = [feed_key(card) for card in seen]
    assert keys == sorted(keys), "pages are not in feed order"


def test_bad_or_foreign_cursors_are_invalid_params(store_dir):
    a = open_server(os.path.join(store_dir, "a.sqlite"))
    b = open_server(os.path.join(store_dir, "b.sqlite"))
    ingest(a, [backend_message(i) for i in range(5)])
    ingest(b, [backend_message(i) for i in range(5)])
    cursor = a.call("feed.list", {"limit": 2})["result"]["nextCursor"]
    err = assert_error(b.call("feed.list", {"cursor": cursor}), b.next_id() - 1, -32602)
    assert err["data"]["param"] == "cursor" and "another store" in err["data"]["reason"]
    err = assert_error(a.call("feed.list", {"cursor": "garbage!"}), a.next_id() - 1, -32602)
    assert err["data"]["param"] == "cursor"
    err = assert_error(a.call("feed.list", {"limit": 0}), a.next_id() - 1, -32602)
    assert err["data"]["param"] == "limit"


def test_counts_match_the_listed_feed_and_expired_messages_leave(store_dir):
    server = open_server(os.path.join(store_dir, "inbox.sqlite"))
    ingest(server, [backend_message(i, pinned=i % 4 == 0, rt=T0 + (100 if i % 3 == 0 else 10**6)) for i in range(60)])
    server.call("message.markRead", {"ids": [f"m{i:04d}" for i in range(0, 60, 2)]})
    server.call("message.tap", {"id": "m0005"})
    server.call("message.dismiss", {"id": "m0007"})
    for now in (T0, T0 + 200):
        server.call("test.clock", {"now": now})
        items = list_all(server, limit=9)
        counts = server.call("feed.counts")["result"]
        assert counts == {
            "total": len(items),
            "unread": sum(not c["read"] for c in items),
            "unactioned": sum(not c["actionPerformed"] for c in items),
            "pinned": sum(c["pinned"] for c in items),
            "unseen": sum(not c["seen"] for c in items),
        }
    assert all(int(card["id"][1:]) % 3 != 0 for card in items), "an expired message was listed"
    removed = [n for n in server.notifications if n["method"] == "feed.changed" and n["params"]["reason"] == "expired"]
    assert removed and "m0003" in removed[0]["params"]["removed"]


# --------------------------------------------------------------------------
# Store files
# --------------------------------------------------------------------------


def run_once(args: list[str], as_nobody_with: str | None = None) -> subprocess.CompletedProcess:
    """One ping to a server with `args`; run as `nobody` with the binary `as_nobody_with` (a copy that
    user may run, `other_user_bin`) when given."""
    cmd = [BIN, *args] if as_nobody_with is None else as_nobody(as_nobody_with, *args)
    return subprocess.run(cmd, input=b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}\n', capture_output=True, timeout=10)


def test_store_file_is_owner_only(store_dir):
    path = os.path.join(store_dir, "nested", "dir", "inbox.sqlite")
    assert run_once(["--store", path]).returncode == 0
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_a_file_that_is_not_sqlite_is_refused_and_kept(store_dir):
    path = os.path.join(store_dir, "notes.txt")
    with open(path, "w") as f:
        f.write("my notes\n" * 1000)
    before = open(path, "rb").read()
    done = run_once(["--store", path])
    assert done.returncode == 4 and done.stdout == b""
    assert b"not" in done.stderr
    assert open(path, "rb").read() == before


def test_a_corrupt_store_is_refused_by_check_store(store_dir):
    path = os.path.join(store_dir, "inbox.sqlite")
    server = open_server(path)
    ingest(server, [backend_message(i) for i in range(300)])
    server.close_stdin()
    server.wait_exit()
    with open(path, "r+b") as f:
        f.seek(8192)
        f.write(b"\xa5" * 16384)
    damaged = open(path, "rb").read()
    done = run_once(["--store", path, "--check-store"])
    assert done.returncode == 4, done.stderr
    assert b"integrity" in done.stderr or b"malformed" in done.stderr
    assert open(path, "rb").read() == damaged, "a damaged store must not be overwritten"


def test_a_store_in_a_read_only_directory_gives_a_clear_error(store_dir, request):
    readonly = os.path.join(store_dir, "ro")
    os.mkdir(readonly, 0o555)
    os.chmod(store_dir, 0o755)
    # Root writes anywhere: the server runs as `nobody` then (skipped where it cannot).
    binary = request.getfixturevalue("other_user_bin") if os.geteuid() == 0 else None
    done = run_once(["--store", os.path.join(readonly, "inbox.sqlite")], as_nobody_with=binary)
    assert done.returncode == 3, done.stderr
    assert b"cannot" in done.stderr and done.stdout == b""
    assert os.listdir(readonly) == []


def test_two_processes_on_one_store(store_dir):
    path = os.path.join(store_dir, "inbox.sqlite")
    a, b = open_server(path), open_server(path)
    ingest(a, [backend_message(i) for i in range(3)])
    assert b.call("feed.counts")["result"]["total"] == 3
    assert b.call("message.dismiss", {"id": "m0001"})["result"] == {"dismissed": True}
    assert a.call("feed.counts")["result"]["total"] == 2
    assert_error(a.call("message.get", {"id": "m0001"}), a.next_id() - 1, -32001)
