"""stderr carries logs only, never blocks the server; stdout carries frames only."""

import fcntl
import struct
import termios
import time

import pytest

from conftest import (
    assert_result,
    check_message,
    is_notification,
    frame,
    loads,
)


def pipe_pending_bytes(f) -> int:
    buf = fcntl.ioctl(f.fileno(), termios.FIONREAD, struct.pack("i", 0))
    return struct.unpack("i", buf)[0]


@pytest.mark.timeout(90)
def test_unread_stderr_never_stalls_the_server(spawn):
    # stderr is a pipe that nobody reads: after 64 KiB every write(2) to it
    # would block a naive server forever.
    server = spawn("--log-level", "debug", framing="ndjson", stderr="pipe")
    server.ping()
    # Nothing reads stderr, so a server that blocked on it would never answer: each reply coming
    # at all (under a hang-only deadline) is the proof, not how soon.
    for _ in range(4):
        resp = server.call("test.log", {"count": 20000, "bytes": 200})
        assert_result(resp, resp["id"], {"logged": 20000})
        for _ in range(3):
            server.ping()
    # the pipe really is full, so the test proved something
    pending = pipe_pending_bytes(server.proc.stderr)
    # (a non-blocking writer drops whole lines, and the kernel packs them into
    # pages, so a full 64 KiB pipe holds somewhat less than 65536 bytes)
    assert pending >= 32_768, f"only {pending} bytes waiting in stderr: the server did not log as asked"
    # many requests, each of them logged at debug level
    n = 2000
    server.write(b"".join(frame({"jsonrpc": "2.0", "id": i, "method": "rpc.ping"}, "ndjson") for i in range(n)))
    for _ in range(n):
        resp = server.recv()
        assert resp.get("result") == "pong", resp
    # EOF still ends it although stderr is still full
    server.close_stdin()
    rc, _ = server.wait_exit()
    assert rc == 0


def test_debug_logs_every_request_on_stderr(spawn):
    server = spawn("--log-level", "debug", framing="ndjson")
    assert_result(server.call("get_data", id="dbg-1"), "dbg-1", ["hello", 5])
    server.close_stdin()
    rc, _ = server.wait_exit(5)
    assert rc == 0
    time.sleep(0.1)
    err = server.stderr_bytes()
    assert b"get_data" in err, f"--log-level debug should log each request; stderr was {err[-500:]!r}"


def test_warn_lines_reach_stderr(spawn):
    server = spawn("--log-level", "warn", framing="ndjson")
    resp = server.call("test.log", {"count": 5, "bytes": 50})
    assert_result(resp, resp["id"], {"logged": 5})
    server.close_stdin()
    rc, _ = server.wait_exit(5)
    assert rc == 0
    time.sleep(0.1)
    lines = [ln for ln in server.stderr_bytes().splitlines() if ln.strip()]
    assert len(lines) >= 5, lines


def test_log_level_error_silences_warn(spawn):
    server = spawn("--log-level", "error", framing="ndjson")
    resp = server.call("test.log", {"count": 5, "bytes": 50})
    assert_result(resp, resp["id"], {"logged": 5})
    server.ping()
    server.close_stdin()
    rc, _ = server.wait_exit(5)
    assert rc == 0
    time.sleep(0.1)
    assert server.stderr_bytes() == b"", f"warn lines leaked at --log-level error: {server.stderr_bytes()[:300]!r}"


def _traffic(server, fr):
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"},
        {"jsonrpc": "2.0", "id": 2, "method": "test.log", "params": {"count": 50, "bytes": 100}},
        {"jsonrpc": "2.0", "id": 3, "method": "nope"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [1]},
        [{"jsonrpc": "2.0", "id": 4, "method": "subtract", "params": [1, 2]}, 5],
        {"jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "id": 7, "method": "rpc.discover"},
    ]
    data = b"".join(frame(m, fr) for m in msgs)
    data += frame(b"{garbage", fr)
    data += frame(b'{"jsonrpc":"2.0","id":8,"method":"test.echo","params":{"value":"\xff"}}', fr)
    server.write(data)
    server.close_stdin()
    rc, _ = server.wait_exit(5)
    assert rc == 0
    assert server.wait_stdout_eof(2)
    return bytes(server.stdout_all)


def test_stdout_is_only_frames_ndjson(spawn):
    server = spawn("--log-level", "debug", framing="ndjson")
    out = _traffic(server, "ndjson")
    assert out.endswith(b"\n"), out[-100:]
    lines = out.split(b"\n")[:-1]
    replies = 0
    for line in lines:
        msg = loads(line)  # every line is one JSON text
        check_message(msg)
        replies += not is_notification(msg)
    assert replies == 8, f"expected 8 replies (6 requests/batch + 2 errors), got {replies}: {out[:2000]!r}"


def test_stdout_is_only_frames_lsp(spawn):
    server = spawn("--log-level", "debug", framing="lsp")
    out = _traffic(server, "lsp")
    count = 0
    pos = 0
    while pos < len(out):
        end = out.index(b"\r\n\r\n", pos)
        header = out[pos:end]
        assert header.startswith(b"Content-Length: ") and header[16:].isdigit(), header
        n = int(header[16:])
        body = out[end + 4 : end + 4 + n]
        assert len(body) == n
        msg = loads(body)
        check_message(msg)
        pos = end + 4 + n
        count += not is_notification(msg)
    assert count == 8, count


def test_no_stdout_before_first_request(spawn):
    server = spawn("--log-level", "debug", framing="ndjson")
    time.sleep(0.3)
    assert bytes(server.stdout_all) == b"", "the server wrote to stdout before any request"
    server.ping()
