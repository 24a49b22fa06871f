"""InboxKit's swipe to delete and pull to refresh as switches of the attributes, end to end against
the fake backend and `inbox-rpc backend` (each test against each): a swipe is message.dismiss {swipe: true}, a pull feed.sync {pull: true}; each is
refused with GestureDisabled (-32005) while its switch is off, with nothing changed in the store
and nothing sent, while the same calls made otherwise (a button, a forced sync) still run. Every
reply is validated against Schemas/ by the harness."""

from __future__ import annotations

import sqlite3

from backend_double import either_backend  # noqa: F401  (the backend fixture: fake and double)
from sync_support import (  # noqa: F401  (fixtures)
    servers,
    start_server as start,
    store_path,
)

GESTURE_DISABLED = -32005


def dismissed_in_store(store: str) -> dict[str, int]:
    """Each stored message's dismissed flag, read from the file itself (what a restart would see)."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        return {row[0]: bool(row[1]) for row in db.execute("SELECT id, dismissed_at IS NOT NULL FROM messages")}
    finally:
        db.close()


def serve(servers, store_path, backend, *ids: str):
    for inbox_id in ids:
        backend.add_message(inbox_id, params={"l": "https://example.com/row"})
    server = start(servers, store_path, backend)
    server.sync()
    backend.reset_records()
    return server


def test_both_gestures_are_on_by_default_and_a_swipe_dismisses(servers, store_path, backend):
    server = serve(servers, store_path, backend, "a", "b")
    attributes = server.call("config.get")["attributes"]
    assert attributes["swipeToDelete"] is True and attributes["pullToRefresh"] is True  # InboxKit's defaults
    page = server.call("feed.list", {"limit": 1})
    assert page["gestures"] == {"swipeToDelete": True, "pullToRefresh": True, "automaticReadOnDisappear": True}

    assert server.call("message.dismiss", {"id": "a", "swipe": True}) == {"dismissed": True}
    assert set(server.feed()) == {"b"}
    assert dismissed_in_store(store_path)["a"]
    report = server.call("feed.sync", {"pull": True, "force": True})
    assert report["throttled"] is False and backend.calls("getInboxMessages")


def test_swipe_to_delete_off_refuses_a_swipe_and_changes_nothing(servers, store_path, backend):
    server = serve(servers, store_path, backend, "a", "b")
    server.call("config.set", {"attributes": {"swipeToDelete": False}})
    before_store = dismissed_in_store(store_path)
    before_changes = len(server.notifications_of("feed.changed"))

    error = server.error_of("message.dismiss", {"id": "a", "swipe": True})
    assert error["code"] == GESTURE_DISABLED and error["message"] == "Gesture disabled"
    assert error["data"] == {"gesture": "swipe", "attribute": "swipeToDelete"}
    # Refused before the store is read: an unknown id is refused for the gesture too.
    assert server.error_of("message.dismiss", {"id": "nope", "swipe": True})["code"] == GESTURE_DISABLED
    assert dismissed_in_store(store_path) == before_store and not any(before_store.values())
    assert set(server.feed()) == {"a", "b"}
    assert len(server.notifications_of("feed.changed")) == before_changes
    server.sync()
    assert not backend.calls("inboxStatus")  # nothing was queued for the backend

    # A dismissal that is no swipe (a button, a menu) is not the gesture's to refuse.
    assert server.call("message.dismiss", {"id": "a", "swipe": False}) == {"dismissed": True}
    assert server.call("message.dismiss", {"id": "b"}) == {"dismissed": True}
    assert server.feed() == {}
    assert server.call("feed.list", {})["gestures"]["swipeToDelete"] is False


def test_pull_to_refresh_off_refuses_a_pull_and_the_other_syncs_run(servers, store_path, backend):
    server = serve(servers, store_path, backend, "a")
    server.call("config.set", {"attributes": {"pullToRefresh": False}})
    backend.add_message("new", params={"l": "https://example.com/row"})
    before_progress = len(server.notifications_of("sync.progress"))

    error = server.error_of("feed.sync", {"pull": True, "force": True})
    assert error["code"] == GESTURE_DISABLED
    assert error["data"] == {"gesture": "pull", "attribute": "pullToRefresh"}
    assert backend.calls("getInboxMessages") == [] and backend.calls("inboxStatus") == []
    assert len(server.notifications_of("sync.progress")) == before_progress
    assert set(server.feed()) == {"a"}

    # A sync that is no pull (a button, force, the periodic one) still fetches.
    server.call("feed.sync", {"force": True, "pull": False})
    assert set(server.feed()) == {"a", "new"}
    assert server.call("feed.list", {})["gestures"]["pullToRefresh"] is False


def test_the_switches_are_saved_with_the_store_and_null_brings_the_default_back(servers, store_path, backend):
    server = serve(servers, store_path, backend, "a")
    server.call("config.set", {"attributes": {"swipeToDelete": False, "pullToRefresh": False}})
    server.close()

    server = start(servers, store_path, backend)
    attributes = server.call("config.get")["attributes"]
    assert attributes["swipeToDelete"] is False and attributes["pullToRefresh"] is False
    handshake = server.call("initialize", {"client": {"name": "t", "version": "1"}})
    assert handshake["attributes"]["swipeToDelete"] is False
    assert server.error_of("message.dismiss", {"id": "a", "swipe": True})["code"] == GESTURE_DISABLED

    server.call("config.set", {"attributes": {"swipeToDelete": None, "pullToRefresh": None}})
    assert server.call("message.dismiss", {"id": "a", "swipe": True}) == {"dismissed": True}
    server.call("feed.sync", {"pull": True, "force": True})


def test_a_gesture_flag_of_the_wrong_type_is_invalid_params(servers, store_path, backend):
    server = serve(servers, store_path, backend, "a")
    error = server.error_of("message.dismiss", {"id": "a", "swipe": "yes"})
    assert error["code"] == -32602 and error["data"]["param"] == "swipe"
    error = server.error_of("config.set", {"attributes": {"pullToRefresh": 1}})
    assert error["code"] == -32602
    assert set(server.feed()) == {"a"}
