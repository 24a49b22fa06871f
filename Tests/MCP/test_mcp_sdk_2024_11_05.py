"""`inbox-rpc mcp` driven by the official SDK pinned at a 2024-11-05 release (1.5.x, .venv-mcp15),
which speaks that revision alone and closes the connection on any other answer: the server answers
2024-11-05, and the SDK lists and calls the tools (with and without an optional argument), reads
the resources, gets the prompts and follows a sync's progress. What 2024-11-05 lacks (tool
annotations, titles, structured output, a progress message) is not sent; schema-breaking arguments
and unknown tools are -32602 in that revision. Other SDKs skip this file."""

from __future__ import annotations

import json
import re

import anyio
import pytest

from harness import SDK, ProtocolError, code_of, session

if not SDK.startswith("1.5."):
    pytest.skip(f"for the 1.5.x SDK (revision 2024-11-05); this is mcp {SDK}", allow_module_level=True)

from mcp import types  # noqa: E402

LATER = {"title", "annotations", "outputSchema"}  # what a tool of a later revision may carry


def text(result) -> str:
    assert not result.isError, result.content
    assert [block.type for block in result.content] == ["text"]
    assert "structuredContent" not in (result.model_extra or {})
    return result.content[0].text


def test_the_2024_11_05_sdk_lists_calls_and_reads(store):
    async def main():
        async with session(store, "--sample-feed", mode="legacy") as peer:
            assert peer.negotiated == "2024-11-05"
            await peer.client.send_ping()
            tools = {tool.name: tool for tool in (await peer.client.list_tools()).tools}
            assert {"list_feed", "get_message", "tap_button", "dismiss_message", "sync_inbox"} <= set(tools)
            for name, tool in tools.items():
                assert not LATER & set(tool.model_extra or {}), (name, tool.model_extra)
                assert tool.inputSchema["type"] == "object"

            # An optional argument left out, then given.
            page = text(await peer.client.call_tool("list_feed", {}))
            assert "total 10, unread 10" in page and "welcome" in page and "plain-note" in page
            page = text(await peer.client.call_tool("list_feed", {"limit": 3}))
            ids = re.findall(r"^\S*\s+(\S+)\s{2}", page, re.MULTILINE)
            assert ids[:3] == ["welcome", "summer-sale", "new-arrivals"], page
            cursor = re.search(r'cursor "([^"]+)"', page).group(1)
            assert "welcome" not in text(await peer.client.call_tool("list_feed", {"cursor": cursor}))
            tapped = text(await peer.client.call_tool("tap_button", {"id": "welcome", "button": 1}))
            assert "action: dismiss" in tapped
            assert text(await peer.client.call_tool("inbox_counts", {})) == "total 9, unread 9, unactioned 9, pinned 0"

            with pytest.raises(ProtocolError) as refused:
                await peer.client.call_tool("list_feed", {"limit": 0})
            assert code_of(refused.value) == -32602 and refused.value.error.data["sent"] == "0"
            with pytest.raises(ProtocolError) as refused:
                await peer.client.call_tool("no_such_tool", {})
            assert code_of(refused.value) == -32602

            resources = (await peer.client.list_resources()).resources
            assert [str(r.uri) for r in resources][:3] == ["inbox://feed", "inbox://counts", "inbox://schemas/openrpc.json"]
            assert all("title" not in (resource.model_extra or {}) for resource in resources)
            templates = (await peer.client.list_resource_templates()).resourceTemplates
            assert [template.uriTemplate for template in templates] == ["inbox://message/{id}"]
            counts = json.loads((await peer.client.read_resource("inbox://counts")).contents[0].text)
            assert counts == {"total": 9, "unread": 9, "unactioned": 9, "pinned": 0}
            with pytest.raises(ProtocolError) as refused:
                await peer.client.read_resource("inbox://message/summer-sale-gone")
            assert code_of(refused.value) == -32002
            prompts = (await peer.client.list_prompts()).prompts
            assert {prompt.name for prompt in prompts} == {"summarize_unread", "check_payload"}
            assert all("title" not in (prompt.model_extra or {}) for prompt in prompts)
            got = await peer.client.get_prompt("summarize_unread")
            assert [message.content.type for message in got.messages] == ["text", "resource"]

    anyio.run(main)


def test_a_sync_s_progress_has_no_message_in_2024_11_05(store, backend, backend_args):
    backend.add_message("remote-1")

    async def main():
        async with session(store, *backend_args, mode="legacy") as peer:
            assert peer.negotiated == "2024-11-05"
            call = types.CallToolRequest(
                method="tools/call",
                params=types.CallToolRequestParams(
                    name="sync_inbox", arguments={"force": True}, _meta=types.RequestParams.Meta(progressToken=7)))
            result = await peer.client.send_request(types.ClientRequest(call), types.CallToolResult)
            assert text(result).startswith("added 1, "), text(result)
            progress = [note for note in peer.notifications if isinstance(note, types.ProgressNotification)]
            assert progress, peer.notifications
            for note in progress:
                assert note.params.progressToken == 7
                assert "message" not in (note.params.model_extra or {}), note.params

    anyio.run(main)
