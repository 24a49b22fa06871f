"""Several server processes on one store: a change committed by one reaches every other as
`feed.changed {reason: "elsewhere"}` with the ids it touched (MCP: resource notifications), a read
made right after that notification is fresh, a sync asked of two at once fetches once, and a
`kill -9` of any one loses nothing the others were told about."""

from __future__ import annotations

import threading
import time

import pytest

from sync_support import SyncServer, backend, push_payload, servers, start_server, store_path  # noqa: F401

WAIT = 10.0  # seconds a notification may take on a loaded machine (a bound, not a measurement)


def changes(server: SyncServer, reason: str | None = None) -> list[dict]:
    found = [n["params"] for n in server.notifications_of("feed.changed")]
    return [p for p in found if reason is None or p["reason"] == reason]


def wait_for(server: SyncServer, predicate, what: str, timeout: float = WAIT) -> dict:
    """The first notification params `predicate` accepts, waiting for it (woken, not polled)."""
    deadline = time.monotonic() + timeout
    with server._cond:
        while True:
            for message in server.notifications:
                if predicate(message):
                    return message.get("params", {})
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"{what}: not within {timeout}s; saw {server.notifications[-5:]}")
            server._cond.wait(remaining)


def elsewhere(server: SyncServer, **ids: list[str]) -> dict:
    """Waits for `feed.changed {reason: elsewhere}` carrying exactly `ids` (added/updated/removed)."""
    def matches(message: dict) -> bool:
        params = message.get("params") or {}
        return (message.get("method") == "feed.changed" and params.get("reason") == "elsewhere"
                and all(params.get(key, []) == value for key, value in ids.items()))
    return wait_for(server, matches, f"feed.changed elsewhere {ids}")


def peers(store: str, count: int, servers: list, *args: str) -> list[SyncServer]:
    """`count` servers on `store`; the first seeds the sample feed before the others start."""
    first = SyncServer(store, ["--sample-feed", *args], clock=None)
    servers.append(first)
    first.call("feed.counts")
    for _ in range(count - 1):
        servers.append(SyncServer(store, list(args), clock=None))
    for server in servers[-count:]:
        server.call("rpc.ping")
    return servers[-count:]


def test_a_dismissal_a_read_and_an_ingest_reach_every_other_process(store_path, servers):
    a, b, c = peers(store_path, 3, servers)

    b.call("message.dismiss", {"id": "welcome"})
    for other in (a, c):
        elsewhere(other, removed=["welcome"])
        # Read right after the notification: fresh.
        assert other.call("feed.counts")["total"] == 9
        assert "welcome" not in other.feed()
    assert changes(b, "dismissed") == [{"reason": "dismissed", "removed": ["welcome"],
                                        "counts": {"total": 9, "unread": 9, "unactioned": 9, "pinned": 0, "unseen": 9}}]

    c.call("message.markRead", {"ids": ["the-reveal"]})
    for other in (a, b):
        elsewhere(other, updated=["the-reveal"])
        assert other.feed()["the-reveal"]["read"] is True
        assert other.call("feed.counts")["unread"] == 8

    a.call("message.ingest", {"payload": push_payload("push-9")})
    for other in (b, c):
        elsewhere(other, added=["push-9"])
        assert other.call("message.get", {"id": "push-9"})["id"] == "push-9"
    # No process hears its own change a second time, as made elsewhere.
    for server in (a, b, c):
        mine = {"a": "push-9", "b": "welcome", "c": "the-reveal"}["abc"[[a, b, c].index(server)]]
        for params in changes(server, "elsewhere"):
            assert mine not in params.get("added", []) + params.get("updated", []) + params.get("removed", [])


def test_a_sync_in_one_process_reaches_the_others(store_path, backend, servers):
    a = start_server(servers, store_path, backend)
    b = start_server(servers, store_path, backend)
    backend.add_message("remote-1")
    backend.add_message("remote-2")
    report = b.sync()
    assert report["added"] == 2
    params = elsewhere(a)
    assert sorted(params["added"]) == ["remote-1", "remote-2"]
    assert set(a.feed()) == {"remote-1", "remote-2"}

    backend.delete_by_service("remote-1")
    report = b.sync()
    assert report["removed"] == 1
    elsewhere(a, removed=["remote-1"])
    assert set(a.feed()) == {"remote-2"}


