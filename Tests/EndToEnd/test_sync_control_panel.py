"""Messages as the Control Panel sends them, and what its dashboard counts, end to end: the real
binary synced with the loopback fake backend (fake_backend.py) and with `inbox-rpc backend`
(backend_double.py), each test once against each.

- A picture-only message (no title, no body) carries its picture as `b` or `attachment` in the action
  params: it is a banner, as the web and Android SDKs draw it.
- Every button tap is an open (status 3, after 2 when the message was unread) on the backend's wire,
  whatever the button's action, and a dismiss adds 4 after it; through the outbox, so a restart
  before the backend answered loses none of them.
"""

from __future__ import annotations

import pytest

from backend_double import either_backend  # noqa: F401  (the backend fixture: fake and double)
from fake_backend import FakeBackend
from sync_support import (  # noqa: F401  (fixtures)
    SyncServer,
    servers,
    start_server as start,
    store_path,
)



PICTURE = "https://cdn.example.com/inbox/hero.png"

BUTTONS = {
    "openURL": {"title": "Shop now", "url": "https://example.com/shop"},
    "custom": {"title": "Save", "tag": "save_promo"},
    "markRead": {"title": "Got it", "action": "markRead"},
    "dismiss": {"title": "Not now", "action": "dismiss"},
}


@pytest.mark.parametrize("key", ["b", "attachment"])
def test_a_picture_only_message_is_a_banner(servers, store_path, backend, key):
    backend.add_message("picture", title="", text="", params={key: PICTURE})
    server = start(servers, store_path, backend)
    assert server.sync()["added"] == 1
    card = server.feed()["picture"]
    assert (card["kind"], card["image"], card["title"], card["body"]) == ("banner", PICTURE, None, None)
    assert card["requestedKind"] == "banner" and card["degraded"] is None
    assert server.call("message.get", {"id": "picture"})["kind"] == "banner"
    assert server.close() == 0


def test_b_wins_over_attachment_and_data_image_over_both(servers, store_path, backend):
    backend.add_message("both", title="", text="", params={"attachment": PICTURE + "?a", "b": PICTURE + "?b"})
    backend.add_message("all", title="", text="", params={"b": PICTURE + "?b", "image": PICTURE})
    server = start(servers, store_path, backend)
    server.sync()
    feed = server.feed()
    assert feed["both"]["image"] == PICTURE + "?b" and feed["all"]["image"] == PICTURE
    assert server.close() == 0


def synced_button_messages(servers, store_path, backend: FakeBackend) -> tuple[SyncServer, dict[str, str]]:
    """A server that synced one message per kind of button, each with that one button, and the
    message ids by kind; the backend's records start empty."""
    ids = {}
    for kind, button in BUTTONS.items():
        ids[kind] = kind
        backend.add_message(kind, params={"buttons": [button]})
    server = start(servers, store_path, backend)
    server.sync()
    backend.reset_records()
    return server, ids


def wire_statuses(backend: FakeBackend) -> dict[str, list[int]]:
    """message id -> the statuses its inboxStatus calls carried, in the order they were sent."""
    by_order = {message.order: message.inbox_id for message in backend.inbox().values()}
    sent: dict[str, list[int]] = {}
    for record in backend.calls("inboxStatus"):
        sent.setdefault(by_order[record.request["inbox_code"]], []).append(record.request["status"])
    return sent


EXPECTED = {"openURL": [2, 3], "custom": [2, 3], "markRead": [2, 3], "dismiss": [2, 3, 4]}


def test_every_button_tap_reaches_the_backend_as_an_open(servers, store_path, backend):
    server, ids = synced_button_messages(servers, store_path, backend)
    for kind, id in ids.items():
        tapped = server.call("button.tap", {"id": id, "button": 0})
        assert tapped["action"]["type"] == kind
        if kind == "dismiss":
            assert tapped["message"] is None
        else:
            assert tapped["message"]["read"] and tapped["message"]["actionPerformed"], kind
    result = server.sync()
    assert result["pushed"] == 9 and result["pending"] == 0, result
    assert wire_statuses(backend) == {ids[kind]: statuses for kind, statuses in EXPECTED.items()}
    assert backend.statuses() == {ids["openURL"]: 3, ids["custom"]: 3, ids["markRead"]: 3, ids["dismiss"]: 4}
    assert server.close() == 0


def test_a_tap_on_a_read_message_sends_the_open_alone_and_a_second_tap_nothing(servers, store_path, backend):
    server, ids = synced_button_messages(servers, store_path, backend)
    server.call("message.markRead", {"ids": list(ids.values())})
    server.sync()
    backend.reset_records()
    for id in ids.values():
        server.call("button.tap", {"id": id, "button": 0})
    for kind in ("openURL", "custom", "markRead"):
        server.call("button.tap", {"id": ids[kind], "button": 0})
    server.sync()
    assert wire_statuses(backend) == {ids["openURL"]: [3], ids["custom"]: [3], ids["markRead"]: [3],
                                      ids["dismiss"]: [3, 4]}
    assert server.close() == 0


def test_a_tap_without_its_default_sends_nothing(servers, store_path, backend):
    server, ids = synced_button_messages(servers, store_path, backend)
    for id in ids.values():
        tapped = server.call("button.tap", {"id": id, "button": 0, "performDefault": False})
        assert tapped["performed"] is False and tapped["message"]["read"] is False
    assert server.sync()["pushed"] == 0
    assert backend.calls("inboxStatus") == []
    assert server.close() == 0


def test_taps_made_offline_survive_a_kill_and_reach_the_backend_after_the_restart(servers, store_path, backend):
    first, ids = synced_button_messages(servers, store_path, backend)
    backend.down()
    for id in ids.values():
        first.call("button.tap", {"id": id, "button": 0})
    assert first.error_of("feed.sync", {"force": True})["data"]["pending"] == 9
    first.kill()  # SIGKILL before the backend answered: the replies said it was stored

    backend.up()
    backend.reset_records()
    second = start(servers, store_path, backend)
    assert second.call("config.get")["backend"]["pending"] == 9
    result = second.sync()
    assert result["pushed"] == 9 and result["pending"] == 0, result
    assert wire_statuses(backend) == {ids[kind]: statuses for kind, statuses in EXPECTED.items()}
    assert second.close() == 0
