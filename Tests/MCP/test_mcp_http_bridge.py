"""`inbox-rpc mcp` over Streamable HTTP, through an existing stdio bridge from PyPI (mcp-proxy, in
.venv-mcp1: it needs a 1.x SDK), as docs/mcp.md sets it up: the bridge starts the server on stdio
and serves it at http://127.0.0.1:PORT/mcp; the official SDK's Streamable HTTP client opens one
session there, lists and calls tools and reads a resource. Loopback only. Other venvs skip it."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time

import anyio
import pytest

from harness import BIN, MAJOR

BRIDGE = shutil.which("mcp-proxy", path=os.path.dirname(sys.executable))
if MAJOR >= 2 or BRIDGE is None:
    pytest.skip("mcp-proxy (with a 1.x SDK) is installed in .venv-mcp1 only", allow_module_level=True)

from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def bridge(store, tmp_path):
    """mcp-proxy serving `inbox-rpc mcp --store STORE --sample-feed` on a loopback port."""
    port = free_port()
    log = open(tmp_path / "bridge.log", "w+")
    proc = subprocess.Popen(
        [BRIDGE, "--host", "127.0.0.1", "--port", str(port), "--", BIN, "mcp", "--store", store, "--sample-feed"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30  # a hang guard only: the bridge listens within a second or two
    while True:
        assert proc.poll() is None, open(tmp_path / "bridge.log").read()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline, open(tmp_path / "bridge.log").read()
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/mcp"
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


def test_one_streamable_http_session_through_the_bridge(bridge, store):
    async def main():
        async with streamable_http_client(bridge) as (read, write, _session_id):
            async with ClientSession(read, write) as client:
                initialized = await client.initialize()
                assert initialized.serverInfo.name == "inbox-rpc"
                tools = {tool.name for tool in (await client.list_tools()).tools}
                assert {"list_feed", "dismiss_message", "sync_inbox"} <= tools
                page = await client.call_tool("list_feed", {"limit": 2})
                assert not page.isError and "welcome" in page.content[0].text
                dismissed = await client.call_tool("dismiss_message", {"id": "welcome"})
                assert not dismissed.isError and dismissed.content[0].text == "dismissed"
                counts = json.loads((await client.read_resource("inbox://counts")).contents[0].text)
                assert counts["total"] == 9

    anyio.run(main)
    # The change went through the bridge into the store.
    request = b'{"jsonrpc":"2.0","id":1,"method":"feed.counts"}\n'
    done = subprocess.run([BIN, "--store", store], input=request, capture_output=True, timeout=30)
    frames = [json.loads(line) for line in done.stdout.splitlines()]
    assert next(frame["result"] for frame in frames if frame.get("id") == 1)["total"] == 9
