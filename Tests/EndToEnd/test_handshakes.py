"""`initialize` answers each kind of host in a shape it accepts (Schemas/methods.json, initialize):

- an LSP client (params with LSP's required `processId`) gets LSP's InitializeResult exactly,
  `capabilities` and `serverInfo` and no other member, as an LSP-strict host (Eglot's strict mode)
  demands; the inbox's handshake travels in `capabilities.experimental.inbox`;
- the inbox's own clients keep the handshake's members at the top level;
- an MCP host that started the plain server is told to start `inbox-rpc mcp`, and
  `inbox-rpc mcp --help` is about the MCP face.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from jsonschema import Draft7Validator

from conftest import BIN, Server, assert_result

# LSP 3.17's InitializeResult: `capabilities: ServerCapabilities` (required) and
# `serverInfo?: {name: string, version?: string}`, nothing else; ServerCapabilities is a set of
# optional members, `experimental` (LSPAny) among them.
LSP_INITIALIZE_RESULT = {
    "type": "object",
    "required": ["capabilities"],
    "additionalProperties": False,
    "properties": {
        "capabilities": {"type": "object"},
        "serverInfo": {
            "type": "object",
            "required": ["name"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string"}, "version": {"type": "string"}},
        },
    },
}

LSP_PARAMS = [
    {"processId": None, "rootUri": None, "capabilities": {}},
    {
        "processId": 4242,
        "clientInfo": {"name": "Eglot", "version": "1.17"},
        "rootPath": None,
        "rootUri": None,
        "initializationOptions": {},
        "capabilities": {"workspace": {"applyEdit": True}, "textDocument": {"synchronization": {}}},
        "workspaceFolders": [],
    },
]


def handshake(result: dict) -> dict:
    return result["capabilities"]["experimental"]["inbox"]


@pytest.mark.parametrize("framing", ["lsp", "ndjson"])
@pytest.mark.parametrize("params", LSP_PARAMS, ids=["minimal", "eglot"])
def test_an_lsp_client_gets_lsps_initialize_result_and_nothing_else(framing, params):
    server = Server(framing=framing)
    result = assert_result(server.call("initialize", params), server.next_id() - 1)
    assert set(result) == {"capabilities", "serverInfo"}, sorted(result)
    errors = [e.message for e in Draft7Validator(LSP_INITIALIZE_RESULT).iter_errors(result)]
    assert not errors, errors
    assert result["serverInfo"]["name"] == "inbox-rpc"
    inbox = handshake(result)
    assert inbox["server"] == result["serverInfo"] and inbox["protocolVersion"] == "1.0"
    assert {"feed.list", "button.tap", "initialize"} <= set(inbox["methods"])
    server.close_stdin()
    assert server.wait_exit()[0] == 0


def test_lsprotocol_reads_the_whole_reply_as_an_initialize_result():
    from lsprotocol import converters, types

    server = Server(framing="lsp")
    result = assert_result(server.call("initialize", LSP_PARAMS[1]), server.next_id() - 1)
    converter = converters.get_converter()
    parsed = converter.structure(result, types.InitializeResult)
    # Structuring drops what the type does not name: the round trip keeps everything only when the
    # reply holds nothing else.
    assert converter.unstructure(parsed, types.InitializeResult) == result
    assert parsed.server_info.name == "inbox-rpc"
    server.close_stdin()
    server.wait_exit()


@pytest.mark.parametrize(
    "params", [None, {}, {"client": {"name": "shell"}, "platform": "android"}], ids=["none", "empty", "inbox"]
)
def test_the_inbox_hosts_keep_the_handshake_at_the_top_level(params):
    server = Server()
    reply = server.call("initialize") if params is None else server.call("initialize", params)
    result = assert_result(reply, reply["id"])
    assert set(result) == {"serverInfo", "capabilities", "server", "protocolVersion", "methods", "attributes"}
    assert {name: result[name] for name in handshake(result)} == handshake(result)
    if params and params.get("platform"):
        assert result["attributes"]["platform"] == "android"


MCP_INITIALIZE = {
    "protocolVersion": "2025-06-18",
    "capabilities": {"roots": {"listChanged": True}, "sampling": {}},
    "clientInfo": {"name": "claude-ai", "version": "0.1.0"},
}


@pytest.mark.parametrize("revision", ["2025-06-18", "2025-11-25", "2024-11-05"])
def test_an_mcp_handshake_on_the_plain_server_is_told_to_start_inbox_rpc_mcp(revision):
    server = Server()
    reply = server.call("initialize", dict(MCP_INITIALIZE, protocolVersion=revision))
    error = reply["error"]
    assert error["code"] == -32040, reply
    assert "inbox-rpc mcp" in error["message"], error
    assert revision in error["data"]["reason"] and "inbox-rpc mcp" in error["data"]["reason"]
    # Nothing was applied, and the server goes on serving.
    assert server.call("rpc.ping")["result"] == "pong"


def test_an_inbox_protocol_version_is_not_taken_for_mcp():
    server = Server()
    result = server.call("initialize", {"protocolVersion": "1.0"})["result"]
    assert result["protocolVersion"] == "1.0"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)


def mcp_tool_names() -> set[str]:
    frames = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": MCP_INITIALIZE},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    done = subprocess.run(
        [BIN, "mcp", "--store", ":memory:"], input="".join(json.dumps(f) + "\n" for f in frames),
        capture_output=True, text=True, timeout=10,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    (listed,) = [r for r in replies if r.get("id") == 2]
    return {tool["name"] for tool in listed["result"]["tools"]}


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_mcp_help_is_about_the_mcp_face(flag):
    mcp_help, general = run("mcp", flag), run(flag)
    assert mcp_help.returncode == 0 and mcp_help.stderr == ""
    text = mcp_help.stdout
    assert text != general.stdout
    assert text.startswith("inbox-rpc mcp")
    assert "USAGE: inbox-rpc mcp [--read-only] [--tools NAME,...] [options]" in text
    for word in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "inbox://feed", "summarize_unread",
                 "--token-file", "--read-only", "--tools"):
        assert word in text, word
    missing = {name for name in mcp_tool_names() if name not in text}
    assert not missing, f"tools the help does not name: {missing}"


def test_eglot_in_its_strict_mode_completes_the_handshake():
    emacs = shutil.which("emacs")
    assert emacs, "no emacs: script/bootstrap installs Debian's emacs-nox and elpa-eglot"
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "eglot", "strict-handshake.el")
    done = subprocess.run(
        [emacs, "--batch", "-l", script], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, INBOX_RPC_BIN=BIN), stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr[-1500:]
    assert "mustn't have" not in done.stderr
    assert done.stdout.splitlines() == ['serverInfo (:name "inbox-rpc" :version "0.1.0")', 'ping "pong"'], done
