"""--trace FILE, check-trace and replay: a host's own traffic recorded, checked against Schemas/
and run again.

Sessions go through the clients in clients/ (the Python package and the shell client); the
trace is read back as JSON lines, checked with `inbox-rpc check-trace`, edited, and replayed
with `inbox-rpc replay`.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import threading

import pytest

from conftest import BIN, REPO_ROOT, dumps, run_cli
from contract import DOCUMENT_PATH

sys.path.insert(0, os.path.join(REPO_ROOT, "clients", "python"))
from inbox_rpc_client import Client  # noqa: E402

SHELL_CLIENT = os.path.join(REPO_ROOT, "clients", "shell", "inbox")
MARKER = "[REDACTED]"


def records(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_records(path: str, items: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for item in items:
            f.write(json.dumps(item, separators=(",", ":")) + "\n")


def check_trace(*args: str) -> subprocess.CompletedProcess:
    return run_cli("check-trace", *args, timeout=30)


def findings_of(*args: str) -> list[dict]:
    """check-trace --format json: every finding of every subject (a message the host sent)."""
    done = check_trace("--format", "json", *args)
    return [finding for subject in json.loads(done.stdout)["subjects"] for finding in subject["findings"]]


def python_session(trace: str, store: str) -> None:
    """A few calls through the Python client, as a host would make them."""
    with Client(BIN, store=store, sample_feed=True, args=["--trace", trace], contract=DOCUMENT_PATH) as client:
        client.initialize()
        client.feed.counts()
        page = client.feed.list(limit=3)
        client.message.get(id=page["items"][0]["id"])
        # the cursor names this store: a replay pairs it with its own
        client.feed.list(limit=3, cursor=page["nextCursor"])
        client.button.tap(id="summer-sale", button=1)
        client.message.markRead(ids=["summer-sale"])
        client.message.dismiss(id="hero-banner")
        client.feed.counts()
        client.shutdown()


def shell_session(trace: str, store: str) -> str:
    commands = (
        "feed.counts\nfeed.list\nbutton.tap id=summer-sale button=1\nmessage.markRead ids=[\"summer-sale\"]\n"
        "message.tap id=plain-note\nmessage.dismiss id=hero-banner\nfeed.counts\n"
    )
    env = dict(os.environ, INBOX_RPC_BIN=BIN, INBOX_STORE=store, INBOX_RPC_FLAGS=f"--sample-feed --trace={trace}")
    done = subprocess.run(
        [SHELL_CLIENT, "session"], input=commands.encode(), capture_output=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


@pytest.fixture(params=["python", "shell"])
def recorded(request, tmp_path) -> str:
    """A trace of one session through a client of clients/."""
    trace = str(tmp_path / "session.trace")
    store = str(tmp_path / "inbox.sqlite")
    if request.param == "python":
        python_session(trace, store)
    else:
        shell_session(trace, store)
    return trace


def test_a_client_session_is_recorded_and_checks_clean(recorded):
    lines = records(recorded)
    directions = {line["dir"] for line in lines}
    assert directions == {"in", "out"}
    assert all(set(line) == {"t", "dir", "frame"} and isinstance(line["t"], int) for line in lines)
    sent = [line["frame"]["method"] for line in lines if line["dir"] == "in" and "id" in line["frame"]]
    assert "feed.counts" in sent and "message.dismiss" in sent
    replies = [line["frame"] for line in lines if line["dir"] == "out" and "id" in line["frame"]]
    assert len(replies) == len(sent)
    assert stat.S_IMODE(os.stat(recorded).st_mode) == 0o600
    done = check_trace(recorded)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    assert b"error" not in done.stdout and b"warning" not in done.stdout
    assert findings_of(recorded) == []


def test_check_trace_reports_a_wrong_param_type_and_an_unknown_method(recorded, tmp_path):
    lines = records(recorded)
    index = next(i for i, line in enumerate(lines) if line["dir"] == "in" and line["frame"]["method"] == "message.dismiss")
    lines[index]["frame"]["params"]["id"] = 42
    unknown = {"t": lines[index]["t"], "dir": "in", "frame": {"jsonrpc": "2.0", "id": 9999, "method": "feed.nuke"}}
    lines.insert(index + 1, unknown)
    edited = str(tmp_path / "edited.trace")
    write_records(edited, lines)
    done = check_trace("--format", "json", edited)
    assert done.returncode == 1, done.stderr.decode()
    findings = findings_of(edited)
    request_id = lines[index]["frame"]["id"]
    wrong = [f for f in findings if f["ruleId"] == "params"]
    assert len(wrong) == 1 and wrong[0]["line"] == index + 1 and wrong[0]["pointer"] == "/frame/params/id", findings
    assert wrong[0]["message"].startswith(f"id {request_id}: params.id: ")
    nuke = [f for f in findings if f["ruleId"] == "unknown-method"]
    assert len(nuke) == 1 and nuke[0]["line"] == index + 2 and nuke[0]["pointer"] == "/frame/method"
    assert nuke[0]["message"].startswith("id 9999: method: feed.nuke")
    assert len(findings) == 2
    # every format of lint names the same places
    text = check_trace(edited).stdout.decode()
    assert f"{edited}:{index + 1}:" in text and f"id {request_id}: params.id:" in text
    assert f"{edited}:{index + 2}:" in text and "id 9999: method:" in text
    github = check_trace("--format", "github", edited)
    assert github.returncode == 1 and f"line={index + 1}," in github.stdout.decode()
    sarif = json.loads(check_trace("--format", "sarif", edited).stdout)
    results = sarif["runs"][0]["results"]
    assert sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results) == [index + 1, index + 2]
    junit = check_trace("--format", "junit", edited).stdout.decode()
    assert junit.count("<failure") == 2 and "feed.nuke (id 9999)" in junit


def test_check_trace_checks_replies_against_their_result_schema(recorded, tmp_path):
    lines = records(recorded)
    index = max(i for i, line in enumerate(lines) if line["dir"] == "out" and "total" in str(line["frame"].get("result")))
    lines[index]["frame"]["result"]["total"] = "ten"
    edited = str(tmp_path / "edited.trace")
    write_records(edited, lines)
    findings = findings_of(edited)
    assert [(f["line"], f["pointer"], f["ruleId"]) for f in findings] == [(index + 1, "/frame/result/total", "result")]


def test_check_trace_usage_and_unreadable_files(tmp_path):
    assert check_trace().returncode == 2
    assert check_trace("--format", "yaml", "x").returncode == 2
    assert check_trace(str(tmp_path / "missing")).returncode == 3


def test_replay_of_a_recorded_session_reports_no_difference_then_the_one_edited(recorded, tmp_path):
    done = run_cli("replay", recorded, "--sample-feed", timeout=60)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    assert b"0 difference(s)" in done.stdout
    lines = records(recorded)
    index = next(i for i, line in enumerate(lines) if line["dir"] == "out" and "dismissed" in (line["frame"].get("result") or ()))
    lines[index]["frame"]["result"]["dismissed"] = False
    edited = str(tmp_path / "edited.trace")
    write_records(edited, lines)
    done = run_cli("replay", edited, "--sample-feed", timeout=60)
    assert done.returncode == 1
    out = done.stdout.decode().splitlines()
    assert out[-1].startswith("1 difference(s)"), out
    assert out[0].startswith(f"{edited}:{index + 1}: id ") and "result.dismissed: recorded false, replayed true" in out[0]


def test_replay_shows_control_characters_of_the_trace_escaped(tmp_path):
    trace = str(tmp_path / "t.trace")
    counts = {"total": 0, "unread": 0, "unactioned": 0, "pinned": 0, "\u001b[2J": 1}
    frames = [
        {"t": 1764493500000, "dir": "in", "frame": {"jsonrpc": "2.0", "id": 1, "method": "feed.counts"}},
        {"t": 1764493500001, "dir": "out", "frame": {"jsonrpc": "2.0", "id": 1, "result": counts}},
    ]
    write_records(trace, frames)
    done = run_cli("replay", trace, timeout=60)
    assert done.returncode == 1 and b"\x1b" not in done.stdout
    assert "result.\\u001b[2J: recorded, missing in the replay" in done.stdout.decode()


def test_replay_sets_times_aside_but_not_other_strings(tmp_path):
    trace = str(tmp_path / "t.trace")
    frames = [
        {"t": 1764493500000, "dir": "in", "frame": {"jsonrpc": "2.0", "id": 1, "method": "feed.counts"}},
        {"t": 1764493500001, "dir": "out", "frame": {"jsonrpc": "2.0", "id": 1, "result": {"total": 0, "unread": 0, "unactioned": 0, "pinned": 0, "unseen": 0}}},
        {"t": 1764493500002, "dir": "in", "frame": "not json"},
        {"t": 1764493500003, "dir": "out", "frame": {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}},
    ]
    write_records(trace, frames)
    done = run_cli("replay", trace, timeout=60)
    # the recorded error lacks the data the server adds: exactly that is reported
    assert done.returncode == 1 and "error.data: only in the replay" in done.stdout.decode(), done.stdout.decode()


SECRET_ENV = "env-token-7d1c0e5a9b"
SECRET_FILE = "file-token-41f9aa03c2"


@pytest.mark.parametrize("source", ["environment", "file"])
def test_the_token_never_reaches_the_trace(tmp_path, source):
    trace = str(tmp_path / "secret.trace")
    token = SECRET_ENV if source == "environment" else SECRET_FILE
    args = ["--trace", trace]
    env = dict(os.environ)
    if source == "file":
        token_file = tmp_path / "token"
        token_file.write_text(token + "\n")
        args += ["--token-file", str(token_file)]
    else:
        env["INBOX_RPC_API_TOKEN"] = token
    proc = subprocess.Popen(
        [BIN, "--store", ":memory:", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    frames = [
        # echoed back in the -32001 error's data
        {"jsonrpc": "2.0", "id": 1, "method": "message.get", "params": {"id": token}},
        # a param the schemas mark x-secret: refused, and its value echoed nowhere
        {"jsonrpc": "2.0", "id": 2, "method": "config.set", "params": {"backend": {"token": "host-secret-0b9e"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "message.get", "params": {"id": "host-secret-0b9e"}},
        # a header a host pasted into a payload, and a member of that name
        {"jsonrpc": "2.0", "id": 4, "method": "message.resolve", "params": {"payload": {"title": "Authorization: Token zz-header-9", "customData": {"Authorization": "Bearer zz-member-8"}}}},
    ]
    body = b"".join(dumps(frame) + b"\n" for frame in frames) + token.encode() + b" is not JSON\n"
    out, err = proc.communicate(body, timeout=30)
    assert token.encode() in out  # the replies did echo it: the trace is what must not
    raw = open(trace, "rb").read()
    for secret in (token, "host-secret-0b9e", "zz-header-9", "zz-member-8"):
        assert secret.encode() not in raw, secret
    assert raw.count(MARKER.encode()) >= 6
    lines = records(trace)
    # the line that is not JSON: a digest of it, never its bytes
    unparsed = [line["unparsed"] for line in lines if "unparsed" in line]
    sent = token.encode() + b" is not JSON"
    assert unparsed == [{"bytes": len(sent), "sha256": hashlib.sha256(sent).hexdigest(), "prefix": " ".join([MARKER] * 4)}]


def test_the_trace_file_is_private_and_not_followed(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("")
    link = tmp_path / "link.trace"
    link.symlink_to(target)
    done = run_cli("--store", ":memory:", "--trace", str(link), stdin=dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"}))
    assert done.returncode == 2 and b"--trace" in done.stderr and target.read_text() == ""
    theirs = tmp_path / "theirs.trace"
    theirs.write_text("")
    os.chown(theirs, 65534, 65534)
    done = run_cli("--store", ":memory:", "--trace", str(theirs), stdin=b"")
    assert done.returncode == 2 and b"belongs to another user" in done.stderr
    # a trace left by an earlier run is kept as FILE.1
    trace = tmp_path / "run.trace"
    for _ in range(2):
        assert run_cli("--store", ":memory:", "--trace", str(trace), stdin=dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"}) + b"\n").returncode == 0
    assert len(records(str(trace))) == 2 and len(records(str(trace) + ".1")) == 2
    assert stat.S_IMODE(os.stat(trace).st_mode) == 0o600


def pings(count: int) -> bytes:
    return b"".join(dumps({"jsonrpc": "2.0", "id": i, "method": "rpc.ping"}) + b"\n" for i in range(count))


def peak_rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))


@pytest.mark.timeout(120)
def test_a_flood_with_a_trace_nobody_reads_still_gets_every_reply(tmp_path):
    fifo = str(tmp_path / "trace.fifo")
    os.mkfifo(fifo, 0o600)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # held open, never read
    try:
        count = 200_000
        # the frames waiting for the FIFO are bounded by the cap (never more than 8 MiB)
        command = [BIN, "--store", ":memory:", "--trace", fifo, "--trace-max-bytes", "500000"]
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        writer = threading.Thread(target=lambda: proc.stdin.write(pings(count)), daemon=True)
        writer.start()
        replies = 0
        last = b""
        while replies < count:
            chunk = proc.stdout.read1(1 << 20)
            assert chunk, f"output ended after {replies} of {count} replies"
            replies += chunk.count(b"\n")
            last = (last + chunk)[-200:]
        # every reply came while the trace was stuck; the queue for it stayed within its bound
        # (all 400,000 frames held would take well over 60 MiB)
        peak = peak_rss_kib(proc.pid)
        writer.join()
        proc.stdin.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=30) == 0
        assert json.loads(last.splitlines()[-1]) == {"jsonrpc": "2.0", "id": count - 1, "result": "pong"}
        assert b"frames dropped" in err, err.decode()
        assert peak < 40 * 1024, f"peak RSS {peak} KiB"
    finally:
        os.close(reader)


def test_the_size_cap_holds_with_one_rotation(tmp_path):
    trace = str(tmp_path / "capped.trace")
    cap = 20_000
    count = 20_000  # enough that, dropped or not, over twice the cap reaches the file
    done = subprocess.run(
        [BIN, "--store", ":memory:", "--trace", trace, "--trace-max-bytes", str(cap)], input=pings(count), capture_output=True, timeout=60
    )
    assert done.returncode == 0 and len(done.stdout.splitlines()) == count
    assert 0 < os.path.getsize(trace) <= cap and 0 < os.path.getsize(trace + ".1") <= cap
    assert not os.path.exists(trace + ".2")
    lines = records(trace + ".1") + records(trace)
    assert all("frame" in line or "dropped" in line for line in lines)
    ids = [line["frame"]["id"] for line in lines if "frame" in line]
    assert ids == sorted(ids)  # in order, whatever was dropped or rotated away
    # the end is the last reply, or the count of the frames dropped after it was queued
    assert lines[-1].get("frame", {}).get("id") == count - 1 or lines[-1]["dropped"] > 0, lines[-1]


def test_both_faces_and_both_framings_are_traced(tmp_path):
    lsp = str(tmp_path / "lsp.trace")
    body = dumps({"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"})
    done = run_cli("--store", ":memory:", "--trace", lsp, stdin=b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert done.returncode == 0
    assert [line["frame"] for line in records(lsp)] == [json.loads(body), {"jsonrpc": "2.0", "id": 1, "result": "pong"}]
    # a body written over several lines is kept as the same JSON, on the trace's one line
    pretty = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "rpc.ping"}, indent=2).encode()
    done = run_cli("--store", ":memory:", "--trace", lsp, stdin=b"Content-Length: %d\r\n\r\n" % len(pretty) + pretty)
    assert done.returncode == 0
    assert records(lsp)[0]["frame"] == json.loads(pretty) and check_trace(lsp).returncode == 0
    mcp = str(tmp_path / "mcp.trace")
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    done = run_cli("mcp", "--store", ":memory:", "--trace", mcp, stdin=dumps(hello) + b"\n" + dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}) + b"\n")
    assert done.returncode == 0
    lines = records(mcp)
    assert [line["dir"] for line in lines] == ["in", "out", "in", "out"]
    assert lines[3]["frame"]["result"]["tools"]
    replay = run_cli("replay", mcp, timeout=60)
    assert replay.returncode == 0, replay.stdout.decode()
    assert check_trace(mcp).returncode == 0
    # in an MCP trace the envelope and the pairing are checked too: a reply to nothing is found
    lines.append({"t": lines[-1]["t"], "dir": "out", "frame": {"jsonrpc": "2.0", "id": 77, "result": {}}})
    write_records(mcp, lines)
    findings = findings_of(mcp)
    assert [(f["line"], f["ruleId"]) for f in findings] == [(5, "unmatched-reply")]


def test_a_frame_larger_than_the_cap_is_named_not_kept(tmp_path):
    trace = str(tmp_path / "big.trace")
    big = {"jsonrpc": "2.0", "id": 1, "method": "message.resolve", "params": {"payload": {"title": "x" * 5000, "body": "b"}}}
    ping = {"jsonrpc": "2.0", "id": 2, "method": "rpc.ping"}
    done = run_cli("--store", ":memory:", "--trace", trace, "--trace-max-bytes", "3000", stdin=dumps(big) + b"\n" + dumps(ping) + b"\n")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2
    lines = (records(trace + ".1") if os.path.exists(trace + ".1") else []) + records(trace)
    assert os.path.getsize(trace) <= 3000
    # the first frame found the queue empty, so it went in, named by its size; later ones may have
    # been dropped while it was written (a gap line counts them)
    assert lines[0]["frame"] == f"[a frame of {len(dumps(big))} bytes, larger than the trace's size cap]"
    assert all(("dir" in line) != ("dropped" in line) for line in lines)


def test_replay_sets_times_aside_and_nothing_else(tmp_path):
    trace = str(tmp_path / "resolve.trace")
    payload = json.load(open(os.path.join(REPO_ROOT, "clients", "examples", "flash-sale-push.json")))
    # sent without `now`: the card's times come from the clock, real when recorded, pinned when replayed
    resolve = {"jsonrpc": "2.0", "id": 1, "method": "message.resolve", "params": {"payload": {**payload, "send_date": "now"}}}
    assert run_cli("--store", ":memory:", "--trace", trace, stdin=dumps(resolve) + b"\n").returncode == 0
    lines = records(trace)
    card = lines[1]["frame"]["result"]
    assert {"sentAt", "expiresAt"} <= set(card) and card["sentAt"].endswith("Z")
    card["sentAt"] = "2001-02-03T04:05:06Z"  # another time: still the same reply
    card["expiresAt"] = "2001-02-03T04:05:06.789+02:00"
    write_records(trace, lines)
    done = run_cli("replay", trace, timeout=60)
    assert done.returncode == 0, done.stdout.decode()
    card["title"] = "2001-02-03"  # a date but not a date-time: compared
    write_records(trace, lines)
    done = run_cli("replay", trace, timeout=60)
    assert done.returncode == 1 and 'result.title: recorded "2001-02-03", replayed "Flash sale"' in done.stdout.decode()


def test_a_fifo_nobody_reads_is_refused_at_start(tmp_path):
    fifo = str(tmp_path / "lonely.fifo")
    os.mkfifo(fifo, 0o600)
    done = run_cli("--store", ":memory:", "--trace", fifo, stdin=b"")
    assert done.returncode == 2 and b"no process reads the FIFO" in done.stderr


def test_check_trace_reports_gaps_bad_lines_and_requests_never_answered(tmp_path):
    trace = tmp_path / "gappy.trace"
    ping = {"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"}
    lines = [
        json.dumps({"t": 1, "dir": "in", "frame": ping}),
        json.dumps({"t": 2, "dropped": 3}),
        "not a record",
        json.dumps({"t": 3, "dir": "out", "frame": {"jsonrpc": "2.0", "id": 1, "result": "pong"}}),
        json.dumps({"t": 4, "dir": "in", "frame": {**ping, "id": 2}}),
        json.dumps({"t": 5, "dir": "out", "frame": {"jsonrpc": "2.0", "id": 3, "result": "pong"}}),
    ]
    trace.write_text("\n".join(lines) + "\n")
    found = sorted((f["line"], f["ruleId"], f["severity"]) for f in findings_of(str(trace)))
    assert found == [
        (2, "trace-gap", "warning"),
        (3, "trace-record", "error"),
        (5, "no-reply", "warning"),
        (6, "unmatched-reply", "error"),
    ]
    assert check_trace(str(trace)).returncode == 1
    assert check_trace("--fail-on", "never", str(trace)).returncode == 0
    # warnings alone pass under --fail-on error
    trace.write_text("\n".join(lines[:2] + lines[3:5]) + "\n")
    assert check_trace("--fail-on", "error", str(trace)).returncode == 0
    assert check_trace(str(trace)).returncode == 1


def test_an_mcp_trace_checks_each_tool_call_against_the_tools_schemas(tmp_path):
    trace = str(tmp_path / "tools.trace")
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    calls = [
        hello,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_feed", "arguments": {"limit": 2, "cursor": None}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "inbox_counts", "arguments": {}}},
    ]
    done = run_cli("mcp", "--store", ":memory:", "--sample-feed", "--trace", trace, stdin=b"".join(dumps(c) + b"\n" for c in calls))
    assert done.returncode == 0, done.stderr.decode()
    lines = records(trace)
    assert check_trace(trace).returncode == 0, check_trace(trace).stdout.decode()
    # The host's arguments of the wrong type, a tool that does not exist, and a reply whose
    # structuredContent breaks the tool's outputSchema: each found at its line and path.
    [sent] = [i for i, line in enumerate(lines) if line["dir"] == "in" and line["frame"].get("id") == 2]
    lines[sent]["frame"]["params"]["arguments"]["limit"] = "two"
    [reply] = [i for i, line in enumerate(lines) if line["dir"] == "out" and line["frame"].get("id") == 2]
    lines[reply]["frame"]["result"]["structuredContent"]["items"] = "none"
    lines.append({"t": lines[-1]["t"], "dir": "in", "frame": {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "no_such_tool"}}})
    write_records(trace, lines)
    found = {(f["line"], f["ruleId"]): f for f in findings_of(trace)}
    assert "params.arguments.limit: list_feed: expected integer" in found[(sent + 1, "params")]["message"]
    assert found[(sent + 1, "params")]["pointer"].endswith("/params/arguments/limit")
    assert found[(reply + 1, "result")]["pointer"].endswith("/structuredContent/items")
    assert (len(lines), "unknown-tool") in found
    assert check_trace(trace).returncode == 1


# -- a replay touches nothing: sandboxed ------------------------------------------------------------

REPLAYER_TOKEN = "replayer-token-3c8e51"


def host_frames(path: str, frames: list[dict]) -> None:
    """A trace of frames a host sent (and nothing recorded back): what an attacker hands over."""
    write_records(path, [{"t": 1764493500000 + i, "dir": "in", "frame": frame} for i, frame in enumerate(frames)])


def attacking_trace(path: str, their_url: str) -> None:
    backend = {"baseUrl": their_url, "application": "APP-12345"}
    host_frames(path, [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"backend": backend}},
        {"jsonrpc": "2.0", "id": 2, "method": "config.set", "params": {"backend": backend}},
        {"jsonrpc": "2.0", "id": 3, "method": "feed.sync", "params": {"force": True}},
        {"jsonrpc": "2.0", "id": 4, "method": "feed.markAllRead"},
        {"jsonrpc": "2.0", "id": 5, "method": "feed.sync", "params": {"force": True}},
    ])


def replayer_environment(tmp_path, own_url: str, proxy_url: str) -> dict:
    """Every INBOX_RPC_* variable set, as on the machine of someone with an account of their own."""
    ca_file = tmp_path / "ca.pem"
    ca_file.write_text("not a certificate\n")
    return dict(
        os.environ, INBOX_RPC_API_TOKEN=REPLAYER_TOKEN, INBOX_RPC_APPLICATION="APP-12345", INBOX_RPC_USER_ID="user-1",
        INBOX_RPC_BACKEND_URL=own_url, INBOX_RPC_HWID="replayer-hwid", INBOX_RPC_LOG_LEVEL="debug",
        INBOX_RPC_BACKEND_CA_FILE=str(ca_file), INBOX_RPC_FLAGS=f"--backend-url {own_url}",
        INBOX_RPC_LIBCURL="libcurl.so.4",
        https_proxy=proxy_url, http_proxy=proxy_url, all_proxy=proxy_url, HTTPS_PROXY=proxy_url,
    )


def inet_connects(strace_log: str) -> list[str]:
    with open(strace_log, encoding="utf-8", errors="replace") as f:
        return [line for line in f if "connect(" in line and ("AF_INET" in line or "AF_INET6" in line)]


def test_a_replay_connects_nowhere_and_sends_no_token(tmp_path):
    from fake_backend import FakeBackend

    theirs, mine, proxy = FakeBackend(token=None), FakeBackend(token=REPLAYER_TOKEN), FakeBackend(token=None)
    try:
        mine.add_message("m1")
        trace = str(tmp_path / "evil.trace")
        # https, as an attacker's host would be: a config.set may name one
        attacking_trace(trace, f"https://127.0.0.1:{theirs.port}/json/1.3/")
        env = replayer_environment(tmp_path, mine.url, f"http://127.0.0.1:{proxy.port}")
        log = str(tmp_path / "strace.log")
        done = subprocess.run(
            ["strace", "-f", "-e", "trace=connect", "-o", log, BIN, "replay", trace],
            capture_output=True, env=env, timeout=120,
        )
        assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
        assert (theirs.connections, mine.connections, proxy.connections) == (0, 0, 0)
        assert mine.requests == [] and theirs.requests == []
        assert inet_connects(log) == []
    finally:
        for backend in (theirs, mine, proxy):
            backend.close()


def test_a_replayed_sync_reaches_only_the_listener_named_and_without_a_token(tmp_path):
    from fake_backend import FakeBackend

    theirs, listener = FakeBackend(token=None), FakeBackend(token=None)
    mine = FakeBackend(token=REPLAYER_TOKEN)
    try:
        trace = str(tmp_path / "evil.trace")
        attacking_trace(trace, f"https://127.0.0.1:{theirs.port}/json/1.3/")
        env = replayer_environment(tmp_path, mine.url, f"http://127.0.0.1:{mine.port}")
        done = subprocess.run(
            [BIN, "replay", trace, "--backend-listener", listener.url], capture_output=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
        assert listener.calls("getInboxMessages"), "the listener named is where the sync goes"
        for request in listener.requests:
            assert "authorization" not in request.headers
            assert REPLAYER_TOKEN.encode() not in request.raw
        assert (theirs.connections, mine.connections) == (0, 0)
    finally:
        for backend in (theirs, listener, mine):
            backend.close()


@pytest.mark.parametrize("flag", ["--token-file", "--application", "--backend-url", "--user-id", "--hwid", "--backend-ca-file"])
def test_replay_refuses_credentials_and_backend_settings(tmp_path, flag):
    trace = str(tmp_path / "t.trace")
    host_frames(trace, [{"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"}])
    done = run_cli("replay", trace, f"{flag}=secret-value-77", timeout=30)
    assert done.returncode == 2 and flag.encode() in done.stderr and b"secret-value-77" not in done.stderr


@pytest.mark.parametrize("url", ["https://127.0.0.1:9/", "http://192.0.2.1:9/", "not a url"])
def test_the_replay_listener_must_be_loopback_http(tmp_path, url):
    trace = str(tmp_path / "t.trace")
    host_frames(trace, [{"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"}])
    assert run_cli("replay", trace, "--backend-listener", url, timeout=30).returncode == 2


def test_a_replay_serves_a_copy_of_the_store_it_is_given(tmp_path):
    store = str(tmp_path / "inbox.sqlite")
    trace = str(tmp_path / "s.trace")
    assert run_cli("--store", store, "--sample-feed", "--trace", trace, stdin=dumps({"jsonrpc": "2.0", "id": 1, "method": "feed.markAllRead"}) + b"\n").returncode == 0
    # back to unread, then a replay of the markAllRead on it: the same reply, and the store untouched
    fresh = str(tmp_path / "fresh.sqlite")
    assert run_cli("--store", fresh, "--sample-feed", stdin=b"").returncode == 0
    before = open(fresh, "rb").read()
    done = run_cli("replay", trace, "--store", fresh, timeout=60)
    assert done.returncode == 0, done.stdout.decode()
    assert open(fresh, "rb").read() == before
    assert b"1 replies compared" in done.stdout


# -- redaction decided on the decoded value ---------------------------------------------------------

# A token with a slash and a quote: JSON may carry it as `\/`, `\"` or `\u00XX` escapes.
ESCAPABLE = 'ab/cd+ef01="zq'
HOST_SECRET = "host/se\"cret-91"


def escaped_forms(secret: str) -> list[bytes]:
    """The ways a JSON text can spell `secret` inside a string, and the secret itself."""
    plain = json.dumps(secret)[1:-1]
    return [
        secret.encode(),
        plain.encode(),  # \"
        plain.replace("/", "\\/").encode(),  # \/
        "".join(f"\\u{ord(c):04x}" for c in secret).encode(),  # every character as \u00XX
        "".join(f"\\u{ord(c):04X}" for c in secret).encode(),
    ]


def strings_in(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in strings_in(item)]
    if isinstance(value, dict):
        return [s for key, item in value.items() for s in [key, *strings_in(item)]]
    return []


def test_a_secret_is_redacted_whatever_escapes_it_arrives_in(tmp_path):
    trace = str(tmp_path / "escaped.trace")
    env = dict(os.environ, INBOX_RPC_API_TOKEN=ESCAPABLE)
    lines = []
    for form in escaped_forms(ESCAPABLE)[1:]:  # the raw form, with its quote, is not JSON
        lines.append(b'{"jsonrpc":"2.0","id":1,"method":"message.get","params":{"id":"' + form + b'"}}')
    for form in escaped_forms(HOST_SECRET)[1:]:
        lines.append(b'{"jsonrpc":"2.0","id":2,"method":"config.set","params":{"backend":{"token":"' + form + b'"}}}')
    # echoed after it was sent as a secret param
    lines.append(b'{"jsonrpc":"2.0","id":3,"method":"message.get","params":{"id":"' + escaped_forms(HOST_SECRET)[3] + b'"}}')
    # a secret param in frames the parser refuses: a duplicate key, a frame cut short
    lines.append(b'{"jsonrpc":"2.0","id":4,"method":"config.set","params":{"backend":{"token":"dup-9f1e77","token":"dup-9f1e77"}}}')
    lines.append(b'{"jsonrpc":"2.0","id":5,"method":"config.set","params":{"backend":{"token":"cut-5b02aa')
    # the header, with a quote in its value
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 6, "method": "message.resolve", "params": {"payload": {"title": 'Authorization: Token a"b-after-quote'}}}).encode())
    done = subprocess.run([BIN, "--store", ":memory:", "--trace", trace], input=b"\n".join(lines) + b"\n", capture_output=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert escaped_forms(ESCAPABLE)[1] in done.stdout  # the replies echo it: the trace is what must not
    raw = open(trace, "rb").read()
    for secret in (ESCAPABLE, HOST_SECRET):
        for form in escaped_forms(secret):
            assert form not in raw, form
    for secret in ("dup-9f1e77", "cut-5b02aa", "b-after-quote"):
        assert secret.encode() not in raw, secret
    decoded = [text for record in records(trace) for text in strings_in(record)]
    for secret in (ESCAPABLE, HOST_SECRET, "dup-9f1e77", "cut-5b02aa", "b-after-quote"):
        assert not any(secret in text for text in decoded), secret
    digests = [record["unparsed"] for record in records(trace) if "unparsed" in record]
    assert [d["bytes"] for d in digests] == [len(lines[-3]), len(lines[-2])]
    assert [d["sha256"] for d in digests] == [hashlib.sha256(lines[-3]).hexdigest(), hashlib.sha256(lines[-2]).hexdigest()]
    assert all(len(d["prefix"]) < 4 * 256 and '"method":"config.set"' in d["prefix"] for d in digests)


# -- odd files: refused, never read without end ------------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "link-to-dev-zero", "directory"])
@pytest.mark.parametrize("command", ["check-trace", "replay"])
def test_a_path_that_is_not_a_regular_file_is_refused(tmp_path, kind, command):
    path = str(tmp_path / "odd.trace")
    if kind == "fifo":
        os.mkfifo(path)  # nobody ever writes it
    elif kind == "dev-zero":
        path = "/dev/zero"
    elif kind == "link-to-dev-zero":
        os.symlink("/dev/zero", path)
    else:
        os.mkdir(path)
    # a generous deadline that only catches a hang: on main a FIFO blocked for ever and /dev/zero grew to GiBs
    done = subprocess.run([BIN, command, path], capture_output=True, timeout=60)
    assert done.returncode == 3, done.stderr.decode()
    assert b"is not a regular file" in done.stderr
