"""The feed and message methods over stdio, on the sample feed: taps, buttons, slides, dismissal,
ingest, config, notifications, and warnings said once."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from conftest import Server, assert_error, assert_result

CLOCK = 1_790_000_000


@pytest.fixture
def store():
    directory = tempfile.mkdtemp(prefix="inbox-methods-")
    yield os.path.join(directory, "inbox.sqlite")
    shutil.rmtree(directory, ignore_errors=True)


def start(store: str, *args: str) -> Server:
    return Server(["--store", store, "--sample-feed", "--test-clock", str(CLOCK), *args], store=False)


def ok(server: Server, method: str, params=None):
    reply = server.call(method, params if params is not None else {})
    return assert_result(reply, reply["id"])


def fail(server: Server, method: str, params, code: int) -> dict:
    reply = server.call(method, params)
    return assert_error(reply, reply["id"], code)


def cards(server: Server, **params) -> list[dict]:
    return ok(server, "feed.list", {"limit": 200, **params})["items"]


def test_the_sample_feed_shows_the_whole_engine(store):
    server = start(store)
    ok(server, "initialize", {"platform": "ios"})
    feed = cards(server)
    kinds = {card["kind"] for card in feed}
    assert kinds == {"banner", "captioned", "classic", "carousel", "video", "wallet"}
    assert feed[0]["pinned"] and not any(card["pinned"] for card in feed[1:])
    actions = {button["action"]["type"] for card in feed for button in card["buttons"]}
    assert actions == {"openURL", "dismiss", "markRead", "custom"}
    assert sum(card["degraded"] is not None for card in feed) >= 2
    warnings = [n for n in server.notifications if n["method"] == "log"]
    assert {w["params"]["data"]["code"] for w in warnings} >= {"degraded", "slideDropped", "unknownDisplayType"}


def test_warnings_are_said_once_however_often_the_feed_is_listed(store):
    server = start(store)
    cards(server)
    said = len([n for n in server.notifications if n["method"] == "log"])
    assert said > 0
    for _ in range(20):
        cards(server)
    assert len([n for n in server.notifications if n["method"] == "log"]) == said


def test_a_row_tap_marks_read_and_opened_unless_suppressed(store):
    server = start(store)
    peek = ok(server, "message.tap", {"id": "plain-note", "performDefault": False})
    assert peek["action"] == {"type": "deeplink", "url": "myapp://orders/1234"}
    assert not peek["message"]["read"] and not peek["message"]["actionPerformed"]
    tap = ok(server, "message.tap", {"id": "plain-note"})
    assert tap["message"]["read"] and tap["message"]["actionPerformed"]
    assert tap["customData"] is None
    changed = [n["params"] for n in server.notifications if n["method"] == "feed.changed"]
    assert {"reason": "opened", "updated": ["plain-note"],
            "counts": {"total": 10, "unread": 9, "unactioned": 9, "pinned": 1, "unseen": 9}} in changed
    assert ok(server, "feed.counts")["unactioned"] == 9


def test_buttons_do_what_they_say(store):
    server = start(store)
    custom = ok(server, "button.tap", {"id": "summer-sale", "button": 1})
    assert custom == {"action": {"type": "custom", "payload": {"tag": "save_promo"}}, "performed": False,
                      "message": custom["message"]}
    assert custom["message"]["read"] and custom["message"]["actionPerformed"], "every tap opens the message"
    opened = ok(server, "button.tap", {"id": "summer-sale", "button": 0})
    assert opened["action"] == {"type": "openURL", "url": "https://example.com/promo/SUMMER2026"}
    assert opened["performed"] is False
    read = ok(server, "button.tap", {"id": "welcome", "button": 0})
    assert read["action"] == {"type": "markRead"} and read["performed"] and read["message"]["read"]
    kept = ok(server, "button.tap", {"id": "welcome", "button": 1, "performDefault": False})
    assert kept["action"] == {"type": "dismiss"} and kept["performed"] is False and kept["message"]["id"] == "welcome"
    gone = ok(server, "button.tap", {"id": "welcome", "button": 1})
    assert gone == {"action": {"type": "dismiss"}, "performed": True, "message": None}
    fail(server, "message.get", {"id": "welcome"}, -32001)
    error = fail(server, "button.tap", {"id": "summer-sale", "button": 2}, -32602)
    assert error["data"]["param"] == "button"


def test_slides_open_their_url_or_fall_back_to_the_row_action(store):
    server = start(store)
    assert ok(server, "slide.tap", {"id": "new-arrivals", "slide": 1})["action"] == {"type": "deeplink", "url": "myapp://product/2"}
    assert ok(server, "slide.tap", {"id": "new-arrivals", "slide": 2})["action"] == {"type": "none"}
    assert fail(server, "slide.tap", {"id": "new-arrivals", "slide": 3}, -32602)["data"]["param"] == "slide"
    assert fail(server, "slide.tap", {"id": "nope", "slide": 0}, -32001)["data"] == {"id": "nope"}


def test_dismissal_survives_a_restart_and_the_sample_is_not_reseeded(store):
    server = start(store)
    assert ok(server, "message.dismiss", {"id": "the-reveal"}) == {"dismissed": True}
    assert ok(server, "message.dismiss", {"id": "the-reveal"}) == {"dismissed": False}
    assert {"reason": "dismissed", "removed": ["the-reveal"],
            "counts": {"total": 9, "unread": 9, "unactioned": 9, "pinned": 1, "unseen": 9}} in [n["params"] for n in server.notifications]
    fail(server, "message.dismiss", {"id": "never-existed"}, -32001)
    server.close_stdin()
    assert server.wait_exit()[0] == 0
    again = start(store)
    ids = [card["id"] for card in cards(again)]
    assert "the-reveal" not in ids and len(ids) == 9
    fail(again, "message.get", {"id": "the-reveal"}, -32001)


def test_ingest_refuses_non_inbox_payloads_and_never_resurrects(store):
    server = start(store)
    before = ok(server, "feed.counts")
    error = fail(server, "message.ingest", {"payload": {"aps": {"alert": "hello"}}}, -32010)
    assert error["data"]["code"] == "notAnInboxMessage" and "pw_inbox" in error["data"]["reason"]
    assert ok(server, "feed.counts") == before
    push = {"pw_inbox": "p1", "aps": {"alert": {"title": "Hi", "body": "There"}}, "inbox_params": {"rt": str(CLOCK + 60)}}
    assert ok(server, "message.ingest", {"payload": push})["outcome"] == "added"
    assert ok(server, "message.ingest", {"payload": push})["outcome"] == "updated"
    ok(server, "message.dismiss", {"id": "p1"})
    assert ok(server, "message.ingest", {"payload": push})["outcome"] == "dismissed"
    stale = {"pw_inbox": "p2", "aps": {"alert": "Old"}, "inbox_params": {"rt": str(CLOCK - 60)}}
    assert ok(server, "message.ingest", {"payload": stale})["outcome"] == "expired"
    assert ok(server, "feed.counts") == before


def test_config_set_is_saved_and_initialize_is_not(store):
    server = start(store)
    ok(server, "initialize", {"platform": "ios"})
    assert ok(server, "config.set", {"attributes": {"forceCellKind": "classic"}})["attributes"]["forceCellKind"] == "classic"
    assert {card["kind"] for card in cards(server)} == {"classic"}
    fail(server, "config.set", {"attributes": {"forceCellKind": "poster"}}, -32602)
    server.close_stdin()
    server.wait_exit()
    again = start(store)
    attributes = ok(again, "config.get")["attributes"]
    assert attributes["forceCellKind"] == "classic" and attributes["platform"] is None


def test_filters_and_mark_all_read(store):
    server = start(store)
    ok(server, "message.markRead", {"ids": ["summer-sale", "welcome", "missing"]})
    unread = cards(server, unreadOnly=True)
    assert {"summer-sale", "welcome"}.isdisjoint(card["id"] for card in unread) and len(unread) == 8
    assert [card["kind"] for card in cards(server, kinds=["carousel"])] == ["carousel"]
    assert ok(server, "feed.markAllRead") == {"changed": 8}
    assert ok(server, "feed.counts")["unread"] == 0
    assert cards(server, unreadOnly=True) == []
