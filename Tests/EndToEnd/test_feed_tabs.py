"""Tabs, clearing and badges: a filter on the custom data (`u`) that `feed.list`, `feed.counts`,
`feed.markAllRead`, `feed.dismissRead` and `feed.dismissAll` read the same way, bulk dismissals
that reach the backend as status 4 through the outbox (across a SIGKILL), and the counts every
`feed.changed` carries, equal to a `feed.counts` right after it, with two processes on one store.

Every reply and notification is checked against Schemas/ by `SyncServer`.
"""

from __future__ import annotations

import json
import os
import random

import pytest

from backend_double import either_backend  # noqa: F401  (the backend fixture: fake and double)
from sync_support import T0, SyncServer, servers, start_server, store_path  # noqa: F401
from test_many_processes import elsewhere, wait_for

CATEGORIES = ("promo", "orders", "account")


def tagged_push(inbox_id: str, sent: int, custom: dict, *, as_string: bool = False, rt: int = T0 + 10**7) -> dict:
    """A received push (Android shape) whose custom data `u` is `custom`, as an object or as the
    JSON string Pushwoosh often sends."""
    return {
        "header": f"Push {inbox_id}",
        "title": "Body",
        "pw_inbox": inbox_id,
        "inbox_params": json.dumps({"rt": str(rt)}),
        "google.sent_time": sent * 1000,
        "p": f"P-{inbox_id}",
        "u": json.dumps(custom) if as_string else custom,
    }


def seeded(servers: list, store_path: str, seed: int) -> tuple[SyncServer, random.Random]:
    """A server on a store of 60 messages in three categories (and some with none), some pinned,
    some read, some sharing a send time, `u` as an object or a string at random."""
    rng = random.Random(seed)
    server = SyncServer(store_path)
    servers.append(server)
    for n in range(60):
        custom: dict = {"n": n}
        if n % 7:
            custom["category"] = CATEGORIES[n % 3]
        if rng.random() < 0.15:
            custom["pinned"] = True
        sent = T0 - 1000 + rng.randrange(40)  # ties in send time are broken by id
        server.call("message.ingest", {"payload": tagged_push(f"m{n:02d}", sent, custom, as_string=rng.random() < 0.5)})
    server.call("message.markRead", {"ids": [f"m{n:02d}" for n in range(60) if rng.random() < 0.3]})
    return server, rng


def walk(server: SyncServer, limit: int, **params) -> list[dict]:
    cards, cursor = [], None
    while True:
        page = server.call("feed.list", {"limit": limit, **params, **({"cursor": cursor} if cursor else {})})
        cards += page["items"]
        cursor = page["nextCursor"]
        if cursor is None:
            return cards


def category(card: dict) -> str | None:
    return (card.get("customData") or {}).get("category")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("unread_first", [False, True])
def test_a_filtered_walk_is_the_unfiltered_walk_filtered_by_hand_and_the_counts_are_its_lengths(
        servers, store_path, seed, unread_first):
    server, _ = seeded(servers, store_path, seed)
    if unread_first:
        server.call("config.set", {"attributes": {"unreadFirst": True}})
    everything = walk(server, 7)
    assert len(everything) == 60, f"seed {seed}"
    for name in CATEGORIES:
        by_hand = [card["id"] for card in everything if category(card) == name]
        filtered = walk(server, 3, customData={"category": name})
        assert [card["id"] for card in filtered] == by_hand, f"seed {seed}, {name}"
        counts = server.call("feed.counts", {"customData": {"category": name}})
        assert counts == {
            "total": len(filtered),
            "unread": sum(not card["read"] for card in filtered),
            "unactioned": sum(not card["actionPerformed"] for card in filtered),
            "pinned": sum(card["pinned"] for card in filtered),
            "unseen": sum(not card["seen"] for card in filtered),
        }, f"seed {seed}, {name}"
        # Unread only, under the filter: the same walk less the read cards.
        unread = walk(server, 4, customData={"category": name}, unreadOnly=True)
        assert [card["id"] for card in unread] == [card["id"] for card in filtered if not card["read"]]
        # A page's counts are the tab's.
        assert server.call("feed.list", {"limit": 1, "customData": {"category": name}})["counts"] == counts
    # Two keys mean both; a number compares as JSON (3 is 3.0).
    assert [card["id"] for card in walk(server, 5, customData={"category": "promo", "n": 3.0})] == ["m03"]
    assert server.call("feed.counts", {"customData": {"category": "orders", "n": 3}})["total"] == 0
    assert server.call("feed.counts", {"customData": {"n": "3"}})["total"] == 0
    # No filter, and an empty one, are the whole feed.
    assert server.call("feed.counts", {"customData": {}}) == server.call("feed.counts")