def test_an_mcp_subscriber_hears_a_change_made_through_json_rpc_elsewhere(store_path, servers):
    (rpc,) = peers(store_path, 1, servers)
    mcp = MCPPeer(store_path)
    try:
        mcp.handshake()
        for uri in ("inbox://counts", "inbox://message/summer-sale"):
            assert mcp.call("resources/subscribe", {"uri": uri}) == {}
        rpc.call("message.dismiss", {"id": "welcome"})
        mcp.wait("notifications/resources/list_changed")
        mcp.wait("notifications/resources/updated", uri="inbox://counts")
        counts = mcp.call("resources/read", {"uri": "inbox://counts"})
        assert '"total":9' in counts["contents"][0]["text"].replace(" ", "")
        rpc.call("message.markRead", {"ids": ["summer-sale"]})
        mcp.wait("notifications/resources/updated", uri="inbox://message/summer-sale")
    finally:
        mcp.close()


@pytest.mark.parametrize("victim", ["the writer", "the listener"])
def test_kill_9_of_any_one_process_loses_nothing_the_others_were_told(store_path, servers, victim):
    a, b, c = peers(store_path, 3, servers)
    told = ["welcome", "summer-sale", "hero-banner"]
    for id in told:
        b.call("message.dismiss", {"id": id})
        elsewhere(a, removed=[id])
    (b if victim == "the writer" else a).kill()
    survivor = a if victim == "the writer" else b
    # The survivors keep hearing each other.
    c.call("message.markRead", {"ids": ["plain-note"]})
    elsewhere(survivor, updated=["plain-note"])
    fresh = SyncServer(store_path, [], clock=None)
    servers.append(fresh)
    feed = fresh.feed()
    assert not set(told) & set(feed)
    assert feed["plain-note"]["read"] is True


class MCPPeer(SyncServer):
    """`inbox-rpc mcp` on the store, read the way `SyncServer` reads the plain server."""

    def __init__(self, store: str):
        super().__init__(store, [], clock=None, face="mcp")

    def handshake(self) -> None:
        self.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "test", "version": "1"}})
        self.notify("notifications/initialized")

    def call(self, method, params=None, timeout=10.0):
        reply = self.reply(self.send(method, params), timeout)
        assert "error" not in reply, reply
        return reply["result"]

    def reply(self, id, timeout=10.0):
        deadline = time.monotonic() + timeout
        with self._cond:
            while id not in self._replies:
                remaining = deadline - time.monotonic()
                assert remaining > 0 and not self._eof, f"no reply to {id}: {self.stderr_text()[-800:]}"
                self._cond.wait(remaining)
            return self._replies.pop(id)

    def wait(self, method: str, **params) -> dict:
        return wait_for(self, lambda m: m.get("method") == method
                        and all((m.get("params") or {}).get(k) == v for k, v in params.items()), method)


