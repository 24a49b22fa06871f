"""Nothing that waits holds a worker another request needs: open MCP `subscriptions/listen`
streams are replies held, not threads; syncs queued behind a stalled backend are callbacks held,
not threads; so while 64 streams are open and 20 syncs wait behind a stall of 20 s and more, a
tool call, a batched ping, a read and a write are each answered at once.

Margins are generous (2 s for work of a millisecond) and the stall is far longer, so a request
that waits behind the stalled work cannot pass. Every wait here has a deadline.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time

import pytest

from fake_backend import FakeBackend
from sync_support import BIN, T0, backend_args, push_payload, token_env

HANG = 120  # seconds: a wait that only catches a hang
STALL = 3 * HANG  # seconds the stalled backend holds each call: longer than any wait
MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}}


class Peer:
    """One server process: frames read on a thread, replies kept by id (batch members too)."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None):
        environment = {k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_")}
        environment.update(env or {})
        self.proc = subprocess.Popen([BIN, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=environment, bufsize=0)
        self.cond = threading.Condition()
        self.replies: dict = {}
        self.notifications: list[dict] = []
        self.stderr = bytearray()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr.read()), daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            frame = json.loads(line)
            with self.cond:
                for message in frame if isinstance(frame, list) else [frame]:
                    if "id" in message and "method" not in message:
                        self.replies[message["id"]] = message
                    else:
                        self.notifications.append(message)
                self.cond.notify_all()

    def send(self, message) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")

    def request(self, id, method: str, params=None) -> None:
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def wait_for(self, predicate, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        with self.cond:
            while not (found := predicate()):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"{what}: nothing within {timeout} s; stderr: {bytes(self.stderr[-600:])!r}")
                self.cond.wait(remaining)
            return found

    def reply(self, id, timeout: float) -> dict:
        return self.wait_for(lambda: self.replies.get(id), timeout, f"reply to {id!r}")

    def call(self, id, method: str, params=None) -> dict:
        """Sends one request and returns its reply (a deadline that only catches a hang)."""
        self.request(id, method, params)
        return self.reply(id, timeout=HANG)

    def close(self) -> int:
        self.proc.stdin.close()
        try:
            code = self.proc.wait(timeout=15)
            self.reader.join(timeout=10)  # every frame written before the exit is read
            return code
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def peers():
    started: list[Peer] = []
    yield started
    for peer in started:
        if peer.proc.poll() is None:
            peer.proc.kill()
            peer.proc.wait()


@pytest.fixture
def stalled_backend():
    """A backend whose every call answers after STALL seconds, longer than any wait here: a reply that
    comes while a sync is stalled did not wait for it, and a sync answered was cancelled."""
    fake = FakeBackend()
    fake.fail("timeout", delay=STALL, times=1000)
    yield fake
    fake.close()


def open_streams(server: Peer, count: int) -> None:
    server.request("discover", "server/discover", {"_meta": META})
    server.reply("discover", timeout=10)
    for index in range(count):
        server.request(f"listen-{index}", "subscriptions/listen",
                       {"_meta": META, "notifications": {"resourcesListChanged": True}})
    server.wait_for(
        lambda: sum(n.get("method") == "notifications/subscriptions/acknowledged" for n in server.notifications) >= count,
        timeout=30, what=f"{count} listen acknowledgements")


def test_open_listen_streams_and_queued_syncs_hold_no_worker(tmp_path, peers, stalled_backend):
    # The MCP face: 64 listen streams open (more than the 16 workers), no backend configured.
    mcp = Peer(["mcp", "--store", str(tmp_path / "mcp.sqlite"), "--sample-feed"])
    peers.append(mcp)
    open_streams(mcp, 64)
    # The JSON-RPC face: 20 syncs, the first stalled in its transfer, the other 19 queued behind it.
    rpc = Peer(["--store", str(tmp_path / "rpc.sqlite"), "--test-methods", "--test-clock", str(T0),
                "--backend-timeout", str(STALL), *backend_args(stalled_backend)], env=token_env())
    peers.append(rpc)
    syncs = [f"sync-{index}" for index in range(20)]
    for id in syncs:
        rpc.request(id, "feed.sync", {"force": True})
    deadline = time.monotonic() + 10
    while not stalled_backend.calls("getInboxMessages") and time.monotonic() < deadline:
        time.sleep(0.01)  # the test's own wait for the stall to begin
    assert stalled_backend.calls("getInboxMessages"), "the first sync never reached the backend"

    reply = mcp.call("tool-sync", "tools/call", {"_meta": META, "name": "sync_inbox", "arguments": {}})
    assert reply["result"]["isError"] is True, reply  # no backend configured: refused at once, as it should be
    reply = mcp.call("tool-list", "tools/call", {"_meta": META, "name": "list_feed", "arguments": {"limit": 2}})
    assert reply["result"]["isError"] is False, reply
    rpc.send([{"jsonrpc": "2.0", "id": "b1", "method": "rpc.ping"}])
    assert rpc.reply("b1", timeout=HANG)["result"] == "pong"
    assert "result" in rpc.call("list", "feed.list", {"limit": 5})
    assert "result" in rpc.call("ingest", "message.ingest", {"payload": push_payload("p-1")})
    # Order, not speed: every call above was answered while all 20 syncs still waited (the stall
    # outlasts every wait here), so none of them waited behind the streams or the syncs.
    assert not any(id in rpc.replies for id in syncs), "a sync was answered before it was cancelled"

    # A queued sync is a callback: cancelled, each is answered (the stalled one too: its transfer is
    # aborted); the stall outlasts the wait, so only the cancel can have answered them.
    for id in syncs:
        rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}})
    codes = {rpc.reply(id, timeout=HANG).get("error", {}).get("code") for id in syncs}
    assert codes == {-32800}, codes

    # The end of input ends all 64 streams gracefully, and both servers exit.
    assert mcp.close() == 0
    assert sum(str(id).startswith("listen-") and "result" in reply for id, reply in mcp.replies.items()) == 64
    assert rpc.close() == 0


