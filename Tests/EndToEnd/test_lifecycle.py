"""Lifecycle (EOF, shutdown/exit, CLI flags, closed stdout), discovery and cancellation."""

import subprocess
import time

import pytest

from conftest import (
    BIN,
    assert_error,
    assert_result,
    frame,
    run_cli,
)


def ping_msg(id):
    return {"jsonrpc": "2.0", "id": id, "method": "rpc.ping"}


# ---------------------------------------------------------------- EOF


def left_without_cancelling(server) -> bool:
    """The server left at end of input with nothing to cancel: it did not wait out the drain."""
    return b"cancelling" not in server.stderr_bytes()


def test_eof_exits_zero_with_nothing_to_cancel(server):
    server.ping()
    server.close_stdin()
    rc, _ = server.wait_exit()
    assert rc == 0, f"exit code {rc} after EOF; stderr: {server.stderr_tail()!r}"
    assert left_without_cancelling(server)
    assert server.wait_stdout_eof(2)
    assert server.pending_stdout() == b"", "stray bytes on stdout after the last reply"


def test_eof_without_any_input(spawn):
    server = spawn()
    time.sleep(0.1)
    server.close_stdin()
    rc, _ = server.wait_exit()
    assert rc == 0 and left_without_cancelling(server)
    assert bytes(server.stdout_all) == b""


def test_eof_flushes_replies_to_everything_sent(server, framing):
    n = 100
    server.write(b"".join(frame(ping_msg(i), framing) for i in range(n)))
    server.close_stdin()
    got = set()
    for _ in range(n):
        resp = server.recv()
        assert_result(resp, resp["id"], "pong")
        got.add(resp["id"])
    assert got == set(range(n))
    rc, _ = server.wait_exit(5)
    assert rc == 0


def test_eof_with_sleep_in_flight_still_replies(server, framing):
    server.send({"jsonrpc": "2.0", "id": 1, "method": "test.sleep", "params": {"ms": 300}})
    server.close_stdin()
    resp = server.recv()
    rc, _ = server.wait_exit()
    assert rc == 0
    # Finished (0.3 s is within the 1.5 s drain), or cancelled when a loaded machine starved it: answered.
    assert resp == {"jsonrpc": "2.0", "id": 1, "result": {"slept": 300}} or (
        resp["error"]["code"] == -32800 and not left_without_cancelling(server)), resp


def test_final_ndjson_line_without_newline_is_processed_at_eof(spawn):
    # printf '%s' '{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}' | inbox-rpc
    server = spawn(framing="ndjson")
    server.write(b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}')
    server.close_stdin()
    assert_result(server.recv(), 1, "pong")
    rc, _ = server.wait_exit(5)
    assert rc == 0


def test_eof_in_the_middle_of_an_lsp_frame(spawn):
    server = spawn(framing="lsp")
    server.send(ping_msg(1))
    assert_result(server.recv(), 1, "pong")
    server.write(b"Content-Length: 100\r\n\r\n{\"jsonrpc\":")
    server.close_stdin()
    rc, _ = server.wait_exit()
    assert rc == 0 and left_without_cancelling(server)


def test_shell_pipeline_one_liner():
    p = subprocess.run(
        [BIN, "--store", ":memory:"],
        input=b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}\n',
        capture_output=True,
        timeout=10,
    )
    assert p.returncode == 0, p
    assert p.stdout == b'{"jsonrpc":"2.0","id":1,"result":"pong"}\n' or (
        p.stdout.endswith(b"\n") and p.stdout.count(b"\n") == 1 and b'"pong"' in p.stdout
    ), p.stdout


# ---------------------------------------------------------------- shutdown / exit


def test_shutdown_then_exit(server):
    resp = server.call("shutdown")
    assert_result(resp, resp["id"], None)
    server.notify("exit")
    rc, _ = server.wait_exit()
    assert rc == 0 and left_without_cancelling(server)


def test_exit_without_shutdown_exits_1(server):
    server.ping()
    server.notify("exit")
    rc, _ = server.wait_exit()
    assert rc == 1 and left_without_cancelling(server)


