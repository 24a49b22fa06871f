"""Every MCP tool's text carries what the next call needs, for clients that read only the text
(openai-agents by default): every id, every button and slide index, the next page's cursor and every
count that `structuredContent` holds. Checked for every tool on every example in Schemas/examples
(each tool's method's examples; lint_payload on message.resolve's), on the sample feed, each example
on a fresh store with the clock pinned, as the examples were recorded."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys

import pytest

from conftest import Server
from contract import DOCUMENT_PATH
from test_mcp_stdio import MCP, TOOL_METHODS

sys.path.insert(0, os.path.join(os.path.dirname(DOCUMENT_PATH)))
import record_examples  # noqa: E402  (the examples' pass host)

CLOCK = 1_790_000_000
EXAMPLES = os.path.join(os.path.dirname(DOCUMENT_PATH), "examples")
COUNTS = {"total", "unread", "unactioned", "pinned", "changed", "added", "updated", "removed", "expired", "pushed",
          "pending", "failed", "dismissed"}
LINT_PARAMS = {"payload", "attributes", "now"}


GESTURELESS = {"dismiss_message": {"swipe"}, "sync_inbox": {"pull"}}


def cases() -> list[tuple[str, str, dict]]:
    table = []
    for tool, method in TOOL_METHODS.items():
        with open(os.path.join(EXAMPLES, method + ".json"), encoding="utf-8") as file:
            for example in json.load(file):
                params = example["params"]
                if tool == "lint_payload":
                    params = {k: v for k, v in params.items() if k in LINT_PARAMS}
                elif tool in GESTURELESS:  # an agent neither swipes nor pulls: the tool takes no such param
                    params = {k: v for k, v in params.items() if k not in GESTURELESS[tool]}
                # A cursor a server made earlier in the recorded scenario: from now, here.
                params = {k: v for k, v in params.items() if v != "<cursor>"}
                table.append((f"{tool}: {example['name']}", tool, params))
    return table


def needs(value, key: str | None = None) -> list[str]:
    """What a reader of the text must find, as the text says it, for one structured result."""
    found: list[str] = []
    if isinstance(value, dict):
        for member, inner in value.items():
            if member == "customData":  # the payload's own data, passed through for the host: no card's structure
                continue
            if member == "id" and isinstance(inner, str):
                found.append(inner)
            elif member in ("nextCursor", "path") and isinstance(inner, str):  # a page's cursor, a pass file
                found.append(inner)
            elif member == "cursor" and key is None and isinstance(inner, str):  # where list_changes resumes
                found.append(inner)
            elif member in COUNTS and isinstance(inner, int) and not isinstance(inner, bool):
                found.append(f"{member} {inner}")
            elif member in ("unchanged", "read", "unknown") and isinstance(inner, list):
                found += [item for item in inner if isinstance(item, str)]
            elif member == "buttons" and isinstance(inner, list):
                found += [(f"[{index}]", f"button {index}") for index in range(len(inner))]
            elif member == "carousel" and isinstance(inner, list):
                found += [(f"[{index}]", f"slide {index}") for index in range(len(inner))]
            found += needs(inner, member)
    elif isinstance(value, list):
        for item in value:
            found += needs(item, key)
    return found


def says(text: str, token: str) -> bool:
    """`token` in `text` as a word of its own: "a" is not in "total", nor "total 3" in "total 30"."""
    return re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text) is not None


def missing(text: str, structured) -> list:
    return [need for need in needs(structured)
            if not (any(says(text, form) for form in need) if isinstance(need, tuple) else says(text, need))]


def test_the_checker_catches_a_text_that_leaves_something_out():
    page = {"items": [{"id": "a", "buttons": [{}, {}], "carousel": [{}]}], "nextCursor": "c1",
            "counts": {"total": 3}}
    assert missing("a [0] [1] slide 0 c1 total 3", page) == []
    assert missing("a [0] slide 0 c1 total 3", page) == [("[1]", "button 1")]
    assert missing("[0] [1] slide 0 total 3", page) == ["a", "c1"]
    assert missing("a [0] [1] slide 0 c1 total 30", page) == ["total 3"]
    assert missing("newly read: a, b", {"read": ["a", "b"], "unknown": ["c"]}) == ["c"]


@pytest.mark.parametrize("label,tool,params", cases(), ids=[case[0] for case in cases()])
def test_every_tool_text_carries_what_the_next_call_needs(tmp_path, monkeypatch, label, tool, params):
    if tool == "sync_inbox":
        pytest.skip("sync_inbox's example needs a backend; test_sync_text_carries_every_count covers it")
    with contextlib.ExitStack() as stack:
        flags = []
        if tool in WALLET_TOOLS:
            flags = wallet_set_up(stack, monkeypatch, str(tmp_path / "inbox.sqlite"))
        tool_text_case(tmp_path, label, tool, params, flags)


# The wallet tools' examples need the examples' pass host, and a host that can add passes (saved).
WALLET_TOOLS = {"add_wallet_pass", "report_wallet_pass"}


def wallet_set_up(stack: contextlib.ExitStack, monkeypatch, store: str) -> list[str]:
    setup = stack.enter_context(record_examples.example_backend())
    for name, value in record_examples.server_environment(setup).items():
        monkeypatch.setenv(name, value)
    saver = Server(["--store", store, "--sample-feed", "--test-clock", str(CLOCK)], store=False)
    saver.call("config.set", {"attributes": {"walletPasses": True}})
    saver.shutdown_gracefully()
    return ["--backend-ca-file", setup.ca_file, "--pass-dir", setup.pass_dir]


def tool_text_case(tmp_path, label: str, tool: str, params: dict, flags: list[str]) -> None:
    server = MCP("--store", str(tmp_path / "inbox.sqlite"), "--sample-feed", "--test-clock", str(CLOCK), *flags)
    try:
        server.initialize()
        reply = server.tool(tool, params)
        result = reply["result"]
        assert result["isError"] is False, (label, result)
        text = result["content"][0]["text"]
        assert needs(result["structuredContent"]) or tool == "dismiss_message", label
        assert missing(text, result["structuredContent"]) == [], (label, text)
    finally:
        server.shutdown_gracefully()
        if server.proc.poll() is None:
            server.proc.kill()


def test_sync_text_carries_every_count(tmp_path):
    """sync_inbox's text on a real sync against the fake backend (its example needs one)."""
    from fake_backend import APP, TOKEN, USER, FakeBackend

    backend = FakeBackend()
    backend.add_message("remote-1")
    token = tmp_path / "token"
    token.write_text(TOKEN)
    server = MCP("--store", str(tmp_path / "inbox.sqlite"), "--backend-url", backend.url, "--application", APP,
                 "--hwid", "hw-test", "--user-id", USER, "--token-file", str(token))
    try:
        server.initialize()
        result = server.tool("sync_inbox", {"force": True}, timeout=30)["result"]
        assert result["isError"] is False, result
        assert result["structuredContent"]["added"] == 1
        assert missing(result["content"][0]["text"], result["structuredContent"]) == []
    finally:
        server.shutdown_gracefully()
        if server.proc.poll() is None:
            server.proc.kill()
        backend.close()
