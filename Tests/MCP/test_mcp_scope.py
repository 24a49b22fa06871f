"""What an agent may do, chosen on the command line: `--read-only` offers only the tools whose
annotations say read-only (resources and prompts stay), `--tools NAME,...` only the tools named.
tools/list shows only what is offered, and a call to any other tool is refused, saying why, with
the store unchanged. A name that is no tool is a bad command line (exit 2)."""

from __future__ import annotations

import json
import os
import subprocess

import anyio
import pytest

from harness import BIN, MAJOR, REPO, ProtocolError, attr, code_of, session

MODES = ["auto", "legacy"] if MAJOR >= 2 else ["legacy"]


def read_only_in_the_contract() -> set[str]:
    with open(os.path.join(REPO, "Schemas", "openrpc.json"), encoding="utf-8") as file:
        methods = json.load(file)["methods"]
    return {tool["name"] for method in methods for tool in method.get("x-mcp-tools", []) if tool["hints"]["readOnly"]}


def stored_feed(store: str) -> dict:
    """The store as a fresh JSON-RPC server reads it."""
    request = b'{"jsonrpc":"2.0","id":1,"method":"feed.list","params":{"limit":50}}\n'
    done = subprocess.run([BIN, "--store", store], input=request, capture_output=True, timeout=30)
    frames = [json.loads(line) for line in done.stdout.splitlines()]
    return next(frame["result"] for frame in frames if frame.get("id") == 1)


@pytest.mark.parametrize("mode", MODES)
def test_read_only_offers_no_tool_that_writes_and_refuses_a_dismissal(store, mode):
    async def main():
        async with session(store, "--sample-feed", "--read-only", mode=mode) as peer:
            tools = await peer.tools()
            names = {tool.name for tool in tools}
            assert names == read_only_in_the_contract() and {"list_feed", "get_message"} <= names
            if peer.version != "2024-11-05":  # that revision has no tool annotations
                assert all(attr(tool.annotations, "read_only_hint") is True for tool in tools)
            with pytest.raises(ProtocolError) as refused:
                await peer.client.call_tool("dismiss_message", {"id": "welcome"})
            assert code_of(refused.value) == -32602
            assert "--read-only" in str(refused.value) and "dismiss_message" in str(refused.value)
            assert set(refused.value.error.data["tools"]) == names
            # What only reads stays: tools, resources and prompts.
            assert "welcome" in (await peer.call("get_message", {"id": "welcome"})).content[0].text
            assert (await peer.read("inbox://counts"))["total"] == 10
            assert {p.name for p in (await peer.client.list_prompts()).prompts} == {"summarize_unread", "check_payload"}
            if MAJOR >= 2:
                assert "read-only" in peer.client.instructions and "dismiss_message" not in peer.client.instructions

    anyio.run(main)
    after = stored_feed(store)
    assert "welcome" in {card["id"] for card in after["items"]} and after["counts"]["total"] == 10
    assert after["counts"]["unread"] == 10  # get_message marks nothing read


@pytest.mark.parametrize("mode", MODES)
def test_an_allow_list_offers_exactly_the_tools_named(store, mode):
    async def main():
        async with session(store, "--sample-feed", "--tools", "list_feed,get_message", mode=mode) as peer:
            assert [tool.name for tool in await peer.tools()] == ["list_feed", "get_message"]
            assert (await peer.call("list_feed", {"limit": 1})).content[0].text.startswith("*P welcome")
            with pytest.raises(ProtocolError) as refused:
                await peer.client.call_tool("mark_all_read", {})
            assert code_of(refused.value) == -32602 and "--tools list_feed,get_message" in str(refused.value)

    anyio.run(main)
    assert stored_feed(store)["counts"]["unread"] == 10


def test_both_flags_offer_the_read_only_tools_named(store):
    async def main():
        async with session(store, "--sample-feed", "--read-only", "--tools", "list_feed,tap_button", mode="legacy") as peer:
            assert [tool.name for tool in await peer.tools()] == ["list_feed"]

    anyio.run(main)


@pytest.mark.parametrize("args", [["mcp", "--tools", "list_feed,no_such_tool"], ["mcp", "--tools", ""],
                                  ["mcp", "--tools", "list_feed,"], ["--read-only"], ["--tools", "list_feed"]])
def test_a_tool_selection_that_cannot_be_is_a_bad_command_line(store, args):
    done = subprocess.run([BIN, *args, "--store", store], input=b"", capture_output=True, timeout=30)
    assert done.returncode == 2, done
    assert done.stdout == b"" and (b"--tools" in done.stderr or b"--read-only" in done.stderr), done.stderr
    if "no_such_tool" in args[-1]:
        assert b"no tool is named no_such_tool" in done.stderr and b"list_feed" in done.stderr
