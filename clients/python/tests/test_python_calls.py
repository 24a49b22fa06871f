"""The typed calls against the real server: result shapes, state changes, and error replies."""

from __future__ import annotations

from python_client_support import SAMPLE_IDS, inbox, server_bin, store, watchdog, replies_fit_the_contract  # noqa: F401  (fixtures; first: it finds the package)

from typing import Any, Mapping, Type

import pytest

from inbox_rpc_client import (
    BackendError,
    BackendMalformedReply,
    BackendNotConfigured,
    BackendRefused,
    BackendUnavailable,
    ButtonTapResult,
    Card,
    Client,
    Counts,
    FeedPage,
    InitializeResult,
    InvalidParams,
    MessageNotFound,
    MethodNotFound,
    NotAnInboxMessage,
    RPCError,
    TapResult,
)

KIND_MEMBERS = {"classic": "avatar", "carousel": "carousel", "video": "video", "wallet": "wallet"}

FLASH_SALE_PUSH = {
    "aps": {"alert": {"title": "Flash sale", "body": "40% off shoes"}},
    "pw_inbox": "flash-sale-42",
    "inbox_params": {"image": "https://cdn.example.com/inbox/shoes.png"},
    "u": {"displayType": "captioned", "buttons": [{"title": "Shop", "url": "https://example.com/shoes"}]},
}


def assert_shape(value: Mapping[str, Any], typed: Type[Any]) -> None:
    """`value` has every required member of the TypedDict `typed` (the server may add more)."""
    missing = set(typed.__required_keys__) - set(value)
    assert not missing, f"{typed.__name__} members missing from the reply: {sorted(missing)}"


def test_initialize_names_the_server_and_its_methods(inbox: Client) -> None:
    result = inbox.initialize(client={"name": "pytest"}, platform="android")
    assert_shape(result, InitializeResult)
    assert result["server"]["name"] == "inbox-rpc"
    assert {"feed.list", "message.tap", "button.tap", "message.dismiss"} <= set(result["methods"])
    assert result["attributes"]["platform"] == "android"
    assert inbox.ping() == "pong"


def test_feed_pages_cover_the_sample_feed_once_in_feed_order(inbox: Client) -> None:
    page = inbox.feed_list(limit=4)
    assert_shape(page, FeedPage)
    assert_shape(page["counts"], Counts)
    assert [card["id"] for card in page["items"]] == SAMPLE_IDS[:4]
    assert page["nextCursor"] is not None
    assert page["counts"] == {"total": 10, "unread": 10, "unactioned": 10, "pinned": 1}
    assert [card["id"] for card in inbox.iter_feed(page_size=3)] == SAMPLE_IDS


def test_cards_match_the_card_type_and_carry_their_kind_member(inbox: Client) -> None:
    cards = list(inbox.iter_feed())
    assert {card["kind"] for card in cards} == {"banner", "captioned", "classic", "carousel", "video"}
    for card in cards:
        assert_shape(card, Card)
        member = KIND_MEMBERS.get(card["kind"])
        if member:
            assert member in card, card["id"]
        for button in card["buttons"]:
            assert button["action"]["type"] in {"openURL", "dismiss", "markRead", "custom"}
    wallet = next(card for card in cards if card["id"] == "loyalty-card")
    assert wallet["degraded"] is not None and wallet["degraded"]["from"] == "wallet"


def test_the_feed_filters_by_kind_and_unread(inbox: Client) -> None:
    assert [card["id"] for card in inbox.feed_list(kinds=["video", "carousel"])["items"]] == [
        "new-arrivals",
        "the-reveal",
    ]
    inbox.message_mark_read(["welcome"])
    assert "welcome" not in [card["id"] for card in inbox.iter_feed(unread_only=True)]


def test_a_row_tap_marks_read_and_opened_and_returns_the_row_action(inbox: Client) -> None:
    tapped = inbox.message_tap("plain-note")
    assert_shape(tapped, TapResult)
    assert tapped["action"] == {"type": "deeplink", "url": "myapp://orders/1234"}
    assert tapped["message"]["read"] and tapped["message"]["actionPerformed"]
    assert inbox.feed_counts()["unactioned"] == 9


def test_a_row_tap_without_its_default_changes_nothing(inbox: Client) -> None:
    tapped = inbox.message_tap("plain-note", perform_default=False)
    assert not tapped["message"]["read"]
    assert inbox.feed_counts()["unread"] == 10


