"""A heavy sync is cancellable at every stage: transfer, parse and merge each answer `$/cancelRequest`
with -32800 before that stage ends, and nothing is half-merged (the store is as before the sync, and
the next sync merges everything). Order and outcome are asserted, never speed: every wait is for an
event under a deadline that only catches a hang; how soon a cancel lands is measured by
bench/sync_memory.py."""

from __future__ import annotations

import json
import time

import pytest

from sync_support import (  # noqa: F401  (fixtures)
    T0,
    backend,
    servers,
    start_server as start,
    store_path,
)

HANG = 500  # seconds: a wait that only catches a hang (a heavy sync on a loaded machine is slow)
# 120 MB: long enough to check that a cancel during the parse has time to land (the list's
# messages are parsed one by one, with no tree of the whole reply, which is quick).
HEAVY = 400_000
# The merge cancel's reply: enough messages that the merge is still running when the cancel lands.
MERGED = 100_000
_BODIES: dict[int, bytes] = {}


def inbox_body(count: int) -> bytes:
    """A getInboxMessages reply of `count` messages (about 300 bytes each), built once per count."""
    if count not in _BODIES:
        messages = [
            {"inbox_id": f"bulk{index:07d}", "order": str(index + 1), "rt": str(T0 + 10**7),
             "send_date": str(T0 - 10**6 + index), "title": f"Title {index}", "text": f"Body of message {index}",
             "image": "", "action_type": 1, "action_params": json.dumps({"l": f"https://example.com/{index}"}),
             "status": 1, "hash": f"H{index}"}
            for index in range(count)
        ]
        envelope = {"status_code": 200, "status_message": "OK",
                    "response": {"messages": messages, "deleted": [], "next": "", "new_inbox": count}}
        _BODIES[count] = json.dumps(envelope, separators=(",", ":")).encode()
    return _BODIES[count]


def wait_for(server, predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    with server._cond:
        while not predicate():
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"timed out: {server.stderr_text()[-800:]}"
            server._cond.wait(remaining)


def stages(server) -> list[str]:
    return [n["params"]["stage"] for n in server.notifications if n.get("method") == "sync.progress"]


def seeded(servers, store_path, backend):
    """A server whose store holds one synced message, so "nothing half-merged" has a state to keep."""
    backend.add_message("kept")
    server = start(servers, store_path, backend, "--backend-timeout", "120", "--max-sync-reply-bytes", str(160 << 20))
    assert server.sync()["added"] == 1
    server.notifications.clear()
    return server


def cancel(server, id) -> dict:
    server.notify("$/cancelRequest", {"id": id})
    return server.reply(id, timeout=HANG)


def assert_nothing_half_merged(server, backend) -> None:
    assert server.feed().keys() == {"kept"}
    assert server.call("feed.counts")["total"] == 1
    backend.body_override = None
    backend.trickle = 0
    assert server.sync(timeout=HANG)["added"] == 0  # the backend's own list ("kept") is merged whole


@pytest.mark.timeout(2 * HANG)
def test_cancel_during_the_transfer(servers, store_path, backend):
    server = seeded(servers, store_path, backend)
    backend.body_override = inbox_body(20_000)
    backend.trickle = 3 * HANG  # the body takes longer to arrive than any wait: only a cancel ends it
    backend.reset_records()
    id = server.send("feed.sync", {"force": True})
    deadline = time.monotonic() + HANG
    while not backend.calls("getInboxMessages"):  # the backend's record, not the server's output
        assert time.monotonic() < deadline, "the fetch never reached the backend"
        time.sleep(0.01)
    time.sleep(0.5)  # into the body
    reply = cancel(server, id)
    assert reply["error"]["code"] == -32800, reply
    assert "merge" not in stages(server), "the cancel landed during the transfer"
    assert_nothing_half_merged(server, backend)


@pytest.mark.timeout(2 * HANG)
def test_cancel_during_the_parse(servers, store_path, backend):
    server = seeded(servers, store_path, backend)
    backend.body_override = inbox_body(HEAVY)
    backend.body_sent.clear()
    id = server.send("feed.sync", {"force": True})
    assert backend.body_sent.wait(HANG)
    reply = cancel(server, id)
    assert reply["error"]["code"] == -32800, reply
    assert "merge" not in stages(server), "the cancel landed before the merge"
    assert_nothing_half_merged(server, backend)


@pytest.mark.timeout(2 * HANG)
def test_cancel_during_the_merge(servers, store_path, backend):
    server = seeded(servers, store_path, backend)
    backend.body_override = inbox_body(MERGED)
    id = server.send("feed.sync", {"force": True})
    wait_for(server, lambda: "merge" in stages(server), HANG)
    reply = cancel(server, id)
    assert reply["error"]["code"] == -32800, reply
    assert not [n for n in server.notifications if n.get("method") == "feed.changed"], "nothing was merged"
    assert_nothing_half_merged(server, backend)


@pytest.mark.timeout(2 * HANG)
def test_an_uncancelled_heavy_sync_merges_everything(servers, store_path, backend):
    """The merge cancel's reply, left alone, goes through every stage and merges whole: the cancels
    above had stages left to cut short (the parse cancel's reply is the same list, only longer: a
    debug build takes most of a minute to merge it whole)."""
    server = seeded(servers, store_path, backend)
    backend.body_override = inbox_body(MERGED)
    backend.body_sent.clear()
    id = server.send("feed.sync", {"force": True})
    assert backend.body_sent.wait(HANG)
    result = server.reply(id, timeout=HANG)["result"]
    assert (result["added"], result["removed"]) == (MERGED, 1), result
    order = [stage for index, stage in enumerate(stages(server)) if stage not in stages(server)[:index]]
    assert [stage for stage in order if stage != "push"] == ["fetch", "merge", "done"], stages(server)