def test_requests_after_shutdown_are_invalid(server):
    resp = server.call("shutdown", id="sd")
    assert_result(resp, "sd", None)
    assert_error(server.call("rpc.ping", id=5), 5, -32600)
    assert_error(server.call("subtract", [3, 1], id="x"), "x", -32600)
    server.notify("notify_hello", [1])  # notifications: still no reply
    server.notify("exit")
    rc, _ = server.wait_exit(5)
    assert rc == 0
    assert server.wait_stdout_eof(2)
    assert server.pending_stdout() == b"", "nothing may follow the last reply"


def test_eof_after_shutdown_exits_zero(server):
    assert_result(server.call("shutdown", id=1), 1, None)
    server.close_stdin()
    rc, _ = server.wait_exit()
    assert rc == 0 and left_without_cancelling(server)


# ---------------------------------------------------------------- initialize / discover


def test_initialize(server):
    resp = server.call(
        "initialize",
        {
            "client": {"name": "e2e", "version": "1.0"},
            "platform": "ios",
            "capabilities": {"walletPasses": True},
            "attributes": {},
        },
    )
    result = assert_result(resp, resp["id"])
    assert isinstance(result, dict), resp
    assert result["server"]["name"] == "inbox-rpc", resp
    assert isinstance(result["server"]["version"], str) and result["server"]["version"], resp
    assert "protocolVersion" in result, resp
    assert isinstance(result["methods"], list) and all(isinstance(m, str) for m in result["methods"]), resp
    assert {"rpc.ping", "initialize", "shutdown", "rpc.discover"} <= set(result["methods"]), result["methods"]
    assert "foobar" not in result["methods"]
    assert isinstance(result["attributes"], dict), resp
    server.ping()


def test_initialize_without_params(server):
    resp = server.call("initialize")
    result = assert_result(resp, resp["id"])
    assert result["server"]["name"] == "inbox-rpc"


def test_version_flag_matches_initialize(spawn):
    server = spawn()
    resp = server.call("initialize", {})
    version = resp["result"]["server"]["version"]
    p = run_cli("--version")
    assert p.returncode == 0
    assert version in p.stdout.decode(), (version, p.stdout)


def test_rpc_discover(server):
    resp = server.call("rpc.discover")
    doc = assert_result(resp, resp["id"])
    assert isinstance(doc, dict), resp
    assert isinstance(doc.get("openrpc"), str) and doc["openrpc"], doc.get("openrpc")
    assert isinstance(doc.get("methods"), list), doc.keys()
    for m in doc["methods"]:
        assert isinstance(m, dict) and isinstance(m.get("name"), str), m


def test_rpc_discover_documents_every_served_method(spawn):
    # without --test-methods: the conformance helpers need no documentation
    server = spawn(test_methods=False)
    doc = server.call("rpc.discover")["result"]
    info = doc.get("info")
    assert isinstance(info, dict) and isinstance(info.get("title"), str) and isinstance(info.get("version"), str), info
    names = [m["name"] for m in doc["methods"]]
    assert len(names) == len(set(names)), "OpenRPC method names must be unique"
    for m in doc["methods"]:
        assert isinstance(m.get("params", []), list), m["name"]
    served = server.call("initialize")["result"]["methods"]
    missing = sorted(set(served) - set(names))
    assert not missing, f"served but not documented in rpc.discover: {missing}"
    assert "rpc.discover" in names and "rpc.ping" in names


def test_rpc_discover_with_empty_positional_params(server):
    # OpenRPC service discovery: params is []
    resp = server.call("rpc.discover", [])
    assert isinstance(assert_result(resp, resp["id"]).get("methods"), list)


# ---------------------------------------------------------------- CLI


def test_help_flag():
    p = run_cli("--help")
    assert p.returncode == 0, p
    out = p.stdout.decode()
    assert out.strip(), "--help must print to stdout"
    for flag in ("--framing", "--max-frame-bytes", "--max-batch", "--max-depth", "--log-level", "--store"):
        assert flag in out, f"--help does not mention {flag}"


def test_version_flag():
    p = run_cli("--version")
    assert p.returncode == 0, p
    out = p.stdout.decode().strip()
    assert out and any(c.isdigit() for c in out), f"--version printed {out!r}"