def test_a_filtered_walk_neither_repeats_nor_skips_while_messages_arrive(servers, store_path):
    server, _ = seeded(servers, store_path, 3)
    before = [card["id"] for card in walk(server, 200, customData={"category": "promo"})]
    seen, cursor, arrivals = [], None, 0
    while True:
        page = server.call("feed.list", {"limit": 2, "customData": {"category": "promo"},
                                         **({"cursor": cursor} if cursor else {})})
        seen += [card["id"] for card in page["items"]]
        cursor = page["nextCursor"]
        if cursor is None:
            break
        # A newer and an older promo, and one of another tab, between every two pages.
        for sent, name in ((T0 - 10, "promo"), (T0 - 5000, "promo"), (T0 - 20, "orders")):
            arrivals += 1
            server.call("message.ingest", {"payload": tagged_push(f"new{arrivals:03d}", sent, {"category": name})})
    assert len(seen) == len(set(seen))
    assert [id for id in seen if id in before] == before
    assert not any(id.startswith("new") and int(id[3:]) % 3 == 0 for id in seen)  # no "orders" arrival


def test_a_cursor_made_under_one_filter_is_refused_under_another(servers, store_path):
    server, _ = seeded(servers, store_path, 4)
    promo = server.call("feed.list", {"limit": 2, "customData": {"category": "promo"}})["nextCursor"]
    plain = server.call("feed.list", {"limit": 2})["nextCursor"]
    for cursor, filter in ((promo, {"category": "orders"}), (promo, None), (plain, {"category": "promo"}),
                           (promo, {"category": "promo", "n": 1})):
        params = {"cursor": cursor, **({"customData": filter} if filter else {})}
        error = server.error_of("feed.list", params)
        assert error["code"] == -32602 and error["data"]["param"] == "cursor", error
        assert "filter" in error["data"]["reason"]
    # The same filter with its keys in another order is the same feed: its cursor goes on.
    pinned = {"category": "promo", "pinned": True}
    first = server.call("feed.list", {"limit": 1, "customData": pinned})
    assert first["nextCursor"], first["counts"]
    rest = server.call("feed.list", {"cursor": first["nextCursor"], "customData": dict(reversed(pinned.items()))})
    assert rest["items"] and first["items"][0]["id"] not in [card["id"] for card in rest["items"]]


def test_a_filter_on_anything_but_scalar_values_is_refused(servers, store_path):
    server = SyncServer(store_path)
    servers.append(server)
    for bad in ({"category": {"a": 1}}, {"category": ["promo"]}, {"category": None},
                {f"k{n}": n for n in range(9)}):
        for method in ("feed.list", "feed.counts", "feed.markAllRead", "feed.dismissRead", "feed.dismissAll"):
            assert server.error_of(method, {"customData": bad})["code"] == -32602, (method, bad)


def test_a_filtered_mark_all_read_leaves_the_other_categories_unread(servers, store_path):
    server, _ = seeded(servers, store_path, 5)
    before = {name: server.call("feed.counts", {"customData": {"category": name}}) for name in CATEGORIES}
    changed = server.call("feed.markAllRead", {"customData": {"category": "orders"}})["changed"]
    assert changed == before["orders"]["unread"] > 0
    change = last_change(server, "read", 2)  # the seeding's markRead was the first
    assert len(change["updated"]) == changed
    assert all(card["read"] for card in walk(server, 50, customData={"category": "orders"}))
    for name in ("promo", "account"):
        assert server.call("feed.counts", {"customData": {"category": name}}) == before[name]
    assert change["counts"] == server.call("feed.counts")


