"""Every reply of `inbox-rpc mcp` is valid for the revision negotiated, checked against that
revision's own schema.json (see revisions.py): 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 through
`initialize` and the stateless 2026-07-28, strictly (a member the revision does not name fails).
Each session lists and calls every tool on its method's first example, reads every resource, gets
both prompts, subscribes and hears a change, and breaks a tool's schema: from 2025-11-25 on that is
a result with isError, naming the argument, what was expected and what was sent, in the words of the
JSON-RPC face's error data; before it, -32602 with that data. An unknown tool is -32602 everywhere."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from harness import BIN, REPO
from revisions import HANDSHAKE, STATELESS, BareSession, RevisionSchema

CLOCK = "1790000000"
EXAMPLES = os.path.join(REPO, "Schemas", "examples")
NEWER = {"2025-06-18", "2025-11-25", STATELESS}  # structured output and titles
INPUT_ERRORS_AS_RESULTS = {"2025-11-25", STATELESS}
META = {"io.modelcontextprotocol/protocolVersion": STATELESS,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}


def first_example(method: str) -> dict:
    with open(os.path.join(EXAMPLES, method + ".json"), encoding="utf-8") as file:
        return json.load(file)[0]["params"]


def open_session(revision: str, store: str) -> BareSession:
    schema = RevisionSchema(revision, strict=True)
    if revision == STATELESS:
        session = BareSession(schema, store, "--sample-feed", "--test-clock", CLOCK, meta=META)
        discovered = session.result("server/discover")
        assert STATELESS in discovered["supportedVersions"]
    else:
        session = BareSession(schema, store, "--sample-feed", "--test-clock", CLOCK)
        result = session.result("initialize", {"protocolVersion": revision, "capabilities": {},
                                               "clientInfo": {"name": "test", "version": "1"}})
        assert result["protocolVersion"] == revision
        assert ("title" in result["serverInfo"]) is (revision in NEWER)
        session.notify("notifications/initialized")
        session.result("ping")
    return session


def rpc_error_data(method: str, params: dict) -> dict:
    """The JSON-RPC face's error data for one request."""
    frame = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    done = subprocess.run([BIN, "--store", ":memory:"], input=frame + "\n", capture_output=True, text=True,
                          timeout=30)
    return json.loads(done.stdout.splitlines()[0])["error"]["data"]


@pytest.mark.parametrize("revision", HANDSHAKE + [STATELESS])
def test_every_reply_is_valid_for_the_revision_negotiated(tmp_path, revision):
    session = open_session(revision, str(tmp_path / "inbox.sqlite"))
    try:
        tools = session.result("tools/list")["tools"]
        contract = json.load(open(os.path.join(REPO, "Schemas", "openrpc.json"), encoding="utf-8"))
        methods = {entry["name"]: method["name"] for method in contract["methods"]
                   for entry in method.get("x-mcp-tools", [])}
        assert [tool["name"] for tool in tools] == list(methods)
        for tool in tools:
            assert ("outputSchema" in tool) is (revision in NEWER) and ("title" in tool) is (revision in NEWER)
            assert ("annotations" in tool) is (revision != "2024-11-05")
        for tool in tools:
            name = tool["name"]
            params = first_example(methods[name])
            if name == "lint_payload":
                params = {k: v for k, v in params.items() if k in ("payload", "attributes", "now")}
            result = session.result("tools/call", {"name": name, "arguments": params})
            if name == "sync_inbox":  # no backend configured: an engine refusal, as a result
                assert result["isError"] is True and "--application" in result["content"][0]["text"]
            elif name in ("add_wallet_pass", "report_wallet_pass"):  # the example's is no wallet card here
                assert result["isError"] is True and "Not a wallet card" in result["content"][0]["text"]
            else:
                assert result["isError"] is False, (name, result)
                assert ("structuredContent" in result) is (revision in NEWER), name
        for listing, member in [("resources/list", "resources"), ("resources/templates/list", "resourceTemplates"),
                                ("prompts/list", "prompts")]:
            for entry in session.result(listing)[member]:
                assert ("title" in entry) is (revision in NEWER), (listing, entry)
        for uri in ["inbox://feed", "inbox://counts", "inbox://schemas/openrpc.json", "inbox://message/welcome",
                    "inbox://changes", "inbox://changes?limit=1"]:
            assert session.result("resources/read", {"uri": uri})["contents"][0]["uri"] == uri
        assert session.request("resources/read", {"uri": "inbox://message/nope"})["error"]["code"] == -32002
        session.result("prompts/get", {"name": "summarize_unread"})
        session.result("prompts/get", {"name": "check_payload", "arguments": {"payload": '{"pw_inbox": "x"}'}})
        if revision != STATELESS:
            session.result("logging/setLevel", {"level": "warning"})
            session.result("resources/subscribe", {"uri": "inbox://counts"})
            session.result("tools/call", {"name": "ingest_payload",
                                          "arguments": {"payload": {"pw_inbox": "v1", "u": {"displayType": "video"}}}})
            session.result("tools/call", {"name": "dismiss_message", "arguments": {"id": "summer-sale"}})
            session.result("ping")
            methods_heard = {note["method"] for note in session.notifications}
            assert {"notifications/resources/updated", "notifications/message"} <= methods_heard, methods_heard
            session.result("resources/unsubscribe", {"uri": "inbox://counts"})
        assert session.checked >= 25
    finally:
        session.close()


