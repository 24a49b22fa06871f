"""A fault campaign: many sync rounds with random faults, random local changes between them, random
changes on the backend, cancels, and SIGKILL of the server; then, with faults off, the backend's
state must be exactly what the changes on both sides add up to, and no local change may be lost.

The suite runs 1,000 rounds (about 20 s; each run draws a new seed, so runs add up), and 300 under
CI=true (each landing adds its own seed; every round checks the same invariants, and the end the same
convergence); the full campaign, 5,000 rounds (a few minutes), runs with INBOX_RPC_FULL_CAMPAIGN=1
(a nightly run). INBOX_RPC_SYNC_ROUNDS sets the number of rounds outright (200 for a quick look);
INBOX_RPC_SYNC_SEED replays a run. A longer run:
INBOX_RPC_SYNC_ROUNDS=20000 pytest Tests/EndToEnd/test_sync_campaign.py -s
"""

from __future__ import annotations

import collections
import os
import random
import time

import pytest

from fake_backend import FAULTS
from sync_support import (  # noqa: F401  (fixtures)
    T0,
    RPCError,
    SyncServer,
    backend,
    backend_args,
    push_payload,
    servers,
    store_path,
    token_env,
)

FULL_ROUNDS, SUITE_ROUNDS, CI_ROUNDS = 5000, 1000, 300
ROUNDS = int(os.environ.get(
    "INBOX_RPC_SYNC_ROUNDS",
    FULL_ROUNDS if os.environ.get("INBOX_RPC_FULL_CAMPAIGN") == "1"
    else CI_ROUNDS if os.environ.get("CI") == "true" else SUITE_ROUNDS))
SEED_ENV = "INBOX_RPC_SYNC_SEED"
SEED = int(os.environ.get(SEED_ENV, str(random.randrange(1 << 30))))
SYNC_ERRORS = {-32030, -32031, -32032}
ARGS = ("--backend-timeout", "0.15", "--sync-min-interval", "0")
# Messages the backend lists at most: past it the service deletes the oldest, as a marketer's
# inbox turns over, so each round costs the same however long the campaign runs.
LISTED_CAP = 80