def wait_calls(backend, method: str, count: int, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while len(backend.calls(method)) < count:
        assert time.monotonic() < deadline, f"{method} reached the backend {len(backend.calls(method))} times"
        time.sleep(0.02)


def test_two_servers_asked_to_sync_at_once_make_one_fetch_and_both_answer_it(store_path, backend, servers):
    a = start_server(servers, store_path, backend)
    b = start_server(servers, store_path, backend)
    backend.add_message("remote-1")
    backend.add_message("remote-2")
    backend.trickle = 1.0  # the fetch takes a second: the second request meets the first in flight
    first = a.send("feed.sync", {"force": True})
    wait_calls(backend, "getInboxMessages", 1)
    second = b.send("feed.sync", {"force": True})
    replies = [a.reply(first, 20), b.reply(second, 20)]
    assert len(backend.calls("getInboxMessages")) == 1
    for reply in replies:
        assert reply["result"]["added"] == 2 and reply["result"]["throttled"] is False, reply
    elsewhere(b)
    assert set(a.feed()) == set(b.feed()) == {"remote-1", "remote-2"}
    # Once the first has answered, a new forced sync fetches again: it is not covered by an old run.
    backend.trickle = 0
    assert b.sync()["added"] == 0
    assert len(backend.calls("getInboxMessages")) == 2


def test_a_sync_holder_killed_mid_fetch_lets_the_waiting_one_fetch(store_path, backend, servers):
    a = start_server(servers, store_path, backend)
    b = start_server(servers, store_path, backend)
    backend.add_message("remote-1")
    backend.trickle = 30.0
    a.send("feed.sync", {"force": True})
    wait_calls(backend, "getInboxMessages", 1)
    second = b.send("feed.sync", {"force": True})
    time.sleep(0.3)  # let b meet the lease held (its reply cannot come before a's fetch ends)
    assert len(backend.calls("getInboxMessages")) == 1
    backend.trickle = 0
    a.kill()
    reply = b.reply(second, 20)
    assert reply["result"]["added"] == 1, reply
    assert len(backend.calls("getInboxMessages")) == 2
    assert set(b.feed()) == {"remote-1"}


def test_periodic_syncs_of_several_servers_make_the_calls_of_one(store_path, backend, servers):
    interval, seconds = 3, 10
    for _ in range(3):
        start_server(servers, store_path, backend, "--sync-interval", str(interval), "--sync-min-interval", "0",
                     clock=None)
    time.sleep(seconds)
    fetches = len(backend.calls("getInboxMessages"))
    # One server would make seconds / interval fetches (3); three without the skip about 9.
    assert 2 <= fetches <= seconds // interval + 2, fetches


# -- odd timing, odd files, a third program ------------------------------------------------------

LEASE_WAIT = 90.0  # the documented 15 s without a sign of life, plus a loaded machine's slack
# The stopped-holder cases are about the rule, not the default: the least patience the server takes
# (twice the holder's beat), the same takeover.
LEASE_PATIENCE = ("--sync-lease-patience", "4")


def untold(server: SyncServer) -> dict:
    """Waits for the note without ids (`feed.changed {reason: elsewhere}` with the counts alone)."""
    def matches(message: dict) -> bool:
        params = message.get("params") or {}
        return message.get("method") == "feed.changed" and set(params) <= {"reason", "counts"} \
            and params.get("reason") == "elsewhere"
    return wait_for(server, matches, "feed.changed elsewhere without ids", timeout=60)


@pytest.mark.timeout(300)
def test_a_listener_further_behind_than_the_log_keeps_hears_the_note_without_ids(store_path, backend, servers):
    a = start_server(servers, store_path, backend)
    b = start_server(servers, store_path, backend)
    for index in range(10_000):
        backend.add_message(f"bulk-{index:05}")
    b.sync(timeout=120)
    mcp = MCPPeer(store_path)
    try:
        mcp.handshake()
        assert mcp.call("resources/subscribe", {"uri": "inbox://message/bulk-00001"}) == {}
        b.call("feed.markAllRead", timeout=120)
        untold(a)
        # No ids at all: nothing named that could stand for the whole change.
        assert all(set(p) == {"reason", "counts"} for p in changes(a, "elsewhere")), changes(a, "elsewhere")[:1]
        # MCP: every subscribed URI may have changed.
        mcp.wait("notifications/resources/updated", uri="inbox://message/bulk-00001")
        # Then it hears the next change exactly.
        b.call("message.dismiss", {"id": "bulk-00042"})
        elsewhere(a, removed=["bulk-00042"])
    finally:
        mcp.close()


def test_a_row_a_third_program_plants_in_the_log_is_not_trusted(store_path, servers):
    import sqlite3
    a, b = peers(store_path, 2, servers)
    with sqlite3.connect(store_path) as planted:
        planted.execute("INSERT INTO change_log VALUES (9223372036854775807, 'planted-id', 0, 1, 0)")
    b.call("message.dismiss", {"id": "welcome"})
    elsewhere(a, removed=["welcome"])
    b.call("message.markRead", {"ids": ["summer-sale"]})
    elsewhere(a, updated=["summer-sale"])
    with sqlite3.connect(store_path) as planted:  # numbered right after the log's own rows
        planted.execute("INSERT INTO change_log SELECT max(seq) + 1, 'planted-2', 0, 1, 0 FROM change_log "
                        "WHERE seq < 9007199254740992")
    b.call("message.dismiss", {"id": "plain-note"})
    elsewhere(a, removed=["plain-note"])
    for params in changes(a):
        assert not {"planted-id", "planted-2"} & set(params.get("added", []) + params.get("updated", [])), params


def test_a_fifo_put_in_place_of_the_signal_file_makes_every_server_warn(store_path, servers):
    import os
    a, b = peers(store_path, 2, servers)
    os.unlink(store_path + "-signal")
    os.mkfifo(store_path + "-signal", 0o600)
    for server in (a, b):
        deadline = time.monotonic() + WAIT
        while "cannot be used again" not in server.stderr_text():
            assert time.monotonic() < deadline, server.stderr_text()[-800:]
            time.sleep(0.02)
        assert "not a regular file" in server.stderr_text() and "restart the servers" in server.stderr_text()


def test_a_store_moved_away_while_open_keeps_every_acknowledged_change(store_path, servers):
    import os
    import sqlite3
    (a,) = peers(store_path, 1, servers)
    told = ["welcome", "summer-sale", "hero-banner"]
    for id in told:
        a.call("message.dismiss", {"id": id})
    moved = store_path + ".moved"
    os.rename(store_path, moved)
    assert a.error_of("message.dismiss", {"id": "plain-note"})["data"]["kind"] == "fileGone"
    # A server started at the old name while the first still runs gets a store of its own.
    other = SyncServer(store_path, ["--sample-feed"], clock=None)
    servers.append(other)
    other.call("message.markRead", {"ids": ["plain-note"]})
    assert other.close() == 0
    assert a.close() == 0
    os.replace(moved, store_path)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(store_path + suffix):
            os.unlink(store_path + suffix)
    with sqlite3.connect(store_path) as moved_back:
        gone = {row[0] for row in moved_back.execute("SELECT id FROM messages WHERE status = 4")}
    assert set(told) <= gone, gone


def sync_progress(server: SyncServer) -> list[str]:
    return [n["params"]["stage"] for n in server.notifications_of("sync.progress")]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", ["SIGSTOP", "SIGKILL"])
@pytest.mark.parametrize("victim", [0, 1, 2])
def test_any_one_of_three_stopped_or_killed_mid_sync_leaves_the_others_reading_writing_and_syncing(
        store_path, backend, servers, victim, how):
    import signal
    group = [start_server(servers, store_path, backend, *LEASE_PATIENCE) for _ in range(3)]
    backend.add_message("remote-1")
    victim_server = group[victim]
    others = [server for server in group if server is not victim_server]
    # The victim is stopped (or killed) mid-fetch, holding the sync lease.
    backend.trickle = 30.0
    victim_server.send("feed.sync", {"force": True})
    wait_calls(backend, "getInboxMessages", 1)
    victim_server.proc.send_signal(getattr(signal, how))
    try:
        backend.trickle = 0
        for index, server in enumerate(others):
            assert server.call("feed.counts")["total"] >= 0
            server.call("message.ingest", {"payload": push_payload(f"push-{index}")})
        syncs = [server.send("feed.sync", {"force": True}) for server in others]
        for server, id in zip(others, syncs):
            reply = server.reply(id, LEASE_WAIT)
            assert "result" in reply, reply
        if how == "SIGSTOP":  # the first to meet the lease held said it waited
            assert any("wait" in sync_progress(server) for server in others)
        for server in others:
            assert {"push-0", "push-1", "remote-1"} <= set(server.feed())
    finally:
        victim_server.proc.send_signal(signal.SIGCONT)
    victim_server.kill()
    fresh = SyncServer(store_path, [], clock=None)
    servers.append(fresh)
    assert {"push-0", "push-1", "remote-1"} <= set(fresh.feed())


def test_an_mcp_subscription_to_another_form_of_a_uri_is_notified_in_that_form(store_path, servers):
    (rpc,) = peers(store_path, 1, servers)
    mcp = MCPPeer(store_path)
    try:
        mcp.handshake()
        odd = "inbox://message/%77elcome"  # `welcome`, one letter percent-encoded
        assert mcp.call("resources/subscribe", {"uri": odd}) == {}
        assert '"welcome"' in mcp.call("resources/read", {"uri": odd})["contents"][0]["text"]
        rpc.call("message.markRead", {"ids": ["welcome"]})
        mcp.wait("notifications/resources/updated", uri=odd)
        # Unsubscribed in its canonical form, it is heard no more.
        assert mcp.call("resources/unsubscribe", {"uri": "inbox://message/welcome"}) == {}
        rpc.call("message.dismiss", {"id": "welcome"})
        mcp.wait("notifications/resources/list_changed")
        updated = [n for n in mcp.notifications if n.get("method") == "notifications/resources/updated"]
        assert len(updated) == 1, updated
    finally:
        mcp.close()


def set_opening_lock(fd: int, held: bool) -> None:
    """Takes or releases what a server opening the store holds: the open-file-description lock on
    the signal file's first byte."""
    import fcntl
    import os
    import struct
    kind = fcntl.F_WRLCK if held else fcntl.F_UNLCK
    fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqixxxx", kind, os.SEEK_SET, 0, 1, 0))


def start_behind_the_opening_lock(store_path: str, servers: list) -> tuple[SyncServer, int, SyncServer]:
    """A server on the store, a descriptor of its signal file holding the opening lock (what a
    server stopped while opening holds; the caller closes it), and a server started behind it."""
    import os
    (a,) = peers(store_path, 1, servers)
    fd = os.open(store_path + "-signal", os.O_RDWR)
    set_opening_lock(fd, held=True)
    late = SyncServer(store_path, [], clock=None)
    servers.append(late)
    return a, fd, late


def test_a_process_stopped_while_opening_the_store_holds_up_another_start_for_a_bounded_time(store_path, servers):
    import os
    a, fd, late = start_behind_the_opening_lock(store_path, servers)
    try:
        assert late.call("feed.counts", timeout=60)["total"] == 10
        assert "opening it anyway" in late.stderr_text()
        # Once open, it hears the others as usual.
        a.call("message.dismiss", {"id": "welcome"})
        elsewhere(late, removed=["welcome"])
    finally:
        os.close(fd)


def hears(server: SyncServer, shows, **ids: list[str]) -> None:
    """Waits until `server` tells `feed.changed {reason: elsewhere}` with exactly `ids`, or a note
    without ids after which its feed `shows` the change (what it tells of commits the log could not
    hold for it: those made on a signal file it had not joined yet)."""
    deadline = time.monotonic() + WAIT
    seen = 0
    while True:
        with server._cond:
            while len(server.notifications) == seen:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"{ids}: not heard within {WAIT}s; saw {server.notifications[-5:]}")
                server._cond.wait(remaining)
            fresh, seen = server.notifications[seen:], len(server.notifications)
        told = [m.get("params") or {} for m in fresh
                if m.get("method") == "feed.changed" and (m.get("params") or {}).get("reason") == "elsewhere"]
        if any(all(p.get(key, []) == value for key, value in ids.items()) for p in told):
            return
        if any(not (p.get("added") or p.get("updated") or p.get("removed")) for p in told) and shows(server):
            return