@pytest.mark.parametrize(
    "card_id, button, action, performed",
    [
        ("summer-sale", 0, {"type": "openURL", "url": "https://example.com/promo/SUMMER2026"}, False),
        ("summer-sale", 1, {"type": "custom", "payload": {"tag": "save_promo"}}, False),
        ("welcome", 0, {"type": "markRead"}, True),
        ("welcome", 1, {"type": "dismiss"}, True),
    ],
)
def test_button_taps_return_the_action_and_perform_only_dismiss_and_mark_read(
    inbox: Client, card_id: str, button: int, action: Mapping[str, Any], performed: bool
) -> None:
    tapped = inbox.button_tap(card_id, button)
    assert_shape(tapped, ButtonTapResult)
    assert tapped["action"] == action
    assert tapped["performed"] is performed
    if action["type"] == "dismiss":
        assert tapped["message"] is None
        with pytest.raises(MessageNotFound):
            inbox.message_get(card_id)
    else:
        assert tapped["message"] is not None
        # Every tap opens the message (an open implies read), whoever performs the action.
        assert tapped["message"]["read"] is True and tapped["message"]["actionPerformed"] is True


def test_a_button_tap_without_its_default_leaves_the_message(inbox: Client) -> None:
    tapped = inbox.button_tap("welcome", 1, perform_default=False)
    assert tapped["performed"] is False and tapped["message"] is not None
    assert tapped["message"]["read"] is False and tapped["message"]["actionPerformed"] is False
    assert inbox.message_get("welcome")["id"] == "welcome"


def test_slide_taps_open_the_slide_url_or_fall_back_to_the_row_action(inbox: Client) -> None:
    assert inbox.slide_tap("new-arrivals", 0)["action"] == {"type": "deeplink", "url": "myapp://product/1"}
    assert inbox.slide_tap("new-arrivals", 2)["action"] == {"type": "none"}
    with pytest.raises(InvalidParams) as raised:
        inbox.slide_tap("new-arrivals", 7)
    assert raised.value.param == "slide"


def test_dismiss_is_reported_once_and_survives_a_restart(server_bin: str, store: str) -> None:
    with Client(server_bin, store=store, sample_feed=True) as inbox:
        assert inbox.message_dismiss("hero-banner") == {"dismissed": True}
        assert inbox.message_dismiss("hero-banner") == {"dismissed": False}
    assert inbox.returncode == 0
    with Client(server_bin, store=store, sample_feed=True) as inbox:
        ids = [card["id"] for card in inbox.iter_feed()]
        assert "hero-banner" not in ids and len(ids) == 9
        with pytest.raises(MessageNotFound):
            inbox.message_get("hero-banner")


def test_mark_read_counts_changes_and_names_the_rest(inbox: Client) -> None:
    assert inbox.message_mark_read(["welcome", "nope"]) == {"changed": 1, "unchanged": ["nope"]}
    assert inbox.feed_mark_all_read() == {"changed": 9}
    assert inbox.feed_counts()["unread"] == 0


def test_resolve_stores_nothing_and_ingest_adds_the_message(inbox: Client) -> None:
    card = inbox.message_resolve(FLASH_SALE_PUSH)
    assert_shape(card, Card)
    assert (card["id"], card["kind"], card["title"]) == ("flash-sale-42", "captioned", "Flash sale")
    assert card["buttons"][0]["action"] == {"type": "openURL", "url": "https://example.com/shoes"}
    forced = inbox.message_resolve(FLASH_SALE_PUSH, attributes={"forceCellKind": "banner"})
    assert forced["kind"] == "banner"
    assert inbox.feed_counts()["total"] == 10

    ingested = inbox.message_ingest(FLASH_SALE_PUSH)
    assert ingested["outcome"] == "added" and ingested["message"]["id"] == "flash-sale-42"
    assert inbox.message_ingest(FLASH_SALE_PUSH)["outcome"] == "updated"
    assert inbox.feed_counts()["total"] == 11


def test_config_set_is_kept_and_config_get_reads_it(inbox: Client) -> None:
    assert inbox.config_set({"forceCellKind": "classic"})["attributes"]["forceCellKind"] == "classic"
    assert inbox.config_get()["attributes"]["forceCellKind"] == "classic"
    assert {card["kind"] for card in inbox.iter_feed()} == {"classic"}