def test_unknown_flag_exits_2():
    p = run_cli("--no-such-flag", "--store", ":memory:")
    assert p.returncode == 2, p
    assert p.stderr.strip(), "a usage message belongs on stderr"
    assert p.stdout == b"", "stdout is for protocol frames only"


@pytest.mark.parametrize(
    "args",
    [["--framing", "xml"], ["--max-batch", "abc"], ["--log-level", "loud"], ["--max-frame-bytes"]],
    ids=["framing", "max-batch", "log-level", "missing-value"],
)
def test_bad_flag_values_fail(args):
    p = run_cli(*args, "--store", ":memory:")
    assert p.returncode != 0, p
    assert p.stderr.strip(), p
    assert p.stdout == b"", p


# ---------------------------------------------------------------- closed stdout


def test_closed_stdout_ends_quietly(spawn):
    server = spawn(read_stdout=False)
    server.proc.stdout.close()  # the host went away on our side of stdout
    try:
        for i in range(50):
            server.send(ping_msg(i))
        server.send({"jsonrpc": "2.0", "id": "big", "method": "test.echo", "params": {"value": "x" * 200_000}})
    except BrokenPipeError:
        pass  # the server may already have gone: fine
    server.close_stdin()
    rc, _ = server.wait_exit(5)
    assert rc >= 0, f"server died from signal {-rc}"


def test_closed_stdout_ends_process_without_eof(spawn):
    # contract: a closed stdout ends the process quietly -- even while stdin stays open
    server = spawn(read_stdout=False)
    server.proc.stdout.close()
    try:
        server.send(ping_msg(1))
        server.send({"jsonrpc": "2.0", "id": 2, "method": "test.echo", "params": {"value": "x" * 100_000}})
    except BrokenPipeError:
        pass
    rc, _ = server.wait_exit(3)
    assert rc >= 0, f"server died from signal {-rc}"


# ---------------------------------------------------------------- cancellation


def test_sleep_returns_normally(server):
    resp = server.call("test.sleep", {"ms": 50})
    assert_result(resp, resp["id"], {"slept": 50})


def test_cancel_in_flight_request(server, framing):
    # A sleep far longer than any hang deadline: its answer can only come from the cancel.
    server.send({"jsonrpc": "2.0", "id": 7, "method": "test.sleep", "params": {"ms": 600_000}})
    # the reader keeps reading while the sleep runs: the ping is answered first
    server.send(ping_msg(8))
    assert_result(server.recv(), 8, "pong")
    server.notify("$/cancelRequest", {"id": 7})
    resp = server.recv()
    assert_error(resp, 7, -32800)
    server.expect_nothing()


def test_cancel_string_id(server):
    server.send({"jsonrpc": "2.0", "id": "job-1", "method": "test.sleep", "params": {"ms": 5000}})
    time.sleep(0.1)
    server.notify("$/cancelRequest", {"id": "job-1"})
    assert_error(server.recv(3), "job-1", -32800)
    server.expect_nothing()


def test_cancel_matches_id_type(server):
    # "7" is not 7: cancelling the string must leave the integer request alone
    server.send({"jsonrpc": "2.0", "id": 7, "method": "test.sleep", "params": {"ms": 400}})
    time.sleep(0.05)
    server.notify("$/cancelRequest", {"id": "7"})
    assert_result(server.recv(3), 7, {"slept": 400})
    server.expect_nothing()


def test_cancel_unknown_id_is_silent(server):
    server.notify("$/cancelRequest", {"id": 12345})
    server.notify("$/cancelRequest", {"id": "nope"})
    # malformed cancels are notifications too: never answered
    server.notify("$/cancelRequest", {"id": []})
    server.notify("$/cancelRequest", {})
    server.notify("$/cancelRequest")
    server.notify("$/cancelRequest", [7])
    server.expect_nothing()


def test_cancel_after_completion_is_silent(server):
    assert_result(server.call("test.sleep", {"ms": 10}, id=9), 9, {"slept": 10})
    server.notify("$/cancelRequest", {"id": 9})
    server.expect_nothing()


