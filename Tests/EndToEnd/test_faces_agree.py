"""Both faces on one table: every method that has an MCP tool is called with the same inputs on the
JSON-RPC face and as its tool, and both must come to the same outcome (the same result content, or
the same error code). The inputs are every example in Schemas/examples, each with its method's
other optional params set to null, and a few invalid ones. Each face runs on a store of its own,
seeded alike with the clock pinned, and both take the same steps in the same order."""

from __future__ import annotations

import json
import os
import re

import pytest

from contract import DOCUMENT_PATH
from test_mcp_stdio import MCP, TOOL_METHODS

CLOCK = 1_790_000_000
EXAMPLES = os.path.join(os.path.dirname(DOCUMENT_PATH), "examples")
# lint_payload runs the linter on message.resolve's params: its result is a LintReport, not a card.
TOOLS = {method: tool for tool, method in TOOL_METHODS.items() if tool != "lint_payload"}


def _contract_params() -> dict[str, list[dict]]:
    """Each method's params that its tool takes too (a tool may name a part: x-mcp-tools' params)."""
    with open(DOCUMENT_PATH, encoding="utf-8") as file:
        methods = json.load(file)["methods"]
    taken = {}
    for method in methods:
        tool = next((t for t in method.get("x-mcp-tools", []) if t["name"] == TOOLS.get(method["name"])), {})
        names = tool.get("params", [p["name"] for p in method.get("params", [])])
        taken[method["name"]] = [p for p in method.get("params", []) if p["name"] in names]
    return taken


def cases() -> list[tuple[str, str, dict]]:
    """(label, method, params), in the order both faces run them."""
    params_of = _contract_params()
    table = []
    for method in TOOLS:
        with open(os.path.join(EXAMPLES, method + ".json"), encoding="utf-8") as file:
            examples = json.load(file)
        taken = {p["name"] for p in params_of[method]}
        # An example of a param the tool does not take (a swipe, a pull) is the JSON-RPC face's alone.
        for example in (e for e in examples if set(e["params"]) <= taken):
            table.append((f"{method}: {example['name']}", method, example["params"]))
            optional = [p["name"] for p in params_of[method] if not p.get("required")]
            nulls = {name: None for name in optional if name not in example["params"]}
            if nulls:
                table.append((f"{method}: {example['name']}, other optionals null", method, {**example["params"], **nulls}))
        required = [p["name"] for p in params_of[method] if p.get("required")]
        table.append((f"{method}: an unknown param", method, {"bogus": 1}))
        if required:
            table.append((f"{method}: nothing given", method, {}))
            table.append((f"{method}: a required param null", method, {name: None for name in required}))
    table += [
        ("message.get: an unknown id", "message.get", {"id": "no-such-message"}),
        ("message.get: an id of the wrong type", "message.get", {"id": 7}),
        ("button.tap: a button the card lacks", "button.tap", {"id": "plain-note", "button": 2}),
        ("slide.tap: a card without slides", "slide.tap", {"id": "plain-note", "slide": 0}),
        ("feed.list: a limit beyond the bound", "feed.list", {"limit": 201}),
        ("feed.list: a cursor of no store", "feed.list", {"cursor": "not-a-cursor"}),
        ("message.ingest: not an inbox message", "message.ingest", {"payload": {"aps": {"alert": "hi"}}}),
        ("message.resolve: attributes that do not merge", "message.resolve",
         {"payload": {"pw_inbox": "x"}, "attributes": {"forceCellKind": "grid"}}),
    ]
    return table


def rpc_outcome(reply: dict):
    if "error" in reply:
        return ("error", reply["error"]["code"])
    return ("result", comparable(reply["result"]))


def mcp_outcome(reply: dict):
    if "error" in reply:
        return ("error", reply["error"]["code"])
    result = reply["result"]
    if result.get("isError"):
        found = re.search(r"failed \((-?\d+)\)", result["content"][0]["text"])
        assert found, result
        return ("error", int(found.group(1)))
    return ("result", comparable(result["structuredContent"]))


def comparable(result):
    """A result with each store's own cursor tokens replaced by whether there is one."""
    if isinstance(result, dict):
        return {k: (v is not None if k in ("nextCursor", "cursor") else comparable(v)) for k, v in result.items()}
    if isinstance(result, list):
        return [comparable(v) for v in result]
    return result


def test_every_method_and_its_tool_come_to_the_same_outcome(spawn, tmp_path):
    flags = ("--sample-feed", "--test-clock", str(CLOCK))
    rpc = spawn("--store", str(tmp_path / "rpc.sqlite"), *flags, test_methods=False, store=False)
    mcp = MCP("--store", str(tmp_path / "mcp.sqlite"), *flags)
    try:
        mcp.initialize()
        table = cases()
        seen = {"result": 0, "error": 0}
        for label, method, params in table:
            expected = rpc_outcome(rpc.call(method, params))
            got = mcp_outcome(mcp.tool(TOOLS[method], params))
            assert got == expected, label
            seen[expected[0]] += 1
        assert set(method for _, method, _ in table) == set(TOOLS)
        assert seen["result"] >= 20 and seen["error"] >= 30, seen
    finally:
        mcp.shutdown_gracefully()
        if mcp.proc.poll() is None:
            mcp.proc.kill()


@pytest.mark.parametrize("method", sorted(TOOLS))
def test_the_table_covers_every_example(method):
    labels = [label for label, m, _ in cases() if m == method]
    taken = {p["name"] for p in _contract_params()[method]}
    with open(os.path.join(EXAMPLES, method + ".json"), encoding="utf-8") as file:
        examples = json.load(file)
    # Every example the tool can take is in the table; the others name a param the tool leaves out.
    assert all(any(e["name"] in label for label in labels) for e in examples if set(e["params"]) <= taken)
    assert all(set(e["params"]) <= taken or set(e["params"]) - taken <= {"swipe", "pull"} for e in examples)
