"""`inbox-rpc mcp` as smolagents sees it: `ToolCollection.from_mcp` over stdio, built on mcpadapt,
which copies each input property as a smolagents input and calls a property without a `type` a
string. Every tool must come through with the types the server means (a tab's `customData` an
object, a payload an object), and a tool called directly, as an agent's code calls it, must answer
with an optional argument and without one. Runs in .venv-smolagents (script/bootstrap --python);
elsewhere it skips."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("smolagents", reason="smolagents and mcpadapt are installed in .venv-smolagents only")

from mcp import StdioServerParameters  # noqa: E402
from smolagents import ToolCollection  # noqa: E402

from harness import BIN, REPO  # noqa: E402

with open(os.path.join(REPO, "clients", "examples", "flash-sale-push.json"), encoding="utf-8") as _file:
    PUSH = json.load(_file)

JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object"}


def test_smolagents_lists_the_tools_and_calls_them_with_and_without_an_optional_argument(store):
    server = StdioServerParameters(command=BIN, args=["mcp", "--store", store, "--sample-feed"])
    with ToolCollection.from_mcp(server, trust_remote_code=True, structured_output=False) as collection:
        tools = {tool.name: tool for tool in collection.tools}
        assert {"list_feed", "get_message", "inbox_counts", "lint_payload", "mark_all_read"} <= set(tools)
        for name, tool in tools.items():
            for argument, schema in tool.inputs.items():
                assert isinstance(schema["type"], str) and schema["type"] in JSON_TYPES, (name, argument, schema)
        feed = tools["list_feed"]
        assert {argument: schema["type"] for argument, schema in feed.inputs.items()} == {
            "cursor": "string", "limit": "integer", "unreadOnly": "boolean", "kinds": "array", "customData": "object"}
        assert tools["lint_payload"].inputs["payload"]["type"] == "object"

        everything = feed()
        assert "total 10, unread 10" in everything and "plain-note" in everything, everything
        page = feed(limit=2)
        assert "welcome" in page and "plain-note" not in page and "cursor" in page, page
        assert "welcome" not in feed(limit=2, customData={"category": "none"})
        assert "captioned card flash-sale-42" in tools["lint_payload"](payload=PUSH)
        assert tools["inbox_counts"]() == "total 10, unread 10, unactioned 10, pinned 1, unseen 10"
