"""Every tool called the way agent frameworks call it: each optional argument sent as `null`
(mcp-use's LangChain adapter fills every unset optional with null; a model may write one), and the
call must succeed: a null optional means absent, on this face as on JSON-RPC. The published
inputSchemas say no null (one plain `type` on every property, the optional ones left out of
`required`: the shape every agent stack takes), so what a validating client checks is the call
with its nulls left out, and that must pass too."""

from __future__ import annotations

import json
import os
import subprocess

import anyio
import jsonschema
import pytest

from harness import BIN, MAJOR, REPO, ProtocolError, attr, code_of, loosely_typed, session

MODES = ["auto", "legacy"] if MAJOR >= 2 else ["legacy"]

with open(os.path.join(REPO, "clients", "examples", "flash-sale-push.json"), encoding="utf-8") as _file:
    PUSH = json.load(_file)

# The required arguments of each tool on the sample feed, in an order where no call undoes the next.
CALLS = [
    ("list_feed", {}),
    ("get_message", {"id": "welcome"}),
    ("inbox_counts", {}),
    ("tap_slide", {"id": "new-arrivals", "slide": 0}),
    ("resolve_payload", {"payload": PUSH}),
    ("lint_payload", {"payload": PUSH}),
    ("tap_message", {"id": "plain-note"}),
    ("tap_button", {"id": "welcome", "button": 0}),
    ("report_seen", {}),
    ("play_video", {"id": "the-reveal"}),
    ("report_wallet_pass", {"id": "loyalty-card", "outcome": "failed"}),
    ("mark_read", {"ids": ["the-reveal"]}),
    ("mark_all_read", {}),
    ("mark_all_seen", {}),
    ("dismiss_message", {"id": "hero-banner"}),
    ("ingest_payload", {"payload": PUSH}),
    ("clear_read", {}),
    ("sync_inbox", {}),
    ("list_changes", {}),
    ("explain_card", {"payload": PUSH}),
]


# add_wallet_pass has no optional argument, and reaches the network (Tests/EndToEnd/test_wallet_pass.py).
NOT_CALLED = {"add_wallet_pass"}


def saved_for_a_host_that_adds_passes(store: str) -> None:
    """The sample feed on `store`, with the attribute that makes its wallet card one saved (an
    agent's host declares no platform)."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "config.set", "params": {"attributes": {"walletPasses": True}}}
    done = subprocess.run([BIN, "--store", store, "--sample-feed", "--framing", "ndjson"], input=json.dumps(request) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert '"result"' in done.stdout, done.stdout + done.stderr


def with_nulls(schema: dict, required: dict) -> dict:
    """`required` plus every other property of `schema` as null."""
    arguments = {name: None for name in schema.get("properties", {})}
    arguments.update(required)
    return arguments


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_takes_null_for_each_optional_argument(store, backend, backend_args, mode):
    saved_for_a_host_that_adds_passes(store)

    async def main():
        async with session(store, "--sample-feed", *backend_args, mode=mode) as peer:
            tools = {tool.name: tool for tool in await peer.tools()}
            assert {name for name, _ in CALLS} == set(tools) - NOT_CALLED
            nulls = 0
            for name, required in CALLS:
                schema = attr(tools[name], "input_schema")
                assert loosely_typed(schema) == [], name
                assert set(schema.get("required", [])) == set(required), name
                jsonschema.Draft202012Validator(schema).validate(required)
                arguments = with_nulls(schema, required)
                nulls += sum(value is None for value in arguments.values())
                result = await peer.call(name, arguments)
                assert not attr(result, "is_error"), (name, arguments, result.content)
            assert nulls == 25, "every optional argument of every tool is sent as null"

    anyio.run(main)


@pytest.mark.parametrize("mode", MODES)
def test_a_required_argument_stays_required_when_null(store, mode):
    async def main():
        async with session(store, "--sample-feed", mode=mode) as peer:
            schema = attr({tool.name: tool for tool in await peer.tools()}["get_message"], "input_schema")
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.Draft202012Validator(schema).validate({"id": None})
            if peer.version in ("2025-11-25", "2026-07-28"):  # an input error the model reads and fixes
                result = await peer.client.call_tool("get_message", {"id": None})
                assert attr(result, "is_error") and "Invalid params: id: required" in result.content[0].text
            else:
                with pytest.raises(ProtocolError) as refused:
                    await peer.client.call_tool("get_message", {"id": None})
                assert code_of(refused.value) == -32602

    anyio.run(main)