# MARK: - Error replies


def test_an_unknown_id_raises_message_not_found_with_its_data(inbox: Client) -> None:
    with pytest.raises(MessageNotFound) as raised:
        inbox.message_tap("no-such-message")
    error = raised.value
    assert (error.code, error.message, error.data) == (-32001, "Message not found", {"id": "no-such-message"})
    assert error.id == "no-such-message" and error.method == "message.tap"
    assert isinstance(error, RPCError)


@pytest.mark.parametrize(
    "method, params, param",
    [
        ("feed.list", {"limit": 0}, "limit"),
        ("feed.list", {"kinds": ["poster"]}, "kinds[0]"),
        ("feed.list", {"cursor": "not-a-cursor"}, "cursor"),
        ("message.get", {}, "id"),
        ("message.get", {"id": 7}, "id"),
        ("button.tap", {"id": "summer-sale", "button": 5}, "button"),
        ("message.markRead", {"ids": "welcome"}, "ids"),
    ],
)
def test_bad_params_raise_invalid_params_naming_the_param(
    inbox: Client, method: str, params: Mapping[str, Any], param: str
) -> None:
    with pytest.raises(InvalidParams) as raised:
        inbox.call(method, dict(params))
    assert raised.value.code == -32602
    assert raised.value.param == param
    assert raised.value.reason


def test_a_payload_that_is_no_inbox_message_raises_and_stores_nothing(inbox: Client) -> None:
    with pytest.raises(NotAnInboxMessage) as raised:
        inbox.message_ingest({"aps": {"alert": "plain push"}})
    assert raised.value.code == -32010
    assert set(raised.value.data) >= {"reason", "code"}
    assert inbox.feed_counts()["total"] == 10


def test_an_unknown_method_raises_method_not_found(inbox: Client) -> None:
    with pytest.raises(MethodNotFound) as raised:
        inbox.call("feed.frobnicate", limit=1)
    assert raised.value.data == {"method": "feed.frobnicate"}


def test_keyword_arguments_are_the_params(inbox: Client) -> None:
    assert [card["id"] for card in inbox.call("feed.list", limit=2)["items"]] == SAMPLE_IDS[:2]
    assert inbox.call("test.echo", value=[1, "two"]) == [1, "two"]
    with pytest.raises(TypeError):
        inbox.call("feed.list", {"limit": 1}, limit=2)


def test_every_known_code_has_its_class_and_unknown_codes_stay_rpc_error() -> None:
    assert RPCError.for_code(-32001) is MessageNotFound
    assert RPCError.for_code(-32030) is BackendUnavailable
    assert RPCError.for_code(-32031) is BackendRefused
    assert RPCError.for_code(-32032) is BackendMalformedReply
    assert RPCError.for_code(-32033) is BackendNotConfigured
    assert all(issubclass(RPCError.for_code(code), BackendError) for code in range(-32033, -32029))
    unknown = RPCError.from_reply({"code": -31999, "message": "new", "data": {"x": 1}})
    assert type(unknown) is RPCError and unknown.data == {"x": 1}


def test_sync_without_a_backend_is_a_typed_error(inbox: Client) -> None:
    """feed.sync on a server with no backend configured: BackendNotConfigured naming what is missing."""
    progress: list = []
    with pytest.raises(BackendNotConfigured) as raised:
        inbox.feed_sync(on_progress=progress.append, timeout=20)
    assert raised.value.code == -32033 and "missing" in raised.value.data
    assert inbox._listeners == []  # the progress listener is gone with the call


def test_an_unreachable_backend_is_backend_unavailable(server_bin: str, store: str) -> None:
    """A backend that refuses connections: BackendUnavailable, and the local feed still works."""
    args = ["--application", "APP-12345", "--backend-url", "http://127.0.0.1:9/json/1.3/"]
    with Client(server_bin, store=store, sample_feed=True, args=args, timeout=20) as client:
        with pytest.raises(BackendUnavailable) as raised:
            client.feed_sync(timeout=20)
        assert raised.value.data["method"] == "inboxStatus" or raised.value.data["method"] == "getInboxMessages"
        assert len(client.feed_list(limit=3)["items"]) == 3