def synced_tabs(servers: list, store_path: str, backend) -> SyncServer:
    """A server synced with a backend holding six messages: a promo and an order each read and
    unread, pinned or not."""
    for id, custom in (("promo-read", {"category": "promo"}), ("promo-unread", {"category": "promo"}),
                       ("pinned-read", {"category": "promo", "pinned": True}),
                       ("pinned-unread", {"category": "promo", "pinned": True}),
                       ("order-read", {"category": "orders"}), ("order-unread", {"category": "orders"})):
        backend.add_message(id, params={"u": custom}, send_date=T0 - 100)
    server = start_server(servers, store_path, backend)
    assert server.sync()["added"] == 6
    server.call("message.markRead", {"ids": ["promo-read", "pinned-read", "order-read"]})
    assert server.sync()["pending"] == 0
    assert server.call("feed.counts")["pinned"] == 2
    backend.reset_records()
    return server


def wire_statuses(backend) -> dict[str, list[int]]:
    by_order = {message.order: message.inbox_id for message in backend.inbox().values()}
    sent: dict[str, list[int]] = {}
    for record in backend.calls("inboxStatus"):
        sent.setdefault(by_order[record.request["inbox_code"]], []).append(record.request["status"])
    return sent


def dismissed_change(server: SyncServer) -> dict:
    changes = [n["params"] for n in server.notifications_of("feed.changed") if n["params"]["reason"] == "dismissed"]
    assert len(changes) == 1, changes
    return changes[0]


def test_clear_read_keeps_unread_and_pinned_unread_cards_and_sends_each_dismissal_as_status_4(
        servers, store_path, backend):
    server = synced_tabs(servers, store_path, backend)
    assert server.call("feed.dismissRead") == {"dismissed": 3}
    change = dismissed_change(server)
    assert sorted(change["removed"]) == ["order-read", "pinned-read", "promo-read"]
    assert set(server.feed()) == {"promo-unread", "pinned-unread", "order-unread"}
    assert change["counts"] == server.call("feed.counts") == {"total": 3, "unread": 3, "unactioned": 3, "pinned": 1, "unseen": 3}
    assert server.call("config.get")["backend"]["pending"] == 3
    report = server.sync()
    assert report["pushed"] == 3 and report["pending"] == 0, report
    assert wire_statuses(backend) == {"promo-read": [4], "pinned-read": [4], "order-read": [4]}
    # The backend now lists them deleted; a later sync does not bring them back.
    server.sync()
    assert set(server.feed()) == {"promo-unread", "pinned-unread", "order-unread"}
    assert server.close() == 0


def test_a_filtered_clear_read_and_clear_all_touch_their_tab_alone(servers, store_path, backend):
    server = synced_tabs(servers, store_path, backend)
    assert server.call("feed.dismissRead", {"customData": {"category": "promo"}}) == {"dismissed": 2}
    assert sorted(dismissed_change(server)["removed"]) == ["pinned-read", "promo-read"]
    assert set(server.feed()) == {"promo-unread", "pinned-unread", "order-read", "order-unread"}
    assert server.call("feed.dismissAll", {"customData": {"category": "orders"}}) == {"dismissed": 2}
    assert set(server.feed()) == {"promo-unread", "pinned-unread"}
    assert server.call("feed.dismissAll") == {"dismissed": 2}
    assert server.call("feed.counts") == {"total": 0, "unread": 0, "unactioned": 0, "pinned": 0, "unseen": 0}
    # Nothing left: the clears change nothing and say nothing.
    notes = len(server.notifications_of("feed.changed"))
    assert server.call("feed.dismissRead") == {"dismissed": 0}
    assert len(server.notifications_of("feed.changed")) == notes
    server.sync()
    assert {id: statuses for id, statuses in wire_statuses(backend).items()} == {
        id: [4] for id in ("promo-read", "pinned-read", "order-read", "order-unread", "promo-unread", "pinned-unread")}


