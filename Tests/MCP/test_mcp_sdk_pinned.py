"""`inbox-rpc mcp` driven by the official SDK pinned at an older revision, as hosts built on it
drive it: 1.9.x (.venv-mcp19) speaks 2025-03-26, 1.5.x (.venv-mcp15) 2024-11-05 alone, and closes
the connection on any other answer. The server answers that revision, and the SDK lists and calls
the tools (with and without an optional argument), reads the resources, gets the prompts and
follows a sync's progress. What the revision lacks is not sent (structured output, output schemas
and titles; at 2024-11-05 tool annotations and a progress message too), so each tool's text must
carry what the next call needs; schema-breaking arguments and unknown tools are -32602 in both.
Other SDKs skip this file."""

from __future__ import annotations

import json
import re

import anyio
import pytest

from harness import SDK, ProtocolError, changes_cursor_of_another_store, code_of, session

# The revision each pinned SDK speaks, and what a tool of a later one carries that it lacks.
PINNED = {"1.9.": ("2025-03-26", {"title", "outputSchema"}),
          "1.5.": ("2024-11-05", {"title", "outputSchema", "annotations"})}
RELEASE = next((prefix for prefix in PINNED if SDK.startswith(prefix)), None)
if RELEASE is None:
    pytest.skip(f"for the 1.9.x and 1.5.x SDKs (revisions 2025-03-26, 2024-11-05); this is mcp {SDK}",
                allow_module_level=True)
REVISION, LATER = PINNED[RELEASE]

from mcp import types  # noqa: E402

READ_ONLY = {"list_feed", "get_message", "inbox_counts", "resolve_payload", "lint_payload", "list_changes", "explain_card"}


def text(result) -> str:
    assert not result.isError, result.content
    assert [block.type for block in result.content] == ["text"]
    assert getattr(result, "structuredContent", None) is None and "structuredContent" not in (result.model_extra or {})
    return result.content[0].text


def test_the_pinned_sdk_lists_calls_and_reads(store):
    async def main():
        foreign = await changes_cursor_of_another_store(store)
        async with session(store, "--sample-feed", mode="legacy") as peer:
            assert peer.negotiated == REVISION
            await peer.client.send_ping()
            tools = {tool.name: tool for tool in (await peer.client.list_tools()).tools}
            assert {"list_feed", "get_message", "tap_button", "dismiss_message", "sync_inbox"} <= set(tools)
            for name, tool in tools.items():
                assert not LATER & set(tool.model_extra or {}), (name, tool.model_extra)
                if "annotations" not in LATER:
                    assert tool.annotations.readOnlyHint is (name in READ_ONLY), name
                assert tool.inputSchema["type"] == "object"

            # The next call's ids, indexes and cursor come from the text alone; an optional
            # argument left out, then given.
            everything = text(await peer.client.call_tool("list_feed", {}))
            assert "welcome" in everything and "plain-note" in everything
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
            assert [template.uriTemplate for template in templates] == ["inbox://message/{id}", "inbox://changes{?since,limit}"]
            counts = json.loads((await peer.client.read_resource("inbox://counts")).contents[0].text)
            assert counts == {"total": 9, "unread": 9, "unactioned": 9, "pinned": 0, "unseen": 9}
            message = json.loads((await peer.client.read_resource("inbox://message/summer-sale")).contents[0].text)
            assert message["kind"] == "captioned"
            # The badge cleared, then the journal read from a cursor: the same JSON list_changes answers.
            start = json.loads((await peer.client.read_resource("inbox://changes")).contents[0].text)
            assert text(await peer.client.call_tool("mark_all_seen", {})) == "marked seen: changed 9"
            changes = json.loads((await peer.client.read_resource(f"inbox://changes?since={start['cursor']}")).contents[0].text)
            assert len(changes["changes"]) == 9 and {c["fields"][0] for c in changes["changes"]} == {"seen"}, changes
            assert f"cursor: {changes['cursor']}" in text(await peer.client.call_tool("list_changes", {"since": start["cursor"]}))
            with pytest.raises(ProtocolError) as refused:
                await peer.client.read_resource(f"inbox://changes?since={foreign}")
            assert code_of(refused.value) == -32021 and refused.value.error.data["uri"].endswith(foreign)
            with pytest.raises(ProtocolError) as refused:
                await peer.client.read_resource("inbox://message/welcome")  # dismissed above
            assert code_of(refused.value) == -32002
            prompts = (await peer.client.list_prompts()).prompts
            assert {prompt.name for prompt in prompts} == {"summarize_unread", "check_payload"}
            assert all("title" not in (prompt.model_extra or {}) for prompt in prompts)
            got = await peer.client.get_prompt("summarize_unread")
            assert [message.content.type for message in got.messages] == ["text", "resource"]

    anyio.run(main)


def test_a_sync_s_progress_has_a_message_where_the_revision_has_one(store, backend, backend_args):
    backend.add_message("remote-1")

    async def main():
        async with session(store, *backend_args, mode="legacy") as peer:
            call = types.CallToolRequest(
                method="tools/call",
                params=types.CallToolRequestParams(
                    name="sync_inbox", arguments={"force": True}, _meta=types.RequestParams.Meta(progressToken=7)))
            result = await peer.client.send_request(types.ClientRequest(call), types.CallToolResult)
            assert text(result).startswith("added 1, "), text(result)
            progress = [note for note in peer.notifications if isinstance(note, types.ProgressNotification)]
            assert progress, peer.notifications
            for note in progress:
                said = getattr(note.params, "message", None) or (note.params.model_extra or {}).get("message")
                assert note.params.progressToken == 7 and (said is not None) is (REVISION != "2024-11-05"), note

    anyio.run(main)
