"""`inbox-rpc mcp` driven by the official SDK pinned at a 2025-03-26 release (1.9.x, .venv-mcp19),
as hosts built on it drive it: the server answers that revision, and the SDK lists and calls the
tools and lists and reads the resources. What 2025-03-26 lacks (structured output, output schemas,
titles) is not sent, so each tool's text must carry what the next call needs; schema-breaking
arguments and unknown tools are -32602 in that revision. Other SDKs skip this file."""

from __future__ import annotations

import json
import re

import anyio
import pytest

from harness import SDK, ProtocolError, code_of, session

if not SDK.startswith("1.9."):
    pytest.skip(f"for the 1.9.x SDK (revision 2025-03-26); this is mcp {SDK}", allow_module_level=True)

READ_ONLY = {"list_feed", "get_message", "inbox_counts", "resolve_payload", "lint_payload", "list_changes"}


def text(result) -> str:
    assert not result.isError, result.content
    assert [block.type for block in result.content] == ["text"]
    return result.content[0].text


def test_the_2025_03_26_sdk_lists_calls_and_reads(store):
    async def main():
        async with session(store, "--sample-feed", mode="legacy") as peer:
            assert peer.negotiated == "2025-03-26"
            await peer.client.send_ping()
            tools = {tool.name: tool for tool in (await peer.client.list_tools()).tools}
            assert {"list_feed", "get_message", "tap_button", "dismiss_message", "sync_inbox"} <= set(tools)
            for name, tool in tools.items():
                extra = tool.model_extra or {}
                assert "title" not in extra and "outputSchema" not in extra, (name, extra)
                assert tool.annotations.readOnlyHint is (name in READ_ONLY), name
                assert tool.inputSchema["type"] == "object"

            # The next call's ids, indexes and cursor come from the text alone.
            page = text(await peer.client.call_tool("list_feed", {"limit": 3}))
            ids = re.findall(r"^\S*\s+(\S+)\s{2}", page, re.MULTILINE)
            assert ids[:3] == ["welcome", "summer-sale", "new-arrivals"], page
            assert "total 10, unread 10" in page and "[1] Dismiss: dismiss" in page
            cursor = re.search(r'cursor "([^"]+)"', page).group(1)
            rest = text(await peer.client.call_tool("list_feed", {"cursor": cursor, "limit": 50}))
            assert "welcome" not in rest and "plain-note" in rest
            card = text(await peer.client.call_tool("get_message", {"id": "summer-sale"}))
            assert "button 1: Save: custom" in card
            tapped = text(await peer.client.call_tool("tap_button", {"id": "welcome", "button": 1}))
            assert "action: dismiss" in tapped and "left the feed" in tapped
            assert text(await peer.client.call_tool("inbox_counts", {})) == "total 9, unread 9, unactioned 9, pinned 0, unseen 9"
            for result in [await peer.client.call_tool("inbox_counts", {})]:
                assert getattr(result, "structuredContent", None) is None and "structuredContent" not in (
                    result.model_extra or {})

            with pytest.raises(ProtocolError) as refused:
                await peer.client.call_tool("list_feed", {"limit": 0})
            assert code_of(refused.value) == -32602 and refused.value.error.data["sent"] == "0"
            with pytest.raises(ProtocolError) as refused:
                await peer.client.call_tool("no_such_tool", {})
            assert code_of(refused.value) == -32602

            resources = (await peer.client.list_resources()).resources
            uris = [str(resource.uri) for resource in resources]
            assert uris[:3] == ["inbox://feed", "inbox://counts", "inbox://schemas/openrpc.json"]
            assert all("title" not in (resource.model_extra or {}) for resource in resources)
            templates = (await peer.client.list_resource_templates()).resourceTemplates
            assert [template.uriTemplate for template in templates] == ["inbox://message/{id}"]
            counts = json.loads((await peer.client.read_resource("inbox://counts")).contents[0].text)
            assert counts == {"total": 9, "unread": 9, "unactioned": 9, "pinned": 0, "unseen": 9}
            message = json.loads((await peer.client.read_resource("inbox://message/summer-sale")).contents[0].text)
            assert message["kind"] == "captioned"
            prompts = (await peer.client.list_prompts()).prompts
            assert {prompt.name for prompt in prompts} == {"summarize_unread", "check_payload"}

    anyio.run(main)
