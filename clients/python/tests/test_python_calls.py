"""Calls through the contract's attributes against the real server: every method once, results
and state changes, and the ways to give params."""

from __future__ import annotations

from python_client_support import CONTRACT, SAMPLE_IDS, inbox, replies_fit_the_contract, server_bin, store, watchdog  # noqa: F401  (fixtures; first: it finds the package)

from functools import reduce
from typing import Any, Dict

import pytest

from inbox_rpc_client import Client, InboxRpcError

REQUESTS = [m for m in CONTRACT.document["methods"] if not m.get("x-notification") and m["name"] != "shutdown"]
# What the sample feed's server answers instead of a result: it has no backend to sync with, and a
# host that declared no platform that can add passes sees the wallet card as classic.
EXPECTED_ERRORS = {"feed.sync": "BackendNotConfigured", "wallet.download": "NotAWalletCard",
                   "wallet.report": "NotAWalletCard"}


def example_params(method: Dict[str, Any]) -> Dict[str, Any]:
    examples = method.get("examples") or [{"params": []}]
    return {param["name"]: param["value"] for param in examples[0]["params"]}


@pytest.mark.parametrize("method", REQUESTS, ids=lambda m: m["name"])
def test_every_method_of_the_contract_is_an_attribute_of_the_client(inbox: Client, method: Dict[str, Any]) -> None:
    """`client.feed.list(limit=3)` for every method, with the params of the contract's example;
    the reply fits the method's result schema (checked on every frame by the support module)."""
    bound = reduce(getattr, method["name"].split("."), inbox)
    expected = EXPECTED_ERRORS.get(method["name"])
    if expected is None:
        assert bound(**example_params(method)) is not None or method["result"]["schema"].get("type") == "null"
    else:
        with pytest.raises(getattr(inbox.errors, expected)):
            bound(**example_params(method))


def test_shutdown_is_called_by_its_name_and_later_requests_are_refused(inbox: Client) -> None:
    assert inbox.shutdown() is None
    with pytest.raises(InboxRpcError) as raised:
        inbox.rpc.ping()
    assert raised.value.code == -32600 and raised.value.name is None, "-32600 is no named error: the base class"


def test_namespaces_list_their_methods_and_refuse_what_the_contract_lacks(inbox: Client) -> None:
    assert dir(inbox.feed) == ["changes", "counts", "dismissAll", "dismissRead", "list", "markAllRead", "markAllSeen", "seen",
                               "sync"]
    assert {"feed", "message", "button", "slide", "video", "wallet", "config", "rpc", "initialize", "shutdown", "exit"} <= set(dir(inbox))
    assert "changed" not in dir(inbox.feed), "a server notification is not a method"
    with pytest.raises(AttributeError, match="feed.frobnicate"):
        inbox.feed.frobnicate
    with pytest.raises(TypeError, match="namespace"):
        inbox.feed()
    assert inbox.feed.list.__doc__.startswith("Returns one page of the feed")


def test_feed_pages_cover_the_sample_feed_once_in_feed_order(inbox: Client) -> None:
    page = inbox.feed.list(limit=4)
    assert [card["id"] for card in page["items"]] == SAMPLE_IDS[:4]
    assert page["counts"] == {"total": 10, "unread": 10, "unactioned": 10, "pinned": 1, "unseen": 10}
    ids, cursor = [], None
    while True:
        page = inbox.feed.list(limit=3, cursor=cursor)
        ids += [card["id"] for card in page["items"]]
        cursor = page["nextCursor"]
        if cursor is None:
            break
    assert ids == SAMPLE_IDS


def test_params_go_as_keywords_as_one_object_or_as_an_array(inbox: Client) -> None:
    assert [c["id"] for c in inbox.feed.list({"limit": 2})["items"]] == SAMPLE_IDS[:2]
    assert [c["id"] for c in inbox.call("feed.list", limit=2)["items"]] == SAMPLE_IDS[:2]
    assert inbox.call("sum", [1, 2, 3]) == 6  # a test method that takes its params by position
    assert inbox.call("test.echo", value=[1, "two"]) == [1, "two"]
    with pytest.raises(TypeError):
        inbox.call("feed.list", {"limit": 1}, limit=2)


def test_taps_return_actions_and_dismiss_is_kept(server_bin: str, store: str) -> None:
    with Client(server_bin, store=store, sample_feed=True) as inbox:
        assert inbox.button.tap(id="summer-sale", button=0)["action"] == {
            "type": "openURL", "url": "https://example.com/promo/SUMMER2026"}
        tapped = inbox.button.tap(id="welcome", button=1)
        assert tapped["action"] == {"type": "dismiss"} and tapped["performed"] and tapped["message"] is None
        assert inbox.message.tap(id="plain-note")["action"] == {"type": "deeplink", "url": "myapp://orders/1234"}
        assert inbox.slide.tap(id="new-arrivals", slide=0)["action"] == {"type": "deeplink", "url": "myapp://product/1"}
        assert inbox.video.play(id="the-reveal")["video"]["url"] == "https://cdn.example.com/inbox/clip.mp4"
        assert inbox.feed.seen(appeared=["the-reveal"], disappeared=["loyalty-card"]) == {
            "seen": [], "read": ["loyalty-card"], "unknown": []}  # the played video was read, so seen
        assert inbox.message.dismiss(id="hero-banner") == {"dismissed": True}
    assert inbox.returncode == 0
    with Client(server_bin, store=store, sample_feed=True) as inbox:
        assert inbox.message.dismiss(id="hero-banner") == {"dismissed": False}
        assert inbox.feed.counts()["total"] == 8


def test_config_set_is_kept_and_initialize_names_the_server(inbox: Client) -> None:
    assert inbox.config.set(attributes={"forceCellKind": "classic"})["attributes"]["forceCellKind"] == "classic"
    assert inbox.config.get()["attributes"]["forceCellKind"] == "classic"
    assert {card["kind"] for card in inbox.feed.list(limit=50)["items"]} == {"classic"}
    result = inbox.initialize(client={"name": "pytest", "version": "1"}, platform="android")
    assert result["server"]["name"] == "inbox-rpc" and result["attributes"]["platform"] == "android"
