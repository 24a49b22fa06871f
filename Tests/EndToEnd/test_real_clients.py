"""Real third-party clients (PyPI) driving the server over stdio.

- python-lsp-jsonrpc: Content-Length framing, UUID string ids, its own
  Content-Type header with the legacy `charset=utf8`, strict reader (the
  Content-Length header must come first).
- jsonrpcclient: request builders / response parsers over NDJSON in text mode.
- pygls's LanguageClient and sansio-lsp-client: LSP clients that wait for `capabilities` in the
  initialize result before they go on, driven to a completed handshake and a clean exit.
"""

import json
import logging
import queue
import subprocess
import threading
import time
import uuid
from concurrent.futures import CancelledError

import pytest
from jsonrpcclient import Error, Ok, notification_json, parse, parse_json, request, request_json
from pylsp_jsonrpc.endpoint import Endpoint
from pylsp_jsonrpc.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcMethodNotFound
from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

from conftest import BIN

# the cancel path in pylsp_jsonrpc logs an InvalidStateError from its own callback
logging.getLogger("concurrent.futures").setLevel(logging.CRITICAL)
logging.getLogger("pylsp_jsonrpc").setLevel(logging.CRITICAL)

CMD = [BIN, "--store", ":memory:", "--test-methods"]


# ---------------------------------------------------------------- python-lsp-jsonrpc


