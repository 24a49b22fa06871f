"""A careless or hostile host: framing it gets wrong, requests after shutdown, dates at the ends of
the clock, secrets on the command line. Each case once broke the server; each must be answered and
the server must keep serving."""

import json
import subprocess

import pytest

from conftest import BIN, assert_error, assert_result

pytestmark = pytest.mark.timeout(60)


# ---------------------------------------------------------------- LSP framing never drops a message silently


def test_a_json_line_in_content_length_framing_is_answered(spawn):
    server = spawn(framing="lsp")
    server.ping()
    server.write(b'{"jsonrpc":"2.0","id":7,"method":"rpc.ping"}\n')
    err = assert_error(server.recv(), None, -32700)
    assert "Content-Length" in err["data"]["reason"]
    server.ping()


def test_a_json_line_before_a_frame_costs_only_itself(spawn):
    server = spawn(framing="lsp")
    server.ping()
    body = b'{"jsonrpc":"2.0","id":8,"method":"rpc.ping"}'
    server.write(b'{"jsonrpc":"2.0","id":7,"method":"rpc.ping"}\n' + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert_error(server.recv(), None, -32700)
    assert_result(server.recv(), 8, "pong")


def test_two_content_lengths_that_disagree_are_refused(spawn):
    server = spawn(framing="lsp")
    server.ping()
    body = b'{"jsonrpc":"2.0","id":9,"method":"rpc.ping"}'
    server.write(b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(body), len(body) - 1) + body)
    err = assert_error(server.recv(), None, -32700)
    assert "disagree" in err["data"]["reason"]
    server.ping()


# ---------------------------------------------------------------- after shutdown nothing changes the store


def test_a_notification_after_shutdown_changes_nothing(tmp_path):
    store = str(tmp_path / "inbox.sqlite")
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "message.ingest",
         "params": {"id": "keep", "payload": {"ios_title": "t", "content": "b", "inbox_days": 7}}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "message.dismiss", "params": {"id": "keep"}},
        {"jsonrpc": "2.0", "method": "feed.markAllRead"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    text = "".join(json.dumps(r) + "\n" for r in requests).encode()
    run = subprocess.run([BIN, "--store", store], input=text, capture_output=True, timeout=20)
    assert run.returncode == 0, run.stderr
    after = subprocess.run(
        [BIN, "--store", store], input=b'{"jsonrpc":"2.0","id":1,"method":"feed.counts"}\n',
        capture_output=True, timeout=20)
    counts = json.loads(after.stdout)["result"]
    assert counts["total"] == 1 and counts["unread"] == 1, counts


# ---------------------------------------------------------------- dates at the ends of the clock


@pytest.mark.parametrize("clock", ["9223372036854775000", "-9223372036854775000"])
def test_an_extreme_clock_never_overflows(spawn, clock):
    server = spawn("--test-clock", clock)
    reply = server.call("message.ingest", {"id": "far", "payload": {"ios_title": "t", "content": "b",
                                                       "inbox_days": 36500}})
    assert_result(reply, reply["id"])
    got = server.call("message.get", {"id": "far"})
    # Clamped to the last second RFC 3339 can write, the message is either shown or already expired.
    assert "result" in got or got["error"]["code"] == -32001, got
    server.ping()


def test_the_test_clock_method_holds_dates_in_range(spawn):
    server = spawn()
    reply = server.call("test.clock", {"now": 9223372036854775000})
    assert reply["result"]["now"] == 253402300799
    reply = server.call("message.ingest", {"id": "x", "payload": {"content": "b", "inbox_days": 7}})
    assert "result" in reply, reply
    server.ping()
