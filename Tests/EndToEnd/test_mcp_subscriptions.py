"""MCP resource subscriptions are capped per session (1,000 URIs): past the cap `resources/subscribe`
is -32602 saying to unsubscribe first; a URI already subscribed, and one subscribed after an
unsubscribe, are still accepted. A listen stream's filter has the same cap."""

from __future__ import annotations

import pytest

from conftest import Server

CAP = 1000


@pytest.fixture
def mcp(tmp_path):
    server = Server(["mcp", "--store", str(tmp_path / "inbox.sqlite")], store=False, test_methods=False)
    server._check_contract = lambda message: None
    server.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "test", "version": "1"}})
    server.notify("notifications/initialized")
    yield server
    server.close_stdin()
    server.wait_exit(5)


def batch(server: Server, method: str, uris: list[str]) -> list[dict]:
    requests = [{"jsonrpc": "2.0", "id": f"{method}-{i}", "method": method, "params": {"uri": uri}}
                for i, uri in enumerate(uris)]
    server.send(requests)
    replies = server.recv(timeout=30)
    assert isinstance(replies, list) and len(replies) == len(uris), replies
    return sorted(replies, key=lambda reply: int(reply["id"].rsplit("-", 1)[1]))


def uris(first: int, count: int) -> list[str]:
    return [f"inbox://message/nothing-{i}" for i in range(first, first + count)]


def test_subscriptions_past_the_cap_are_refused_and_room_comes_back_on_unsubscribe(mcp):
    replies = batch(mcp, "resources/subscribe", uris(0, CAP - 1) + ["inbox://counts"])
    assert all(reply.get("result") == {} for reply in replies), [r for r in replies if "error" in r][:2]
    past = mcp.call("resources/subscribe", {"uri": "inbox://message/one-more"})
    assert past["error"]["code"] == -32602, past
    assert "at most 1000 resource subscriptions per session" in past["error"]["message"]
    assert "resources/unsubscribe" in past["error"]["message"]
    assert mcp.call("resources/subscribe", {"uri": "inbox://counts"})["result"] == {}  # already subscribed
    assert all(reply.get("result") == {} for reply in batch(mcp, "resources/unsubscribe", uris(0, 10)))
    again = batch(mcp, "resources/subscribe", uris(CAP, 11))
    assert [("result" in reply) for reply in again] == [True] * 10 + [False]


def test_a_listen_filter_past_the_cap_is_refused(tmp_path):
    server = Server(["mcp", "--store", str(tmp_path / "inbox.sqlite")], store=False, test_methods=False)
    server._check_contract = lambda message: None
    try:
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {}}
        server.call("server/discover", {"_meta": meta})
        reply = server.call("subscriptions/listen", {
            "notifications": {"resourceSubscriptions": uris(0, CAP + 1)}, "_meta": meta})
        assert reply["error"]["code"] == -32602, reply
        assert reply["error"]["data"]["param"] == "notifications.resourceSubscriptions"
    finally:
        server.close_stdin()
        server.wait_exit(5)