class LspClient:
    def __init__(self):
        self.proc = subprocess.Popen(CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.writer = JsonRpcStreamWriter(self.proc.stdin)
        self.reader = JsonRpcStreamReader(self.proc.stdout)
        self.ids = []

        def next_id():
            i = str(uuid.uuid4())
            self.ids.append(i)
            return i

        self.endpoint = Endpoint({}, self.writer.write, id_generator=next_id)
        self.raw = []  # every message the server sent, as parsed by the client
        self._cond = threading.Condition()

        def consume(msg):
            with self._cond:
                self.raw.append(msg)
                self._cond.notify_all()
            try:
                self.endpoint.consume(msg)
            except Exception:  # a late reply to a cancelled future raises InvalidStateError
                pass

        self.thread = threading.Thread(target=self.reader.listen, args=(consume,), daemon=True)
        self.thread.start()

    def wait_raw(self, pred, timeout):
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for m in self.raw:
                    if pred(m):
                        return m
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no matching message within {timeout}s; got {self.raw!r}")
                self._cond.wait(remaining)

    def close(self):
        try:
            self.writer.close()
        except Exception:
            pass
        try:
            rc = self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            rc = None
        self.thread.join(2)
        self.endpoint.shutdown()
        return rc


@pytest.fixture
def lsp_client():
    c = LspClient()
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait(5)


def test_pylsp_ping(lsp_client):
    assert lsp_client.endpoint.request("rpc.ping").result(5) == "pong"
    assert lsp_client.close() == 0


def test_pylsp_echo_unicode(lsp_client):
    value = {"text": "héllo 日本 😀", "n": [1, 2.5, None, True], "nested": {"k": "v\n"}}
    assert lsp_client.endpoint.request("test.echo", {"value": value}).result(5) == value
    big = "é日本😀" * 50_000
    assert lsp_client.endpoint.request("test.echo", {"value": big}).result(10) == big


def test_pylsp_subtract(lsp_client):
    ep = lsp_client.endpoint
    assert ep.request("subtract", [42, 23]).result(5) == 19
    assert ep.request("subtract", {"subtrahend": 23, "minuend": 42}).result(5) == 19


def test_pylsp_concurrent_requests(lsp_client):
    ep = lsp_client.endpoint
    futures = [ep.request("subtract", [i, 1]) for i in range(100)]
    assert [f.result(10) for f in futures] == [i - 1 for i in range(100)]


def test_pylsp_method_not_found(lsp_client):
    f = lsp_client.endpoint.request("no.such.method", {"a": 1})
    with pytest.raises(JsonRpcMethodNotFound) as info:
        f.result(5)
    assert info.value.code == -32601


def test_pylsp_invalid_params(lsp_client):
    f = lsp_client.endpoint.request("subtract", ["a", 1])
    with pytest.raises(JsonRpcException) as info:
        f.result(5)
    assert info.value.code == -32602
    assert isinstance(info.value, JsonRpcInvalidParams)


def test_pylsp_cancel(lsp_client):
    ep = lsp_client.endpoint
    # A sleep longer than any wait here: its answer can only come from the cancel.
    f = ep.request("test.sleep", {"ms": 600_000})
    req_id = lsp_client.ids[-1]
    # the server keeps answering while the sleep runs
    assert ep.request("rpc.ping").result(60) == "pong"
    assert f.cancel(), "the future should still be pending"
    # pylsp_jsonrpc sent $/cancelRequest {id}; the server must answer -32800
    msg = lsp_client.wait_raw(lambda m: m.get("id") == req_id, 60)
    assert msg.get("error", {}).get("code") == -32800, msg
    with pytest.raises(CancelledError):
        f.result(0)
    assert ep.request("rpc.ping").result(60) == "pong"


def test_pylsp_notification_gets_no_reply(lsp_client):
    ep = lsp_client.endpoint
    ep.notify("notify_hello", [7])
    ep.notify("no.such.notification", {})
    assert ep.request("rpc.ping").result(5) == "pong"
    replies = [m for m in lsp_client.raw if "method" not in m]
    assert len(replies) == 1, lsp_client.raw


def test_pylsp_initialize_shutdown_exit(lsp_client):
    ep = lsp_client.endpoint
    init = ep.request("initialize", {"client": {"name": "pylsp-jsonrpc"}, "platform": "android"}).result(5)
    assert init["server"]["name"] == "inbox-rpc"
    assert ep.request("shutdown").result(5) is None
    ep.notify("exit")
    assert lsp_client.proc.wait(5) == 0


# ---------------------------------------------------------------- jsonrpcclient (NDJSON)


class LineClient:
    def __init__(self):
        self.proc = subprocess.Popen(
            CMD,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self.lines = queue.Queue()
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def readline(self, timeout=5.0):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line within {timeout}s")
        assert line is not None, "server closed stdout"
        assert line.endswith("\n")
        return line

    def close(self):
        self.proc.stdin.close()
        try:
            return self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            return None


@pytest.fixture
def line_client():
    c = LineClient()
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait(5)


def test_jsonrpcclient_ping(line_client):
    req = request("rpc.ping")
    line_client.send(json.dumps(req))
    resp = parse_json(line_client.readline())
    assert isinstance(resp, Ok), resp
    assert resp.result == "pong" and resp.id == req["id"]
    assert line_client.close() == 0


def test_jsonrpcclient_named_params(line_client):
    line_client.send(request_json("subtract", params={"minuend": 42, "subtrahend": 23}))
    resp = parse_json(line_client.readline())
    assert isinstance(resp, Ok) and resp.result == 19, resp


def test_jsonrpcclient_error(line_client):
    req = request("foobar")
    line_client.send(json.dumps(req))
    resp = parse_json(line_client.readline())
    assert isinstance(resp, Error), resp
    assert resp.code == -32601 and resp.id == req["id"]
    assert isinstance(resp.data, dict) and resp.data.get("method") == "foobar", resp


def test_jsonrpcclient_batch(line_client):
    reqs = [
        request("sum", params=(1, 2, 4)),
        request("subtract", params=(42, 23)),
        request("get_data"),
        request("foo.get", params={"name": "myself"}),
    ]
    body = json.dumps(reqs[:2] + [json.loads(notification_json("notify_hello", params=(7,)))] + reqs[2:])
    line_client.send(body)
    responses = list(parse_json(line_client.readline()))
    by_id = {r.id: r for r in responses}
    assert len(responses) == 4 and set(by_id) == {r["id"] for r in reqs}, responses
    assert by_id[reqs[0]["id"]] == Ok(7, reqs[0]["id"])
    assert by_id[reqs[1]["id"]] == Ok(19, reqs[1]["id"])
    assert by_id[reqs[2]["id"]] == Ok(["hello", 5], reqs[2]["id"])
    err = by_id[reqs[3]["id"]]
    assert isinstance(err, Error) and err.code == -32601


def test_jsonrpcclient_notification_then_request(line_client):
    line_client.send(notification_json("notify_hello", params=(7,)))
    line_client.send(request_json("rpc.ping"))
    resp = parse(json.loads(line_client.readline()))
    assert isinstance(resp, Ok) and resp.result == "pong", resp
    assert line_client.close() == 0


# ---------------------------------------------------------------- LSP clients: the handshake


def test_pygls_language_client_completes_the_handshake():
    import asyncio

    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    async def session():
        client = LanguageClient("e2e", "1.0")
        await client.start_io(*CMD)
        try:
            params = types.InitializeParams(capabilities=types.ClientCapabilities(), process_id=None, root_uri=None)
            result = await asyncio.wait_for(client.initialize_async(params), 10)
            assert result.server_info.name == "inbox-rpc" and result.server_info.version
            assert isinstance(result.capabilities, types.ServerCapabilities)
            client.initialized(types.InitializedParams())
            assert await asyncio.wait_for(client.protocol.send_request_async("rpc.ping", None), 10) == "pong"
            await asyncio.wait_for(client.shutdown_async(None), 10)
            client.exit(None)
        finally:
            await asyncio.wait_for(client.stop(), 10)

    asyncio.run(session())


def test_sansio_lsp_client_completes_the_handshake():
    import os
    import select

    import sansio_lsp_client as lsp

    proc = subprocess.Popen(CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    client = lsp.Client(process_id=os.getpid(), root_uri=None, trace="off")

    def pump(until):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            out = client.send()
            if out:
                proc.stdin.write(out)
                proc.stdin.flush()
            if select.select([proc.stdout], [], [], 0.1)[0]:
                data = os.read(proc.stdout.fileno(), 65536)
                assert data, "the server closed stdout"
                for event in client.recv(data):
                    if isinstance(event, until):
                        return event
        raise AssertionError(f"no {until.__name__} within 10 s; client state {client.state}")

    try:
        pump(lsp.Initialized)
        assert client.state == lsp.ClientState.NORMAL
        client.shutdown()
        pump(lsp.Shutdown)
        client.exit()
        proc.stdin.write(client.send())
        proc.stdin.close()
        assert proc.wait(5) == 0
    finally:
        proc.kill()
        proc.wait()