@pytest.mark.parametrize("revision", HANDSHAKE + [STATELESS])
def test_a_schema_breaking_argument_is_named_in_the_json_rpc_face_s_words(tmp_path, revision):
    session = open_session(revision, str(tmp_path / "inbox.sqlite"))
    try:
        for name, method, arguments in [("list_feed", "feed.list", {"limit": 0}),
                                        ("tap_button", "button.tap", {"id": "welcome", "button": "first"}),
                                        ("get_message", "message.get", {"id": "welcome", "extra": True}),
                                        ("dismiss_message", "message.dismiss", {})]:
            data = rpc_error_data(method, arguments)
            frame = session.request("tools/call", {"name": name, "arguments": arguments})
            if revision in INPUT_ERRORS_AS_RESULTS:
                result = frame["result"]
                assert result["isError"] is True and "structuredContent" not in result, frame
                text = result["content"][0]["text"]
                for word in ("param", "reason", "sent"):
                    if word in data:
                        assert data[word] in text, (word, data, text)
                assert f"{name} failed (-32602)" in text and "inputSchema" in text, text
            else:
                assert frame["error"]["code"] == -32602, frame
                assert frame["error"]["data"] == data, (frame, data)
        assert "sent" in rpc_error_data("feed.list", {"limit": 0}) and "sent" not in data  # a missing param
        unknown = session.request("tools/call", {"name": "no_such_tool", "arguments": {}})
        assert unknown["error"]["code"] == -32602 and "list_feed" in unknown["error"]["data"]["tools"]
        counts = session.result("tools/call", {"name": "inbox_counts", "arguments": {}})
        assert "total 10" in counts["content"][0]["text"]  # nothing the refused calls asked for happened
    finally:
        session.close()


def test_the_checker_refuses_what_an_older_revision_lacks():
    """A title, or structured output, is no member of revision 2025-03-26: the strict check says so."""
    schema = RevisionSchema("2025-03-26", strict=True)
    schema.check("CallToolResult", {"content": [{"type": "text", "text": "x"}], "isError": False})
    with pytest.raises(AssertionError):
        schema.check("CallToolResult", {"content": [], "structuredContent": {"total": 1}})
    with pytest.raises(AssertionError):
        schema.check("Tool", {"name": "t", "title": "T", "inputSchema": {"type": "object"}})
    RevisionSchema("2025-06-18", strict=True).check("Tool", {"name": "t", "title": "T", "inputSchema": {"type": "object"}})