@pytest.mark.timeout(120 + ROUNDS * 0.3)
def test_fault_campaign(servers, store_path, backend, record_property):
    rng = random.Random(SEED)
    stats = collections.Counter()
    server_side: dict[str, int] = {}  # what the backend itself did to each message (status)
    local: dict[str, int] = {}  # the highest status the host set, per message, as acknowledged
    unpublished: dict[str, int] = {}  # push-only ids -> round at which the backend lists them
    counter = iter(range(1, 1 << 30))

    def clock(round_: int) -> int:
        return T0 + 10 * round_

    def new_backend_message(round_: int) -> None:
        name = f"b{next(counter)}"
        # A fifth of them expire during the campaign.
        rt = clock(round_ + rng.randint(5, 200)) if rng.random() < 0.2 else 4_102_444_800
        backend.add_message(name, rt=rt, send_date=clock(round_) - 5)
        server_side[name] = 1

    def start() -> SyncServer:
        server = SyncServer(store_path, backend_args(backend, *ARGS), env=token_env(), clock=None)
        servers.append(server)
        return server

    def note(name: str, status: int) -> None:
        local[name] = max(local.get(name, 0), status)

    for _ in range(20):
        new_backend_message(0)
    server = start()
    server.call("test.clock", {"now": clock(0)})
    backend.now = clock(0)

    for round_ in range(1, ROUNDS + 1):
        now = clock(round_)
        backend.now = now
        server.call("test.clock", {"now": now})

        # -- the backend changes on its own ------------------------------------------------------
        if rng.random() < 0.3:
            new_backend_message(round_)
        published = [n for n, m in backend.inbox().items() if m.status < 5]
        if published and rng.random() < 0.08:
            name = rng.choice(published)
            status = rng.choice([2, 3])
            backend.set_status(name, status)
            server_side[name] = max(server_side[name], status)
            stats["backend: changed elsewhere"] += 1
        if published and rng.random() < 0.03:
            name = rng.choice(published)
            backend.delete_by_service(name)
            server_side[name] = 5
            stats["backend: deleted by the service"] += 1
        listed = [n for n, m in backend.inbox().items() if m.status < 5 and m.rt > now]
        for name in listed[: max(0, len(listed) - LISTED_CAP)]:
            backend.delete_by_service(name)
            server_side[name] = 5
            stats["backend: deleted, the inbox was full"] += 1
        for name, due in list(unpublished.items()):
            if due <= round_:
                backend.add_message(name, hash=f"P-{name}", send_date=now - 60)
                server_side[name] = 1
                del unpublished[name]

        # -- the host changes things locally ---------------------------------------------------
        visible = list(server.feed_statuses())
        for _ in range(rng.randint(0, 3)):
            action = rng.random()
            if action < 0.12:
                name = f"p{next(counter)}"
                server.call("message.ingest", {"payload": push_payload(name, sent=now - 1)})
                unpublished[name] = round_ + rng.randint(0, 4)
                visible.append(name)
                stats["local: push received"] += 1
                continue
            if not visible:
                continue
            name = rng.choice(visible)
            if action < 0.55:
                result = server.call("message.markRead", {"ids": [name]})
                if result["changed"]:
                    note(name, 2)
                    stats["local: read"] += 1
            elif action < 0.8:
                try:
                    server.call("message.tap", {"id": name})
                    note(name, 3)
                    stats["local: opened"] += 1
                except RPCError as error:
                    assert error.code == -32001, error.error
            elif action < 0.97:
                try:
                    if server.call("message.dismiss", {"id": name})["dismissed"]:
                        note(name, 4)
                        stats["local: dismissed"] += 1
                except RPCError as error:
                    assert error.code == -32001, error.error
                visible.remove(name)
            else:
                before = server.feed_statuses()
                changed = server.call("feed.markAllRead")["changed"]
                for other, status in before.items():
                    if status < 2:
                        note(other, 2)
                assert changed == sum(1 for s in before.values() if s < 2)
                stats["local: all read"] += changed

        # -- a fault, then a sync (or a kill, or a cancel) ---------------------------------------
        fault = rng.choice(FAULTS + ("down",)) if rng.random() < 0.55 else None
        if fault == "down":
            backend.down()
        elif fault:
            backend.fail(
                fault, method=rng.choice([None, "getInboxMessages", "inboxStatus"]), delay=0.4,
                times=rng.randint(1, 2),
            )
        if fault:
            stats[f"fault: {fault}"] += 1

        ending = rng.random()
        if ending < 0.03:
            # SIGKILL in the middle of a sync (no local change is in flight: the model stays exact).
            server.send("feed.sync", {"force": True})
            time.sleep(rng.uniform(0, 0.05))
            server.kill()
            stats["kills"] += 1
            backend.clear_faults()
            backend.up()
            server = start()
            server.call("test.clock", {"now": now})
        elif ending < 0.06:
            id = server.send("feed.sync", {"force": True})
            time.sleep(rng.choice([0, 0.002, 0.005, 0.02]))
            server.notify("$/cancelRequest", {"id": id})
            reply = server.reply(id, timeout=20)
            code = reply.get("error", {}).get("code")
            assert code in {None, -32800} | SYNC_ERRORS, reply
            stats["cancels" if code == -32800 else "cancels too late"] += 1
        else:
            reply = server.call_raw("feed.sync", {"force": True}, timeout=20)
            if "error" in reply:
                assert reply["error"]["code"] in SYNC_ERRORS, reply
                stats[f"sync error {reply['error']['code']}"] += 1
            else:
                stats["syncs ok"] += 1
                stats["changes pushed"] += reply["result"]["pushed"]
        backend.clear_faults()
        backend.up()

        # -- invariants that hold at every round -----------------------------------------------
        feed = server.feed_statuses()
        for name, status in feed.items():
            assert status >= min(local.get(name, 1), 3), (round_, name, status, local.get(name))
            assert local.get(name, 0) < 4, f"round {round_}: dismissed {name} is back"

    # -- faults off: everything must converge --------------------------------------------------
    for name in list(unpublished):
        backend.add_message(name, hash=f"P-{name}", send_date=clock(ROUNDS) - 60)
        server_side[name] = 1
    for _ in range(3):
        result = server.sync()
        if result["pending"] == 0:
            break
    assert result["pending"] == 0, result
    assert server.call("config.get")["backend"]["pending"] == 0

    expected = {name: max(server_side[name], local.get(name, 0)) for name in server_side}
    actual = backend.statuses()
    lost = {n: (actual.get(n), expected[n]) for n in expected if (actual.get(n) or 0) < expected[n]}
    spurious = {n: (actual.get(n), expected[n]) for n in expected if (actual.get(n) or 0) > expected[n]}
    assert not lost, f"local changes lost (backend, expected): {lost}"
    assert not spurious, f"statuses nobody set (backend, expected): {spurious}"
    assert set(local) <= set(expected), "every local change belongs to a message the backend knows"
    assert server.feed_statuses() == backend.visible()

    assert server.close() == 0
    faults = sum(v for k, v in stats.items() if k.startswith("fault: "))
    # The figure is the point of the run: conftest.py shows it at the end, even under -q.
    figure = (
        f"sync fault campaign: {ROUNDS} rounds, {faults} faults, {stats['kills']} SIGKILLs, "
        f"{stats['local: read'] + stats['local: opened'] + stats['local: dismissed'] + stats['local: all read']} "
        f"local changes on {len(local)} messages, {len(expected)} messages on the backend, "
        f"{len(backend.applied)} inboxStatus calls accepted; converged, nothing lost (seed {SEED})"
    )
    if os.environ.get("INBOX_RPC_SYNC_VERBOSE"):
        figure += "".join(f"\n  {key}: {stats[key]}" for key in sorted(stats))
    record_property("figure", figure)