def test_syncs_queued_inside_batches_hold_no_worker(tmp_path, peers, stalled_backend):
    # 20 batches of one sync each (more than the 16 workers), the first stalled in its transfer:
    # a batch member that waits its turn is a callback too, so a batched ping behind them is
    # answered at once, and each batch is answered (cancelled) as one array.
    rpc = Peer(["--store", str(tmp_path / "rpc.sqlite"), "--test-clock", str(T0),
                "--backend-timeout", str(STALL), *backend_args(stalled_backend)], env=token_env())
    peers.append(rpc)
    syncs = [f"sync-{index}" for index in range(20)]
    for id in syncs:
        rpc.send([{"jsonrpc": "2.0", "id": id, "method": "feed.sync", "params": {"force": True}},
                  {"jsonrpc": "2.0", "id": f"{id}-counts", "method": "feed.counts"}])
    deadline = time.monotonic() + 10
    while not stalled_backend.calls("getInboxMessages") and time.monotonic() < deadline:
        time.sleep(0.01)  # the test's own wait for the stall to begin
    assert stalled_backend.calls("getInboxMessages"), "the first sync never reached the backend"
    rpc.send([{"jsonrpc": "2.0", "id": "b1", "method": "rpc.ping"}])
    assert rpc.reply("b1", timeout=HANG)["result"] == "pong"
    # No batch is answered before its sync: the counts beside each sync wait in its array.
    assert not any(id in rpc.replies or f"{id}-counts" in rpc.replies for id in syncs)
    for id in syncs:
        rpc.send({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": id}})
    for id in syncs:
        assert rpc.reply(id, timeout=30)["error"]["code"] == -32800
        assert rpc.reply(f"{id}-counts", timeout=5)["result"]["total"] >= 0
    assert rpc.close() == 0