def test_a_clear_read_survives_a_sigkill_before_the_backend_answered(servers, store_path, backend):
    first = synced_tabs(servers, store_path, backend)
    backend.down()
    assert first.call("feed.dismissRead") == {"dismissed": 3}
    assert first.error_of("feed.sync", {"force": True})["data"]["pending"] == 3
    first.kill()  # SIGKILL: the reply said the dismissals were stored and queued

    backend.up()
    backend.reset_records()
    second = start_server(servers, store_path, backend)
    assert set(second.feed()) == {"promo-unread", "pinned-unread", "order-unread"}
    assert second.call("config.get")["backend"]["pending"] == 3
    report = second.sync()
    assert report["pushed"] == 3 and report["pending"] == 0, report
    assert wire_statuses(backend) == {"promo-read": [4], "pinned-read": [4], "order-read": [4]}
    assert second.close() == 0


def last_change(server: SyncServer, reason: str, count: int) -> dict:
    """The `count`th `feed.changed` with `reason` (waiting for it)."""
    def matches(message: dict) -> bool:
        found = [n for n in server.notifications if n.get("method") == "feed.changed"
                 and n["params"]["reason"] == reason]
        return message in found and found.index(message) == count - 1
    return wait_for(server, matches, f"feed.changed #{count} {reason}")


def test_every_feed_changed_carries_the_counts_a_feed_counts_gives_right_after_it_with_two_processes(
        servers, store_path, backend):
    a = start_server(servers, store_path, backend)
    b = start_server(servers, store_path, backend)
    for n, name in enumerate(CATEGORIES * 2):
        backend.add_message(f"remote-{n}", params={"u": {"category": name}}, send_date=T0 - 100 - n)
    heard = {"a": 0, "b": 0}

    def check(actor: SyncServer, reason: str) -> None:
        """The actor's own change, then the other's `elsewhere`, each equal to its feed.counts."""
        other = b if actor is a else a
        key = "a" if actor is a else "b"
        own = [n["params"] for n in actor.notifications_of("feed.changed") if n["params"]["reason"] == reason]
        assert own and own[-1]["counts"] == actor.call("feed.counts"), (reason, own[-1:])
        heard["b" if key == "a" else "a"] += 1
        told = last_change(other, "elsewhere", heard["b" if key == "a" else "a"])
        assert told["counts"] == other.call("feed.counts"), (reason, told)

    a.sync()
    check(a, "sync")
    b.call("message.ingest", {"payload": tagged_push("local-1", T0 - 50, {"category": "promo"})})
    check(b, "ingested")
    a.call("message.markRead", {"ids": ["remote-0", "remote-1"]})
    check(a, "read")
    b.call("message.tap", {"id": "remote-2"})
    check(b, "opened")
    a.call("message.dismiss", {"id": "remote-3"})
    check(a, "dismissed")
    b.call("feed.markAllRead", {"customData": {"category": "promo"}})
    check(b, "read")
    a.call("feed.dismissRead", {"customData": {"category": "orders"}})
    check(a, "dismissed")
    b.call("feed.dismissAll", {"customData": {"category": "account"}})
    check(b, "dismissed")
    # Expiry: a message that expires, then a clock past it; the read that purges it reports it.
    a.call("message.ingest", {"payload": tagged_push("short", T0 - 40, {"category": "promo"}, rt=T0 + 60)})
    check(a, "ingested")
    for server in (a, b):
        server.call("test.clock", {"now": T0 + 120})
    a.call("feed.list")
    own = [n["params"] for n in a.notifications_of("feed.changed") if n["params"]["reason"] == "expired"]
    assert own and own[-1]["removed"] == ["short"] and own[-1]["counts"] == a.call("feed.counts")
    heard["b"] += 1
    told = last_change(b, "elsewhere", heard["b"])
    assert told["removed"] == ["short"] and told["counts"] == b.call("feed.counts")
    assert a.close() == 0 and b.close() == 0