def dismissed(id: str):
    return lambda server: id not in server.feed_statuses()


def read(id: str):
    return lambda server: server.feed_statuses().get(id, 0) >= 2


def replaced_signal_file_is_joined(store_path, servers, delete_late: bool, make_late: bool):
    """The signal file deleted, and a third server making a new one, each either inside the running
    servers' first quarter second (before their watches begin) or after it; whatever the moments,
    the running servers join the new file and hear the third server's changes, and it theirs. What
    the third server committed before they joined may come as the note without ids."""
    import os
    first = SyncServer(store_path, ["--sample-feed"], clock=None)
    servers.append(first)
    first.call("feed.counts")
    first.close()
    a = SyncServer(store_path, [], clock=None)
    b = SyncServer(store_path, [], clock=None)
    servers.extend([a, b])
    for server in (a, b):
        server.call("rpc.ping")

    def hear_each_other(first: str, second: str) -> None:
        # A commit of each heard by the other: their watches have begun (their first looks, too).
        a.call("message.markRead", {"ids": [first]})
        elsewhere(b, updated=[first])
        b.call("message.markRead", {"ids": [second]})
        elsewhere(a, updated=[second])

    if delete_late:
        hear_each_other("new-arrivals", "the-reveal")
    os.unlink(store_path + "-signal")
    if make_late:
        # The running servers still hear each other on the file they share, its name deleted.
        hear_each_other("hero-banner", "loyalty-card")
    c = SyncServer(store_path, [], clock=None)
    servers.append(c)
    c.call("message.dismiss", {"id": "welcome"})
    hears(a, dismissed("welcome"), removed=["welcome"])
    hears(b, dismissed("welcome"), removed=["welcome"])
    c.call("message.markRead", {"ids": ["plain-note"]})
    hears(a, read("plain-note"), updated=["plain-note"])
    hears(b, read("plain-note"), updated=["plain-note"])
    a.call("message.markRead", {"ids": ["summer-sale"]})
    elsewhere(c, updated=["summer-sale"])
    hears(b, read("summer-sale"), updated=["summer-sale"])


