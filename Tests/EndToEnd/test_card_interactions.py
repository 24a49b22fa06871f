"""What the user does with a card besides a row or button tap, end to end against the fake
backend: rows seen leaving the screen (InboxKit's automaticReadOnDisappear), carousel slide taps,
video plays. Each test checks the statuses that reach the backend (Schemas/methods.json says what
each interaction marks)."""

from __future__ import annotations

import json
import time

from sync_support import (  # noqa: F401  (fixtures)
    RPCError,
    backend,
    servers,
    start_server as start,
    store_path,
)

ROW = "https://example.com/row"
CAROUSEL = {
    "displayType": "carousel",
    "carousel": [
        {"image": "https://cdn.example.com/1.jpg", "url": "https://example.com/slide-0"},
        {"image": "https://cdn.example.com/2.jpg"},
    ],
}
VIDEO = {"displayType": "video", "video": {"url": "https://cdn.example.com/clip.mp4", "poster": "https://cdn.example.com/p.jpg"}}
BROKEN_VIDEO = {"displayType": "video", "video": {"url": "file:///etc/passwd"}}


def add(backend, inbox_id: str, data: dict | None = None, **fields):
    params = {"l": ROW} | ({"u": json.dumps(data)} if data else {})
    return backend.add_message(inbox_id, params=params, **fields)


def sent_statuses(backend) -> set[tuple[str, int]]:
    codes = {m.order: m.inbox_id for m in backend.inbox().values()}
    return {(codes[r.request["inbox_code"]], r.request["status"]) for r in backend.calls("inboxStatus")}


def feed_changes(server) -> list[dict]:
    return [n["params"] for n in server.notifications_of("feed.changed")]


# --------------------------------------------------------------------------------------------
# Rows seen on screen
# --------------------------------------------------------------------------------------------


def test_unread_rows_that_leave_the_screen_become_read_in_one_change(servers, store_path, backend):
    add(backend, "a")
    add(backend, "pinned", {"pinned": True})
    add(backend, "already", status=2)
    add(backend, "stays")
    server = start(servers, store_path, backend)
    server.sync()
    backend.reset_records()
    assert server.call("config.get")["attributes"]["automaticReadOnDisappear"] is True  # InboxKit's default

    # On screen is not read, only seen (the unread ones): only leaving the screen reads.
    seen = server.call("feed.seen", {"appeared": ["a", "pinned", "already", "stays"]})
    assert seen == {"seen": ["a", "pinned", "stays"], "read": [], "unknown": []}
    assert server.feed_statuses() == {"a": 1, "pinned": 1, "already": 2, "stays": 1}

    before = len(feed_changes(server))
    seen = server.call("feed.seen", {"disappeared": ["pinned", "a", "already", "gone"], "appeared": ["x"]})
    assert seen == {"seen": [], "read": ["a", "pinned"], "unknown": ["gone", "x"]}
    assert server.feed_statuses() == {"a": 2, "pinned": 2, "already": 2, "stays": 1}
    changes = feed_changes(server)[before:]
    assert len(changes) == 1 and changes[0]["reason"] == "read" and sorted(changes[0]["updated"]) == ["a", "pinned"]

    # Again: nothing left to read, no change told.
    assert server.call("feed.seen", {"disappeared": ["a", "pinned"]}) == {"seen": [], "read": [], "unknown": []}
    assert len(feed_changes(server)) == before + 1

    server.sync()
    assert sent_statuses(backend) == {("a", 2), ("pinned", 2)}
    assert backend.statuses() == {"a": 2, "pinned": 2, "already": 2, "stays": 1}


def test_with_automatic_read_off_rows_leaving_the_screen_change_nothing(servers, store_path, backend):
    add(backend, "a")
    server = start(servers, store_path, backend)
    server.sync()
    server.call("config.set", {"attributes": {"automaticReadOnDisappear": False}})
    assert server.call("feed.seen", {"disappeared": ["a"]}) == {"seen": [], "read": [], "unknown": []}
    assert server.feed_statuses() == {"a": 1}
    server.close()

    # Saved with the store: a restarted server keeps it off; null brings back the default.
    server = start(servers, store_path, backend)
    assert server.call("config.get")["attributes"]["automaticReadOnDisappear"] is False
    assert server.call("feed.seen", {"disappeared": ["a"]})["read"] == []
    server.call("config.set", {"attributes": {"automaticReadOnDisappear": None}})
    assert server.call("feed.seen", {"disappeared": ["a"]})["read"] == ["a"]
    backend.reset_records()
    server.sync()
    assert sent_statuses(backend) == {("a", 2)}


def test_a_bad_seen_report_is_refused_whole(servers, store_path, backend):
    add(backend, "a")
    server = start(servers, store_path, backend)
    server.sync()
    error = server.error_of("feed.seen", {"disappeared": ["a", 7]})
    assert error["code"] == -32602 and error["data"]["param"].startswith("disappeared"), error
    assert server.feed_statuses() == {"a": 1}


# --------------------------------------------------------------------------------------------
# Carousel slides
# --------------------------------------------------------------------------------------------


