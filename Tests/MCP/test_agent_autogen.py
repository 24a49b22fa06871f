"""`inbox-rpc mcp` as AutoGen sees it: `mcp_server_tools` over stdio turns each tool's input schema
into a pydantic model, and fails on a property whose `type` is a list (`["string", "null"]`) or
missing. Every tool must come through, and `run_json` (what an AutoGen agent calls) must answer
with an optional argument and without one. Runs in .venv-autogen (script/bootstrap --python);
elsewhere it skips."""

from __future__ import annotations

import json
import os

import anyio
import pytest

pytest.importorskip("autogen_ext.tools.mcp", reason="autogen-ext[mcp] is installed in .venv-autogen only")

from autogen_core import CancellationToken  # noqa: E402
from autogen_ext.tools.mcp import StdioServerParams, mcp_server_tools  # noqa: E402

from harness import BIN, REPO  # noqa: E402

with open(os.path.join(REPO, "clients", "examples", "flash-sale-push.json"), encoding="utf-8") as _file:
    PUSH = json.load(_file)


def text(result) -> str:
    """The text of a tool's result as AutoGen returns it (a list of content blocks)."""
    return "\n".join(block.text for block in result)


def test_autogen_lists_the_tools_and_calls_them_with_and_without_an_optional_argument(store):
    async def main():
        server = StdioServerParams(command=BIN, args=["mcp", "--store", store, "--sample-feed"])
        tools = {tool.name: tool for tool in await mcp_server_tools(server)}
        assert {"list_feed", "get_message", "inbox_counts", "lint_payload", "mark_all_read"} <= set(tools)
        feed = tools["list_feed"]
        fields = feed.args_type().model_fields
        assert set(fields) == {"cursor", "limit", "unreadOnly", "kinds", "customData"}
        assert not any(field.is_required() for field in fields.values())

        everything = text(await feed.run_json({}, CancellationToken()))
        assert "total 10, unread 10" in everything and "plain-note" in everything, everything
        page = text(await feed.run_json({"limit": 2}, CancellationToken()))
        assert "welcome" in page and "plain-note" not in page and "cursor" in page, page
        # An optional argument the model wrote as null is absent.
        assert text(await feed.run_json({"limit": 2, "cursor": None}, CancellationToken())) == page
        linted = text(await tools["lint_payload"].run_json({"payload": PUSH}, CancellationToken()))
        assert "captioned card flash-sale-42" in linted
        counts = text(await tools["inbox_counts"].run_json({}, CancellationToken()))
        assert counts == "total 10, unread 10, unactioned 10, pinned 1, unseen 10"

    anyio.run(main)