def test_cancel_one_of_several(server):
    server.send({"jsonrpc": "2.0", "id": "a", "method": "test.sleep", "params": {"ms": 5000}})
    server.send({"jsonrpc": "2.0", "id": "b", "method": "test.sleep", "params": {"ms": 300}})
    time.sleep(0.05)
    server.notify("$/cancelRequest", {"id": "a"})
    replies = {}
    for _ in range(2):
        r = server.recv(3)
        replies[r["id"]] = r
    assert_error(replies["a"], "a", -32800)
    assert_result(replies["b"], "b", {"slept": 300})


def test_cancel_inside_batch(server):
    # The sleep outlasts any hang deadline: the batch can only be answered because of the cancel.
    server.send(
        [
            {"jsonrpc": "2.0", "id": "slow", "method": "test.sleep", "params": {"ms": 600_000}},
            {"jsonrpc": "2.0", "id": "fast", "method": "rpc.ping"},
        ]
    )
    time.sleep(0.1)
    server.notify("$/cancelRequest", {"id": "slow"})
    resp = server.recv()
    assert isinstance(resp, list) and len(resp) == 2, resp
    by_id = {r["id"]: r for r in resp}
    assert_error(by_id["slow"], "slow", -32800)
    assert_result(by_id["fast"], "fast", "pong")


def test_cancel_pending_request_behind_busy_workers(server):
    # contract: a *pending* (queued, not yet started) request is cancelled too,
    # promptly, even while every worker is busy with other long requests
    # The busy ones sleep far past any hang deadline, so the queued one's answer comes before
    # theirs only if the cancel answered it while it waited for a worker.
    n = 16
    for i in range(n):
        server.send({"jsonrpc": "2.0", "id": i, "method": "test.sleep", "params": {"ms": 600_000}})
    server.send({"jsonrpc": "2.0", "id": "queued", "method": "test.sleep", "params": {"ms": 600_000}})
    server.notify("$/cancelRequest", {"id": "queued"})
    resp = server.recv()
    assert_error(resp, "queued", -32800)
    for i in range(n):
        server.notify("$/cancelRequest", {"id": i})
    ids = set()
    while len(ids) < n:
        r = server.recv()
        assert_error(r, r.get("id"), -32800)
        ids.add(r["id"])


def test_eof_while_long_sleep_is_cancelled_or_finished(server):
    # Closing stdin mid-request must still produce exactly one reply for it
    # before the process exits (result or -32800), never silence.
    server.send({"jsonrpc": "2.0", "id": 1, "method": "test.sleep", "params": {"ms": 1000}})
    time.sleep(0.05)
    server.close_stdin()
    resp = server.recv(5)
    assert resp["id"] == 1, resp
    assert resp.get("result") == {"slept": 1000} or resp.get("error", {}).get("code") == -32800, resp
    rc, _ = server.wait_exit(5)
    assert rc == 0


def test_eof_with_endless_request_still_exits_in_time(server):
    # work that cannot finish within the exit budget is cancelled (-32800), and
    # the process still exits 0 within about 2 s of EOF
    # A sleep longer than any hang deadline: the exit can only come from the cancel.
    server.send({"jsonrpc": "2.0", "id": 1, "method": "test.sleep", "params": {"ms": 600_000}})
    server.close_stdin()
    assert_error(server.recv(), 1, -32800)
    rc, _ = server.wait_exit()
    assert rc == 0 and not left_without_cancelling(server)


def test_a_response_object_from_the_host_is_ignored(spawn):
    # Answering it could make two peers answer each other forever.
    server = spawn(framing="ndjson")
    server.send({"jsonrpc": "2.0", "id": 5, "result": "pong"})
    server.send({"jsonrpc": "2.0", "id": 6, "error": {"code": -32601, "message": "x"}})
    server.expect_nothing()


def test_an_lsp_frame_cut_short_at_eof_is_reported(spawn):
    server = spawn(framing="lsp")
    server.write(b"Content-Length: 100\r\n\r\n{\"jsonrpc\"")
    server.close_stdin()
    assert_error(server.recv(), None, -32700)
    assert server.wait_exit(5)[0] == 0