def test_a_signal_file_replaced_before_the_watches_began_is_joined(store_path, servers):
    replaced_signal_file_is_joined(store_path, servers, delete_late=False, make_late=False)


def test_a_signal_file_deleted_before_the_watches_began_and_made_again_after_is_joined(store_path, servers):
    replaced_signal_file_is_joined(store_path, servers, delete_late=False, make_late=True)


def test_a_signal_file_replaced_after_the_watches_began_is_joined(store_path, servers):
    replaced_signal_file_is_joined(store_path, servers, delete_late=True, make_late=True)


def inotify_watches(pid: int) -> int:
    """How many inotify watches process `pid` holds (its descriptors' fdinfo)."""
    import glob
    count = 0
    for info in glob.glob(f"/proc/{pid}/fdinfo/*"):
        try:
            with open(info) as f:
                count += f.read().count("inotify wd:")
        except OSError:
            pass
    return count


def threads_in_fcntl(pid: int) -> int:
    """How many threads of `pid` are inside fcntl(2) (x86-64 and arm64 numbers), waiting for a lock."""
    import glob
    import platform
    number = {"x86_64": "72", "aarch64": "25"}.get(platform.machine())
    count = 0
    for task in glob.glob(f"/proc/{pid}/task/*/syscall"):
        try:
            with open(task) as f:
                count += f.read().split(" ")[0] == number
        except OSError:
            pass
    return count


@pytest.mark.parametrize("release", ["unlocked", "closed"])
def test_a_start_behind_the_opening_lock_opens_once_it_is_released_parking_no_thread(store_path, servers, release):
    """The holder unlocks and rings (as a server does once open), or its descriptor closes (as when it
    is killed): the waiting start takes the lock then, not at the 10 s deadline."""
    import os
    _, fd, late = start_behind_the_opening_lock(store_path, servers)
    try:
        asked = late.send("feed.counts")
        # Waiting: on a watch, the opening lock's (the others are made once the store is open), or,
        # as it must not, on a thread inside fcntl.
        deadline = time.monotonic() + WAIT
        while inotify_watches(late.proc.pid) == 0 and threads_in_fcntl(late.proc.pid) == 0:
            assert time.monotonic() < deadline and late.proc.poll() is None, late.stderr_text()[-800:]
            time.sleep(0.01)
        assert threads_in_fcntl(late.proc.pid) == 0
        if release == "unlocked":
            set_opening_lock(fd, held=False)
            os.pwrite(fd, b"\0", 0)
    finally:
        os.close(fd)
    assert late.reply(asked, timeout=60)["result"]["total"] == 10
    assert "opening it anyway" not in late.stderr_text()
