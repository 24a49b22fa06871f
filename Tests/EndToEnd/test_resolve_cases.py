"""Every resolver rule end to end: the rows of Tests/InboxCoreTests/Fixtures/resolver-cases.json
(the same table the Swift engine tests replay) sent through `message.resolve` over stdio."""

from __future__ import annotations

import json
import os

import pytest

from conftest import Server, same_json

CASES_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "InboxCoreTests", "Fixtures", "resolver-cases.json"
)
CASES = json.load(open(CASES_PATH, encoding="utf-8"))


@pytest.fixture(scope="module")
def server():
    server = Server(["--framing", "ndjson"])
    yield server
    server.close_stdin()
    server.wait_exit()


def resolve(server: Server, case: dict) -> tuple[dict, list[dict]]:
    params = {"payload": case["payload"]}
    if case.get("attributes") is not None:
        params["attributes"] = case["attributes"]
    context = case.get("context") or {}
    if "id" in context:
        params["id"] = context["id"]
    if "now" in context:
        params["now"] = context["now"]
    before = len(server.notifications)
    reply = server.call("message.resolve", params)
    logs = [n["params"] for n in server.notifications[before:] if n["method"] == "log"]
    return reply, logs


def test_the_table_is_the_engines_table():
    assert len(CASES) >= 90
    assert len({case["name"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(server: Server, case: dict):
    reply, logs = resolve(server, case)
    expect = case["expect"]
    if "error" in expect:
        assert "error" in reply, f"expected {expect['error']}, got {reply}"
        error = reply["error"]
        assert error["code"] == -32010 and error["data"]["code"] == expect["error"]
        if "reasonContains" in expect:
            assert expect["reasonContains"] in error["data"]["reason"]
        return
    assert "result" in reply, reply
    card = reply["result"]
    if "kind" in expect:
        assert card["kind"] == expect["kind"]
    if "requestedKind" in expect:
        assert card["requestedKind"] == expect["requestedKind"]
    if "degradedFrom" in expect:
        if expect["degradedFrom"] is None:
            assert card["degraded"] is None
        else:
            assert card["degraded"]["from"] == expect["degradedFrom"]
    if "reasonContains" in expect:
        assert expect["reasonContains"] in (card["degraded"] or {}).get("reason", "")
    if "warningCodes" in expect:
        # Each warning arrives once as a `log` notification (WARN) before the reply.
        assert [log["data"]["code"] for log in logs] == expect["warningCodes"]
        assert all(log["level"] == "warn" and log["data"]["messageId"] == card["id"] for log in logs)
    if "buttons" in expect:
        assert len(card["buttons"]) == len(expect["buttons"])
        for want, got in zip(expect["buttons"], card["buttons"]):
            if isinstance(want, str):
                assert got["action"]["type"] == want
            else:
                assert same_json(got, want)
    if "slides" in expect:
        assert len(card.get("carousel", [])) == expect["slides"]
    for key in ("pinned", "customData", "rowAction"):
        if key in expect:
            assert same_json(card[key], expect[key]), key
    for key, value in (expect.get("card") or {}).items():
        assert same_json(card.get(key), value), f"card.{key}: {card.get(key)!r} != {value!r}"