def test_a_slide_with_a_url_opens_it_and_reads_the_message(servers, store_path, backend):
    add(backend, "c", CAROUSEL)
    server = start(servers, store_path, backend)
    server.sync()
    backend.reset_records()

    dry = server.call("slide.tap", {"id": "c", "slide": 0, "performDefault": False})
    assert dry["action"] == {"type": "openURL", "url": "https://example.com/slide-0"}
    assert dry["message"]["read"] is False and server.feed_statuses() == {"c": 1}

    tapped = server.call("slide.tap", {"id": "c", "slide": 0})
    assert tapped["action"] == {"type": "openURL", "url": "https://example.com/slide-0"}
    assert tapped["message"]["read"] is True and tapped["message"]["actionPerformed"] is False
    assert feed_changes(server)[-1]["reason"] == "read"
    server.sync()
    assert sent_statuses(backend) == {("c", 2)}


def test_a_slide_without_a_url_is_the_row_tap_whole(servers, store_path, backend):
    add(backend, "c", CAROUSEL)
    server = start(servers, store_path, backend)
    server.sync()
    backend.reset_records()

    dry = server.call("slide.tap", {"id": "c", "slide": 1, "performDefault": False})
    assert dry["action"] == {"type": "openURL", "url": ROW} and server.feed_statuses() == {"c": 1}

    tapped = server.call("slide.tap", {"id": "c", "slide": 1})
    assert tapped["action"] == {"type": "openURL", "url": ROW}
    assert tapped["message"]["read"] is True and tapped["message"]["actionPerformed"] is True
    assert tapped["message"] == server.call("message.get", {"id": "c"})
    server.sync()
    assert sent_statuses(backend) == {("c", 2), ("c", 3)}
    assert backend.statuses() == {"c": 3}

    error = server.error_of("slide.tap", {"id": "c", "slide": 4})
    assert error["code"] == -32602 and error["data"]["param"] == "slide", error


# --------------------------------------------------------------------------------------------
# Videos
# --------------------------------------------------------------------------------------------


def test_playing_a_video_answers_the_player_and_reads_the_message(servers, store_path, backend):
    add(backend, "v", VIDEO)
    server = start(servers, store_path, backend)
    server.sync()
    backend.reset_records()

    played = server.call("video.play", {"id": "v"})
    assert played["video"] == {
        "url": "https://cdn.example.com/clip.mp4", "poster": "https://cdn.example.com/p.jpg",
        # InboxKit's player: sound on even with the ringer switch on silent; the poster's traits.
        "playsWhenSilenced": True, "accessibilityLabel": "Play video",
        "accessibilityTraits": ["button", "startsMediaSession"], "accessibilityIdentifier": "inboxkit.video.play",
    }
    assert played["video"] == played["message"]["video"]
    assert played["message"]["read"] is True and played["message"]["actionPerformed"] is False
    server.sync()
    assert sent_statuses(backend) == {("v", 2)}

    # A second play reads nothing more.
    backend.reset_records()
    server.call("video.play", {"id": "v"})
    server.sync()
    assert sent_statuses(backend) == set()


def test_a_card_that_is_not_a_video_is_refused_by_name(servers, store_path, backend):
    add(backend, "plain")
    add(backend, "broken", BROKEN_VIDEO)
    server = start(servers, store_path, backend)
    server.sync()

    error = server.error_of("video.play", {"id": "plain"})
    assert error["code"] == -32002 and error["message"] == "Not a video card", error
    assert error["data"] == {"id": "plain", "kind": "classic", "degradation": None}
    error = server.error_of("video.play", {"id": "broken"})
    assert error["code"] == -32002 and error["data"]["kind"] == "classic", error
    assert "file:///etc/passwd" in error["data"]["degradation"]
    assert server.error_of("video.play", {"id": "nope"})["code"] == -32001
    assert server.feed_statuses() == {"plain": 1, "broken": 1}


# --------------------------------------------------------------------------------------------
# Durable: a SIGKILL while the backend has not answered loses no status
# --------------------------------------------------------------------------------------------


def test_statuses_survive_a_kill_before_the_backend_answered(servers, store_path, backend):
    add(backend, "seen")
    add(backend, "slide", CAROUSEL)
    add(backend, "row-slide", CAROUSEL)
    add(backend, "v", VIDEO)
    first = start(servers, store_path, backend, "--backend-timeout", "60")
    first.sync()
    backend.reset_records()

    first.call("feed.seen", {"disappeared": ["seen"]})
    first.call("slide.tap", {"id": "slide", "slide": 0})
    first.call("slide.tap", {"id": "row-slide", "slide": 1})
    first.call("video.play", {"id": "v"})
    assert first.call("config.get")["backend"]["pending"] == 5

    # The backend takes the first status and holds its reply; the server is killed meanwhile.
    backend.fail("timeout", method="inboxStatus", delay=60)
    first.send("feed.sync", {"force": True})
    deadline = time.monotonic() + 30
    while not backend.calls("inboxStatus"):
        assert time.monotonic() < deadline, "the sync never reached the backend"
        time.sleep(0.05)
    first.kill()

    backend.clear_faults()
    second = start(servers, store_path, backend)
    assert second.call("config.get")["backend"]["pending"] >= 4
    result = second.sync()
    assert result["pending"] == 0 and result["failed"] == 0, result
    assert sent_statuses(backend) == {("seen", 2), ("slide", 2), ("row-slide", 2), ("row-slide", 3), ("v", 2)}
    assert backend.statuses() == {"seen": 2, "slide": 2, "row-slide": 3, "v": 2}
