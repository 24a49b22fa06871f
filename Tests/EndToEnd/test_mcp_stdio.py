"""`inbox-rpc mcp` over raw pipes: the stdio rules hold in MCP mode (frames only on stdout, bounded
stderr, the framing limits, kill -9 durability, a clean exit at end of input), the handshakes'
edges, and the tools' schemas derived from Schemas/openrpc.json (one source). The SDK-driven
tests live in Tests/MCP."""

from __future__ import annotations

import copy
import json
import os
import random
import threading
import time

import jsonschema
import pytest

from conftest import BIN, Server, check_message, frame, is_notification
from contract import DOCUMENT_PATH

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}
TOOL_METHODS = {
    "list_feed": "feed.list", "get_message": "message.get", "inbox_counts": "feed.counts", "tap_message": "message.tap",
    "tap_button": "button.tap", "tap_slide": "slide.tap", "mark_read": "message.markRead",
    "mark_all_read": "feed.markAllRead", "dismiss_message": "message.dismiss", "ingest_payload": "message.ingest",
    "resolve_payload": "message.resolve", "lint_payload": "message.resolve", "sync_inbox": "feed.sync",
    "clear_read": "feed.dismissRead", "report_seen": "feed.seen", "play_video": "video.play",
    "add_wallet_pass": "wallet.download", "report_wallet_pass": "wallet.report", "explain_card": "message.explain",
    "list_changes": "feed.changes", "mark_all_seen": "feed.markAllSeen",
}


class MCP(Server):
    """A Server speaking MCP: every frame must be JSON-RPC, but the inbox contract does not apply."""

    def __init__(self, *args: str, **kwargs):
        super().__init__(["mcp", *args], store=False, test_methods=False, **kwargs)

    def _check_contract(self, message):
        check_message(message)

    def ping(self, timeout: float = 5.0) -> None:
        assert self.call("ping", timeout=timeout)["result"] == {}

    def initialize(self, version: str = "2025-11-25") -> dict:
        reply = self.call("initialize", {"protocolVersion": version, "capabilities": {},
                                         "clientInfo": {"name": "test", "version": "1"}})
        self.notify("notifications/initialized")
        return reply["result"]

    def tool(self, name: str, arguments: dict | None = None, timeout: float = 5.0) -> dict:
        return self.call("tools/call", {"name": name, "arguments": arguments or {}}, timeout=timeout)


@pytest.fixture
def mcp(tmp_path):
    servers = []

    def start(*args: str, **kwargs) -> MCP:
        server = MCP("--store", str(tmp_path / "inbox.sqlite"), *args, **kwargs)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown_gracefully()
        if server.proc.poll() is None:
            server.proc.kill()


def test_each_handshake_revision_is_echoed_and_others_get_the_newest(mcp):
    server = mcp("--sample-feed")
    for asked, answered in [("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"), ("2025-06-18", "2025-06-18"),
                            ("2025-11-25", "2025-11-25"), ("2024-10-07", "2025-11-25"), ("2099-01-01", "2025-11-25")]:
        result = server.initialize(asked)
        assert result["protocolVersion"] == answered
        assert result["serverInfo"]["name"] == "inbox-rpc" and result["instructions"]
        assert result["capabilities"]["resources"] == {"subscribe": True, "listChanged": True}
    server.ping()


