"""A careless or hostile host: framing it gets wrong, requests after shutdown, dates at the ends of
the clock, secrets on the command line. Each case once broke the server; each must be answered and
the server must keep serving."""

import json
import subprocess
import time

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


# ---------------------------------------------------------------- one line must not take gigabytes


LIMIT = 16 * 1024 * 1024


def status_kib(pid: int, field: str) -> int:
    """A memory figure of /proc/PID/status: VmRSS now, VmHWM the peak."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise AssertionError(f"no {field}")


@pytest.mark.timeout(120)
def test_a_batch_of_a_thousand_discovers_stays_within_the_reply_limit(spawn):
    # 1000 rpc.discover make 60 MB of replies; a batch holds at most --max-reply-bytes of them.
    server = spawn()  # --max-reply-bytes 16 MiB, the default
    server.ping()
    before = status_kib(server.proc.pid, "VmRSS")
    batch = [{"jsonrpc": "2.0", "id": i, "method": "rpc.discover"} for i in range(1000)]
    server.write(json.dumps(batch).encode() + b"\n")
    reply = server.recv(timeout=90)
    peak = status_kib(server.proc.pid, "VmHWM")
    assert isinstance(reply, list) and len(reply) == 1000
    assert sorted(r["id"] for r in reply) == list(range(1000))
    sent = [r for r in reply if "result" in r]
    refused = [r for r in reply if "error" in r]
    assert 0 < len(sent) < 1000 and len(sent) + len(refused) == 1000
    for r in refused:
        assert r["error"]["code"] == -32600 and r["error"]["data"]["ran"] is True
        assert r["error"]["data"]["limit"] == LIMIT
    size = sum(len(json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode()) for r in sent)
    assert size <= LIMIT
    # The bound: the reply limit, a frame being encoded, and the array itself; not 60 MB of trees.
    assert peak - before < 96 * 1024, f"peak RSS grew by {(peak - before) // 1024} MiB"
    server.ping()


@pytest.mark.timeout(120)
def test_a_write_past_the_reply_limit_still_runs_and_is_reported(spawn):
    server = spawn("--max-reply-bytes", "200000")
    batch = [{"jsonrpc": "2.0", "id": i, "method": "rpc.discover"} for i in range(10)]
    batch.append({"jsonrpc": "2.0", "id": "write", "method": "message.ingest",
                  "params": {"id": "late", "payload": {"content": "c", "inbox_days": 7}}})
    server.write(json.dumps(batch).encode() + b"\n")
    reply = {r["id"]: r for r in server.recv(timeout=60)}
    assert len(reply) == 11
    write = reply["write"]
    assert "result" in write or write["error"]["data"]["ran"] is True, write
    assert "result" in server.call("message.get", {"id": "late"})


@pytest.mark.timeout(120)
def test_a_thousand_discovers_fit_a_500_mb_address_space():
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (500_000 * 1024, 500_000 * 1024))

    batch = [{"jsonrpc": "2.0", "id": i, "method": "rpc.discover"} for i in range(1000)]
    run = subprocess.run([BIN, "--store", ":memory:"], input=json.dumps(batch).encode() + b"\n",
                         capture_output=True, timeout=100, preexec_fn=limit)
    assert run.returncode == 0, run.stderr[-800:]
    assert len(json.loads(run.stdout)) == 1000


@pytest.mark.timeout(180)
def test_a_ping_behind_a_heavy_batch_is_answered_before_it(spawn):
    server = spawn()
    big = "x" * 60_000
    for i in range(40):
        reply = server.call("message.ingest", {"id": f"m{i}", "payload": {"ios_title": "t", "content": big, "inbox_days": 7}})
        assert "result" in reply, reply
    batch = [{"jsonrpc": "2.0", "id": i, "method": "feed.list", "params": {"limit": 200}} for i in range(1000)]
    server.write(json.dumps(batch).encode() + b"\n")
    time.sleep(0.2)
    server.send({"jsonrpc": "2.0", "id": "ping", "method": "rpc.ping"})
    # Order, not speed: the ping sent after the batch is answered before it.
    first = server.recv()
    assert first == {"jsonrpc": "2.0", "id": "ping", "result": "pong"}, str(first)[:300]
    # End of input cancels what is left; every member is still answered, the writes before it kept.
    server.close_stdin()
    rest = server.recv(timeout=60)
    assert isinstance(rest, list) and len(rest) == 1000
    assert {r["error"]["code"] for r in rest if "error" in r} <= {-32600, -32800}
