"""End of input and `exit` never cut a reply: a host that reads slowly after its input ends gets
every reply owed, each frame whole, before the exit status; a host that stops reading altogether
is given up on after --output-patience (exit 6), before input ends too. On both framings and on the
MCP face.

The host here reads stdout at about 1 MB/s in a thread of its own; nothing is timed but the
pace of that reading, and every wait has a deadline that only catches a hang. The reply budget is
2 MiB here (--max-reply-bytes), not the default 16: the rule is the same, still far past what the
pipe and the server's output queue hold, and reading it takes seconds rather than most of a minute."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time

import pytest

from conftest import BIN, frame

PACE = 1_000_000  # bytes a second the slow host reads
REPLY_BUDGET = 2 * 1024 * 1024  # --max-reply-bytes of the slow hosts' servers
MCP_MEMBERS = 200  # tools/call members of the MCP batch: their pages hold 3 MB beside the 2 MiB budget
HANG = 240  # seconds: only a hang takes this long
BATCH_BEGINS = b'[{"jsonrpc"'


def big_message(i: int) -> dict:
    return {"jsonrpc": "2.0", "id": f"ingest-{i}", "method": "message.ingest",
            "params": {"id": f"m{i}", "payload": {"ios_title": "t", "content": "x" * 15_000, "inbox_days": 7}}}


class SlowHost:
    """A server whose stdin is written in full by one thread and whose stdout is read at PACE."""

    def __init__(self, args: list[str], input_frames: bytes, close_input: bool = True):
        self.proc = subprocess.Popen([BIN, *args, "--max-reply-bytes", str(REPLY_BUDGET)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.output = bytearray()
        self.stderr = b""
        self.began = threading.Event()
        threads = [threading.Thread(target=self._write, args=(input_frames, close_input), daemon=True),
                   threading.Thread(target=self._read_slowly, daemon=True),
                   threading.Thread(target=self._read_stderr, daemon=True)]
        for thread in threads:
            thread.start()
        self.reader = threads[1]

    def _write(self, data: bytes, close: bool) -> None:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            if close:
                self.proc.stdin.close()
        except BrokenPipeError:
            pass

    def _read_slowly(self) -> None:
        fd = self.proc.stdout.fileno()
        while chunk := os.read(fd, 16 * 1024):
            if not self.began.is_set() and BATCH_BEGINS in self.output[-16:] + chunk:
                self.began.set()
            self.output += chunk
            time.sleep(len(chunk) / PACE)

    def wait_for_batch(self) -> None:
        assert self.began.wait(HANG), "the batch's reply never began"

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def _read_stderr(self) -> None:
        self.stderr = self.proc.stderr.read()

    def finish(self) -> int:
        """The exit status, once stdout has been read to its end."""
        status = self.proc.wait(timeout=HANG)
        self.reader.join(HANG)
        assert not self.reader.is_alive(), "stdout never reached its end"
        return status


def frames(data: bytes, framing: str) -> list:
    """Every frame in `data`, parsed; fails on a cut or malformed one."""
    out = []
    if framing == "ndjson":
        lines = data.split(b"\n")
        assert lines[-1] == b"", f"the last frame is cut: ...{bytes(lines[-1][-80:])!r}"
        return [json.loads(line) for line in lines[:-1]]
    view = memoryview(data)
    while view:
        end = bytes(view[:64]).find(b"\r\n\r\n")
        assert end > 0, f"a cut header: {bytes(view[:80])!r}"
        length = int(bytes(view[:end]).split(b": ")[1])
        body = view[end + 4:end + 4 + length]
        assert len(body) == length, f"the last frame is cut: {len(body)} of {length} bytes"
        out.append(json.loads(bytes(body)))
        view = view[end + 4 + length:]
    return out


def batch_input(framing: str, members: int = 1000) -> bytes:
    """40 messages of 15 KB, then one batch of `members` pages of up to 200 of them."""
    ingests = b"".join(frame(big_message(i), framing) for i in range(40))
    batch = [{"jsonrpc": "2.0", "id": i, "method": "feed.list", "params": {"limit": 200}} for i in range(members)]
    return ingests + frame(batch, framing)


def assert_whole_batch(replies: list, members: int = 1000, ran: bool = True) -> None:
    singles = [r for r in replies if isinstance(r, dict) and "id" in r]
    assert {r["id"] for r in singles} == {f"ingest-{i}" for i in range(40)}
    assert all("result" in r for r in singles), [r for r in singles if "result" not in r][:1]
    batches = [r for r in replies if isinstance(r, list)]
    assert len(batches) == 1, f"{len(batches)} batch replies"
    answers = batches[0]
    assert sorted(r["id"] for r in answers) == list(range(members))
    # Each member: its page, or an error that says why not (over the reply budget, cancelled at end
    # of input, refused after shutdown); none is lost.
    assert not ran or any("result" in r for r in answers)
    assert {r["error"]["code"] for r in answers if "error" in r} <= {-32600, -32800}


@pytest.mark.timeout(HANG)
@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_a_slow_host_gets_the_whole_batch_after_end_of_input(framing):
    host = SlowHost(["--store", ":memory:", "--framing", framing], batch_input(framing))
    status = host.finish()
    assert status == 0, host.stderr[-800:]
    assert_whole_batch(frames(bytes(host.output), framing))


@pytest.mark.timeout(HANG)
@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_a_slow_host_gets_the_whole_batch_after_shutdown_and_exit(framing):
    # The batch, then `shutdown` and `exit` at once; stdin stays open: `exit` ends the session, not
    # the end of input. Members not yet run are refused (-32600), each still answered.
    bye = frame({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"}, framing) + \
        frame({"jsonrpc": "2.0", "method": "exit"}, framing)
    host = SlowHost(["--store", ":memory:", "--framing", framing], batch_input(framing) + bye, close_input=False)
    status = host.finish()
    host.proc.stdin.close()
    assert status == 0, host.stderr[-800:]
    replies = frames(bytes(host.output), framing)
    assert {"jsonrpc": "2.0", "id": "bye", "result": None} in replies
    assert_whole_batch([r for r in replies if not (isinstance(r, dict) and r.get("id") == "bye")], ran=False)


@pytest.mark.timeout(HANG)
@pytest.mark.parametrize("framing", ["ndjson", "lsp"])
def test_a_slow_host_gets_a_large_reply_begun_before_shutdown_and_exit(framing):
    # `shutdown` and `exit` once the batch's reply (the reply budget's 2 MiB) has begun to arrive:
    # the host reads the rest at its pace, then the shutdown's answer, then the exit status.
    host = SlowHost(["--store", ":memory:", "--framing", framing], batch_input(framing, members=60), close_input=False)
    host.wait_for_batch()
    host.send(frame({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"}, framing) +
              frame({"jsonrpc": "2.0", "method": "exit"}, framing))
    status = host.finish()
    host.proc.stdin.close()
    assert status == 0, host.stderr[-800:]
    replies = frames(bytes(host.output), framing)
    assert len(host.output) > REPLY_BUDGET * 0.9 and replies[-1] == {"jsonrpc": "2.0", "id": "bye", "result": None}
    assert_whole_batch(replies[:-1], members=60)


@pytest.mark.timeout(HANG)
def test_a_slow_mcp_host_gets_every_reply_after_end_of_input(tmp_path):
    store = str(tmp_path / "inbox.sqlite")
    seeded = subprocess.run([BIN, "--store", store], input=b"".join(frame(big_message(i), "ndjson") for i in range(10)),
                            capture_output=True, timeout=HANG)
    assert seeded.returncode == 0 and seeded.stdout.count(b'"result"') == 10, seeded.stderr[-800:]
    handshake = [
        {"jsonrpc": "2.0", "id": "init", "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    calls = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "list_feed", "arguments": {"limit": 200}}} for i in range(8)]
    host = SlowHost(["mcp", "--store", store], b"".join(frame(m, "ndjson") for m in handshake + calls))
    status = host.finish()
    assert status == 0, host.stderr[-800:]
    replies = [r for r in frames(bytes(host.output), "ndjson") if "id" in r]
    assert sorted(map(str, (r["id"] for r in replies))) == sorted(["init", *map(str, range(8))])
    replies = [r for r in replies if r["id"] != "init"]
    for reply in replies:
        assert "result" in reply or reply["error"]["code"] == -32800, reply.get("error")
    assert any(len(r["result"]["structuredContent"]["items"]) == 10 for r in replies if "result" in r)


@pytest.mark.timeout(HANG)
def test_a_slow_mcp_host_gets_the_whole_batch_after_end_of_input(tmp_path):
    # The batch above on the MCP face: 200 list_feed calls over 40 messages of 15 KB (each page
    # larger than the reply budget's share), run on the workers, so the reader meets end of input
    # while the reply is still being made.
    store = str(tmp_path / "inbox.sqlite")
    seeded = subprocess.run([BIN, "--store", store], input=b"".join(frame(big_message(i), "ndjson") for i in range(40)),
                            capture_output=True, timeout=HANG)
    assert seeded.returncode == 0 and seeded.stdout.count(b'"result"') == 40, seeded.stderr[-800:]
    handshake = [
        {"jsonrpc": "2.0", "id": "init", "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    batch = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "list_feed", "arguments": {"limit": 200}}} for i in range(MCP_MEMBERS)]
    host = SlowHost(["mcp", "--store", store], b"".join(frame(m, "ndjson") for m in handshake) + frame(batch, "ndjson"))
    status = host.finish()
    assert status == 0, host.stderr[-800:]
    replies = frames(bytes(host.output), "ndjson")
    answers = [r for r in replies if isinstance(r, list)]
    assert len(answers) == 1 and sorted(r["id"] for r in answers[0]) == list(range(MCP_MEMBERS))
    assert any("result" in r for r in answers[0])
    # Each member: its page, or an error saying why not (over the reply budget, cancelled at end of input).
    assert {r["error"]["code"] for r in answers[0] if "error" in r} <= {-32600, -32800}


@pytest.mark.timeout(HANG)
def test_a_host_that_stops_reading_is_given_up_on_after_the_output_patience():
    proc = subprocess.Popen([BIN, "--store", ":memory:", "--sample-feed", "--output-patience", "2"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Far more reply than a pipe holds (about 5 MB), and nobody reads it. (The input is small: a
    # server blocked on its output before input ended would stop reading, and this write with it.)
    batch = [{"jsonrpc": "2.0", "id": i, "method": "feed.list", "params": {"limit": 200}} for i in range(1000)]
    proc.stdin.write(frame(batch, "ndjson"))
    proc.stdin.close()
    status = proc.wait(timeout=HANG)
    stderr = proc.stderr.read().decode()
    assert status == 6, stderr[-800:]
    assert "took no output for 2.0 s; replies dropped" in stderr
    proc.stdout.close()


@pytest.mark.timeout(HANG)
def test_a_host_that_closes_stdout_ends_the_server_quietly_at_end_of_input():
    proc = subprocess.Popen([BIN, "--store", ":memory:"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()
    try:
        proc.stdin.write(batch_input("ndjson"))
        proc.stdin.close()
    except BrokenPipeError:
        pass  # the server left at its first reply
    assert proc.wait(timeout=HANG) == 0
    assert b"error" not in proc.stderr.read().lower()


@pytest.mark.timeout(HANG)
@pytest.mark.parametrize("face", [[], ["mcp"]])
def test_a_host_that_writes_without_reading_is_given_up_on_before_input_ends(face):
    # The pings are answered on the reading thread: once the pipe is full it waits to write, reads
    # no more, and so could never see an end of input. stdin stays open: only the patience ends it.
    proc = subprocess.Popen([BIN, *face, "--store", ":memory:", "--output-patience", "2"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ping = {"jsonrpc": "2.0", "method": "ping" if face else "rpc.ping"}
    flood = b"".join(frame({**ping, "id": i}, "ndjson") for i in range(200_000))

    def write() -> None:
        try:
            proc.stdin.write(flood)
            proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the server left: what it did not read is moot

    threading.Thread(target=write, daemon=True).start()
    status = proc.wait(timeout=HANG)
    stderr = proc.stderr.read().decode()
    assert status == 6, stderr[-800:]
    assert "took no output for 2.0 s; replies dropped" in stderr
    proc.stdout.close()
