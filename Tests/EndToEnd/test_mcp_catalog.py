"""The MCP tool catalog is written once, beside the methods (`x-mcp-tools` in Schemas/methods.json,
composed into openrpc.json), and everything else is made from it: the tools `inbox-rpc mcp` lists
(names, titles, descriptions, annotations), the handshake's instructions, `inbox-rpc mcp --help` and
docs/mcp.md's table (script/readme-tables). Schemas/build.py refuses an entry that lacks a member."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import BIN, REPO_ROOT
from contract import DOCUMENT_PATH
from test_mcp_stdio import MCP
from test_schema_keywords import check, copy_of_schemas, edit

HINTS = {"readOnly": "readOnlyHint", "destructive": "destructiveHint", "idempotent": "idempotentHint",
         "openWorld": "openWorldHint"}


def catalog() -> list[dict]:
    with open(DOCUMENT_PATH, encoding="utf-8") as file:
        return [tool for method in json.load(file)["methods"] for tool in method.get("x-mcp-tools", [])]


def listed(*flags: str, tmp_path) -> tuple[dict, list[dict]]:
    server = MCP("--store", str(tmp_path / "inbox.sqlite"), *flags)
    try:
        initialized = server.initialize()
        return initialized, server.call("tools/list")["result"]["tools"]
    finally:
        server.shutdown_gracefully()
        if server.proc.poll() is None:
            server.proc.kill()


def test_the_server_lists_the_catalog_of_the_contract(tmp_path):
    initialized, tools = listed(tmp_path=tmp_path)
    entries = catalog()
    assert [tool["name"] for tool in tools] == [entry["name"] for entry in entries]
    for tool, entry in zip(tools, entries):
        assert tool["title"] == entry["title"] and tool["description"] == entry["description"], entry["name"]
        assert tool["annotations"] == {HINTS[k]: v for k, v in entry["hints"].items()}, entry["name"]
        assert entry["name"] in initialized["instructions"], entry["name"]


@pytest.mark.parametrize("flags,offered", [
    (["--read-only"], {entry["name"] for entry in catalog() if entry["hints"]["readOnly"]}),
    (["--tools", "list_feed,get_message"], {"list_feed", "get_message"}),
    (["--read-only", "--tools", "list_feed,dismiss_message,get_message"], {"list_feed", "get_message"}),
])
def test_the_instructions_name_only_the_tools_offered(tmp_path, flags, offered):
    initialized, tools = listed(*flags, tmp_path=tmp_path)
    assert {tool["name"] for tool in tools} == offered
    words = initialized["instructions"]
    assert all(name in words for name in offered) and flags[0] in words
    assert not any(entry["name"] in words for entry in catalog() if entry["name"] not in offered), words


def test_the_help_lists_each_tool_with_its_summary():
    text = subprocess.run([BIN, "mcp", "--help"], capture_output=True, text=True, timeout=30).stdout
    for entry in catalog():
        line = next((line for line in text.splitlines() if line.split()[:1] == [entry["name"]]), None)
        assert line is not None and entry["summary"].replace("`", "") in line, entry["name"]
        assert ("[ro" in line) is entry["hints"]["readOnly"], line


def test_the_docs_table_follows_the_catalog_and_the_check_catches_a_change(tmp_path):
    tables = os.path.join(REPO_ROOT, "script", "readme-tables")
    assert subprocess.run([tables, "--check"], capture_output=True, timeout=60).returncode == 0
    with open(DOCUMENT_PATH, encoding="utf-8") as file:
        contract = json.load(file)
    next(m for m in contract["methods"] if m["name"] == "message.dismiss")["x-mcp-tools"][0]["summary"] = "gone for good"
    changed = tmp_path / "openrpc.json"
    changed.write_text(json.dumps(contract))
    page = tmp_path / "mcp.md"
    shutil.copy(os.path.join(REPO_ROOT, "docs", "mcp.md"), page)
    done = subprocess.run([tables, "--check", "--contract", str(changed), "--mcp-doc", str(page)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "+| `dismiss_message` | Dismiss a message | `message.dismiss` | gone for good |" in done.stderr
    subprocess.run([tables, "--contract", str(changed), "--mcp-doc", str(page)], check=True, capture_output=True, timeout=60)
    assert "gone for good" in page.read_text()


@pytest.mark.parametrize("change,said", [
    (lambda tool: tool.pop("title"), "title must be a non-empty string"),
    (lambda tool: tool["hints"].pop("openWorld"), "hints must give"),
    (lambda tool: tool.update(params=["nope"]), "params names nope"),
    (lambda tool: tool.update(colour="red"), "unknown member colour"),
])
def test_build_refuses_a_tool_entry_it_cannot_use(tmp_path, change, said):
    schemas = copy_of_schemas(tmp_path)
    edit(os.path.join(schemas, "methods.json"),
         lambda document: change(next(m for m in document["methods"] if m["name"] == "feed.list")["x-mcp-tools"][0]))
    done = check(schemas)
    assert done.returncode == 1 and said in done.stderr and "feed.list.x-mcp-tools.list_feed" in done.stderr, done.stderr