def test_the_stateless_revision_checks_every_request(mcp):
    server = mcp("--sample-feed")
    discovered = server.call("server/discover", {"_meta": META})["result"]
    assert discovered["supportedVersions"] == [MODERN] and "serverInfo" not in discovered  # not in DiscoverResult
    assert discovered["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "inbox-rpc"
    listed = server.call("tools/list", {"_meta": META})["result"]
    assert listed["resultType"] == "complete" and listed["ttlMs"] == 0 and listed["cacheScope"] == "private"
    assert listed["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "inbox-rpc"
    for params in [{"_meta": {**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}}, {}]:
        error = server.call("server/discover", params)["error"]
        assert error["code"] == -32022 and MODERN in error["data"]["supported"], error
    error = server.call("tools/list", {"_meta": {**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}})
    assert error["error"]["code"] == -32022


def test_stdout_carries_frames_only_and_warnings_go_to_stderr_too(mcp):
    server = mcp()
    server.initialize()
    server.call("logging/setLevel", {"level": "info"})
    reply = server.tool("ingest_payload", {"payload": {"pw_inbox": "v1", "u": {"displayType": "video"}}})
    assert reply["result"]["isError"] is False
    server.tool("list_feed")
    server.close_stdin()
    assert server.wait_exit()[0] == 0
    lines = bytes(server.stdout_all).split(b"\n")
    assert lines[-1] == b""
    for line in lines[:-1]:
        check_message(json.loads(line))
    messages = [json.loads(line) for line in lines[:-1]]
    logged = [m for m in messages if is_notification(m) and m["method"] == "notifications/message"]
    assert logged and logged[0]["params"]["level"] == "warning"
    assert b"inbox-rpc warn: message v1" in server.stderr_bytes()
    assert not any(is_notification(m) and m["method"] in ("feed.changed", "log") for m in messages)


@pytest.mark.timeout(90)
def test_unread_stderr_never_stalls_the_mcp_server(mcp):
    server = mcp("--log-level", "debug", stderr="pipe")
    server.initialize()
    n = 4000  # each request logs a debug line: far more than a 64 KiB pipe holds
    server.write(b"".join(frame({"jsonrpc": "2.0", "id": i, "method": "ping"}, "ndjson") for i in range(n)))
    for _ in range(n):
        assert server.recv(5)["result"] == {}
    server.close_stdin()
    assert server.wait_exit()[0] == 0


def test_framing_limits_hold_and_the_server_keeps_serving(mcp):
    server = mcp("--max-frame-bytes", "4096", "--max-depth", "16")
    server.initialize()
    big = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
           "params": {"name": "resolve_payload", "arguments": {"payload": {"x": "y" * 8000}}}}
    server.send(big)
    error = server.recv()["error"]
    assert error["code"] == -32600 and error["data"]["limit"] == 4096
    server.write(b'{"jsonrpc":"2.0","id":2,"method":"ping","params":' + b"[" * 40 + b"]" * 40 + b"}\n")
    assert server.recv()["error"]["code"] == -32600
    server.write(b'{"jsonrpc":"2.0","id":3,"method":\n')
    assert server.recv()["error"]["code"] == -32700
    # MCP is NDJSON only: a Content-Length header is a line that is not JSON, and the server reads on.
    server.write(b'Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","id":4,"method":"ping"}\n')
    replies = [server.recv() for _ in range(2)]
    assert replies[0]["error"]["code"] == -32700 and replies[-1] == {"jsonrpc": "2.0", "id": 4, "result": {}}, replies
    server.ping()


def test_a_cancelled_request_gets_no_reply_and_end_of_input_closes_streams(mcp):
    server = mcp("--sample-feed")
    server.call("server/discover", {"_meta": META})
    for id in ("stream-1", "stream-2"):
        server.send({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
                     "params": {"_meta": META, "notifications": {"resourcesListChanged": True,
                                                                 "resourceSubscriptions": ["inbox://counts", "x://y"]}}})
        ack = server.recv(skip_notifications=False)
        assert ack["method"] == "notifications/subscriptions/acknowledged"
        assert ack["params"]["notifications"] == {"resourcesListChanged": True, "resourceSubscriptions": ["inbox://counts"]}
        assert ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == id
    server.notify("notifications/cancelled", {"requestId": "stream-1"})
    server.send({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                 "params": {"_meta": META, "name": "dismiss_message", "arguments": {"id": "welcome"}}})
    frames = [server.recv(skip_notifications=False) for _ in range(3)]
    assert [f.get("method") for f in frames[:2]] == ["notifications/resources/list_changed",
                                                     "notifications/resources/updated"]
    assert all(f["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "stream-2" for f in frames[:2])
    assert frames[2]["id"] == 9 and frames[2]["result"]["structuredContent"] == {"dismissed": True}
    server.close_stdin()
    closing = server.recv(3, skip_notifications=False)
    assert closing["id"] == "stream-2" and closing["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "stream-2"
    rc, _ = server.wait_exit()
    # The streams ended at end of input, not by the drain's cancel.
    assert rc == 0 and b"cancelling" not in server.stderr_bytes()
    assert b'"stream-1"' not in bytes(server.stdout_all).split(b"\n", 4)[-1], "a cancelled request is not answered"


COMPONENT = "#/components/schemas/"
# What an output schema keeps: what a result holds (its members and their types), no annotations or bounds.
STRUCTURAL = {"type", "properties", "required", "items", "prefixItems", "enum", "const", "allOf", "anyOf", "oneOf",
              "not", "additionalProperties"}
SUBSCHEMAS = {"items", "not", "additionalProperties", "contains", "propertyNames", "if", "then", "else"}


def _in_place(node, components, output, card):
    """The derivation the server makes, written independently: every component $ref replaced by its
    shape (without the shape's own title and description); an input drops titles, an output keeps
    only STRUCTURAL keywords (a boolean additionalProperties is a bound), no member marked
    x-command-line-only, and gives `card` for Card;
    an allOf of one schema is said directly."""
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if (key == "title" and isinstance(value, str)) or (output and key not in STRUCTURAL | {"$ref"}):
            continue
        if output and key == "additionalProperties" and isinstance(value, bool):
            continue
        if key in ("properties", "patternProperties"):
            out[key] = {name: _in_place(sub, components, output, card) for name, sub in value.items()
                        if not (output and sub.get("x-command-line-only"))}
        elif key in ("allOf", "anyOf", "oneOf", "prefixItems"):
            out[key] = [_in_place(sub, components, output, card) for sub in value]
        elif key in SUBSCHEMAS:
            out[key] = _in_place(value, components, output, card)
            if not output and key in ("items", "additionalProperties") and isinstance(out[key], dict):
                out[key].pop("description", None)  # the property holding them says what they are
        else:
            out[key] = value
    if not output:
        out = _plainly_typed(out)
    ref = out.pop("$ref", None)
    if ref:
        name = ref[len(COMPONENT):]
        shape = dict(card) if output and name == "Card" else _in_place(components[name], components, output, card)
        shape.pop("description", None) if not (output and name == "Card") else None
        assert not set(shape) & set(out), (name, out)
        out = {**shape, **out}
    only = out.get("allOf")
    if isinstance(only, list) and len(only) == 1 and not set(only[0]) & (set(out) - {"allOf"}):
        rest = {k: v for k, v in out.items() if k != "allOf"}
        out = {**only[0], **rest}
    return out


def _plainly_typed(node):
    """An input node as every agent stack takes it: one plain type, no null (a type list loses it, a
    null branch of anyOf/oneOf goes and the other stands alone, an enum of strings is typed string,
    anything-but-null is an object, as every payload is in practice)."""
    out = dict(node)
    if isinstance(out.get("type"), list):
        kept = [name for name in out["type"] if name != "null"]
        out["type"] = kept[0] if len(kept) == 1 else kept
    if "enum" in out:
        out["enum"] = [value for value in out["enum"] if value is not None]
        if "type" not in out and all(isinstance(value, str) for value in out["enum"]):
            out["type"] = "string"
    if out.get("not") == {"type": "null"}:
        del out["not"]
        out.setdefault("type", "object")
    for key in ("anyOf", "oneOf"):
        if key in out:
            kept = [branch for branch in out[key] if branch.get("type") != "null"]
            if len(kept) == 1:
                del out[key]
                assert not set(kept[0]) & set(out), (kept[0], out)
                out = {**kept[0], **out}
            else:
                out[key] = kept
    return out


def _refs(node):
    if isinstance(node, dict):
        return ([node["$ref"]] if "$ref" in node else []) + [ref for value in node.values() for ref in _refs(value)]
    return [ref for item in node for ref in _refs(item)] if isinstance(node, list) else []


def test_tool_schemas_are_derived_from_the_contract(mcp):
    with open(DOCUMENT_PATH, encoding="utf-8") as file:
        contract = json.load(file)
    methods = {m["name"]: m for m in contract["methods"]}
    components = contract["components"]["schemas"]
    server = mcp()
    server.initialize()
    tools = {tool["name"]: tool for tool in server.call("tools/list")["result"]["tools"]}
    assert set(tools) == set(TOOL_METHODS)
    card = tools["get_message"]["outputSchema"]
    for name, method in TOOL_METHODS.items():
        # A tool that takes part of the params names them (x-mcp-tools' params): lint_payload has
        # no id and gives a verdict per platform; an agent neither swipes nor pulls.
        tool = next(t for t in methods[method]["x-mcp-tools"] if t["name"] == name)
        params = [p for p in methods[method]["params"] if p["name"] in tool.get("params", [p["name"]])]
        expected_input = {"type": "object", "properties": {p["name"]: p["schema"] for p in params}}
        required = [p["name"] for p in params if p.get("required")]
        if required:
            expected_input["required"] = required
        expected_input["additionalProperties"] = False
        assert tools[name]["inputSchema"] == _in_place(expected_input, components, False, card), name
        result = {"$ref": COMPONENT + "LintReport"} if name == "lint_payload" else methods[method]["result"]["schema"]
        expected_output = _in_place(copy.deepcopy(result), components, True, card)
        expected_output.setdefault("type", "object")
        output = tools[name]["outputSchema"]
        assert output == expected_output, name
        # Some hosts cannot follow a reference: every schema stands alone without one.
        assert _refs(tools[name]) == [], name
        for example in methods[method].get("examples", []) if name != "lint_payload" else []:
            jsonschema.Draft202012Validator(output).validate(example["result"]["value"])
            arguments = {p["name"]: p["value"] for p in example["params"]}
            if not set(arguments) <= {p["name"] for p in params}:
                continue  # a param the tool does not take (a swipe, a pull): the JSON-RPC face's alone
            jsonschema.Draft202012Validator(tools[name]["inputSchema"]).validate(arguments)


def test_tool_list_is_small_and_cards_are_given_compact(mcp):
    """A host sends the tool list to its model in every conversation: at most 24 KiB for all 18 tools
    (script/check-budgets holds the same bound; 96 KiB when each output carried the card's full
    shape, 36 KiB with the card's members typed in each output and the shapes under $defs), a card
    as an object whose members the resource inbox://schemas/openrpc.json gives."""
    server = mcp()
    server.initialize()
    listed = server.call("tools/list")["result"]
    assert len(json.dumps(listed, separators=(",", ":")).encode()) <= 24 * 1024
    cards = []

    def collect(node):
        if isinstance(node, dict):
            if "inbox://schemas/openrpc.json" in str(node.get("description", "")):
                cards.append(node)
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for item in node:
                collect(item)

    for tool in listed["tools"]:
        collect(tool["outputSchema"])
    assert len(cards) >= 11 and all(card == cards[0] for card in cards)
    assert cards[0]["type"] == "object" and "#/components/schemas/Card" in cards[0]["description"]


def test_closing_stdin_exits_zero_with_every_acknowledged_change_stored(mcp, tmp_path):
    server = mcp("--sample-feed")
    server.initialize()
    assert server.tool("dismiss_message", {"id": "welcome"})["result"]["structuredContent"] == {"dismissed": True}
    server.tool("mark_all_read")
    server.close_stdin()
    assert server.wait_exit()[0] == 0
    again = mcp()
    again.initialize()
    counts = again.tool("inbox_counts")["result"]["structuredContent"]
    assert counts == {"total": 9, "unread": 0, "unactioned": 9, "pinned": 0, "unseen": 0}


@pytest.mark.timeout(300)
def test_sigkill_never_loses_an_acknowledged_change_in_mcp_mode(mcp):
    seed = int(os.environ.get("MCP_KILL_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print(f"seed {seed} (MCP_KILL_SEED)")
    acknowledged, sent = set(), set()
    for trial in range(8):
        server = mcp()
        server.initialize()
        stop = threading.Event()
        calls = [(f"t{trial}-{k}", f"m{trial}-{k}") for k in range(5000)]

        def write():
            for start in range(0, len(calls), 25):
                if stop.is_set():
                    return
                chunk = calls[start:start + 25]
                sent.update(message for _, message in chunk)
                body = b"".join(frame({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
                    "name": "ingest_payload", "arguments": {"payload": {"pw_inbox": message, "title": "t"}}}},
                    "ndjson") for id, message in chunk)
                try:
                    server.write(body)
                except OSError:
                    return

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        time.sleep(rng.uniform(0.05, 0.3))
        for reply in server.sigkill_and_drain(stop, writer):
            if reply.get("result", {}).get("isError") is False:
                acknowledged.add(reply["result"]["structuredContent"]["message"]["id"])
    assert acknowledged, f"no call was acknowledged before the kills (seed {seed})"
    check = mcp()
    check.initialize()
    stored, cursor = set(), None
    while True:
        arguments = {"limit": 200, **({"cursor": cursor} if cursor else {})}
        page = check.tool("list_feed", arguments)["result"]["structuredContent"]
        stored.update(card["id"] for card in page["items"])
        cursor = page["nextCursor"]
        if not cursor:
            break
    lost = acknowledged - stored
    assert not lost, f"acknowledged but lost after kill -9: {sorted(lost)[:5]} (seed {seed})"
    assert stored <= sent


def test_the_background_sync_announces_what_it_merged(mcp, tmp_path):
    from fake_backend import APP, TOKEN, USER, FakeBackend

    backend = FakeBackend()
    try:
        token = tmp_path / "token"
        token.write_text(TOKEN)
        server = mcp("--backend-url", backend.url, "--application", APP, "--hwid", "hw-test", "--user-id", USER,
                     "--token-file", str(token), "--sync-interval", "1", "--sync-min-interval", "0")
        server.initialize()
        assert server.call("resources/subscribe", {"uri": "inbox://counts"})["result"] == {}
        backend.add_message("remote-1")
        seen = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "notifications/resources/updated" not in seen:
            seen.append(server.recv(timeout=10, skip_notifications=False).get("method"))
        assert "notifications/resources/list_changed" in seen and "notifications/resources/updated" in seen, seen
        assert server.tool("inbox_counts")["result"]["structuredContent"]["total"] == 1
    finally:
        backend.close()
