"""Framing: chunking, BOM, limits, lenient LSP headers, bad bytes, deep nesting."""

import json
import random
import time

import pytest

from conftest import (
    BOM,
    assert_batch,
    assert_error,
    assert_result,
    dumps,
    frame,
    loads,
)


def ping_msg(id):
    return {"jsonrpc": "2.0", "id": id, "method": "rpc.ping"}


# ---------------------------------------------------------------- chunking


def test_frame_written_byte_by_byte(server, framing):
    data = frame(ping_msg(1), framing) + frame({"jsonrpc": "2.0", "id": 2, "method": "subtract", "params": [9, 4]}, framing)
    server.write_chunks(data, [1] * len(data), delay=0.001)
    assert_result(server.recv(), 1, "pong")
    assert_result(server.recv(), 2, 5)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_frames_in_random_chunks(server, framing, seed):
    rng = random.Random(seed)
    n = 40
    data = b"".join(
        frame({"jsonrpc": "2.0", "id": i, "method": "test.echo", "params": {"value": "é" * rng.randrange(0, 300)}}, framing)
        for i in range(n)
    )
    sizes = [rng.randrange(1, 97) for _ in range(len(data))]
    server.write_chunks(data, sizes, delay=0.0005 if seed == 1 else 0.0)
    seen = {}
    for _ in range(n):
        resp = server.recv()
        seen[resp["id"]] = resp
    assert sorted(seen) == list(range(n))
    for i, resp in seen.items():
        assert "result" in resp and set(resp["result"]) <= {"é"}, resp
    server.expect_nothing()


def test_many_frames_in_one_write(server, framing):
    n = 200
    server.write(b"".join(frame(ping_msg(i), framing) for i in range(n)))
    ids = []
    for _ in range(n):
        resp = server.recv()
        assert_result(resp, resp["id"], "pong")
        ids.append(resp["id"])
    assert sorted(ids) == list(range(n))
    server.expect_nothing()


def test_header_split_from_body_lsp(spawn):
    server = spawn(framing="lsp")
    body = dumps(ping_msg(1))
    server.write(b"Content-Len")
    time.sleep(0.05)
    server.write(b"gth: %d\r" % len(body))
    time.sleep(0.05)
    server.write(b"\n\r")
    time.sleep(0.05)
    server.write(b"\n" + body[:5])
    time.sleep(0.05)
    server.write(body[5:])
    assert_result(server.recv(), 1, "pong")


def test_concurrent_large_replies_do_not_interleave(server, framing):
    # handlers that run off the reader thread finish in any order; every reply
    # must still be written whole
    msgs = []
    for i in range(30):
        msgs.append({"jsonrpc": "2.0", "id": f"s{i}", "method": "test.sleep", "params": {"ms": 5 + i % 7}})
        msgs.append({"jsonrpc": "2.0", "id": f"e{i}", "method": "test.echo", "params": {"value": chr(0x4E00 + i) * 60_000}})
    server.write(b"".join(frame(m, framing) for m in msgs))
    got = {}
    for _ in range(len(msgs)):
        resp = server.recv(10)
        got[resp["id"]] = resp
    for i in range(30):
        assert_result(got[f"s{i}"], f"s{i}", {"slept": 5 + i % 7})
        assert_result(got[f"e{i}"], f"e{i}", chr(0x4E00 + i) * 60_000)
    server.expect_nothing()


def test_batch_waits_for_slow_entries(server, framing):
    server.send(
        [
            {"jsonrpc": "2.0", "id": 1, "method": "test.sleep", "params": {"ms": 200}},
            {"jsonrpc": "2.0", "id": 2, "method": "rpc.ping"},
            {"jsonrpc": "2.0", "method": "notify_hello"},
        ]
    )
    assert_batch(server.recv(), [{"id": 1, "result": {"slept": 200}}, {"id": 2, "result": "pong"}])
    server.expect_nothing()


# ---------------------------------------------------------------- BOM / blank / line endings


def test_utf8_bom_before_first_frame(spawn, framing):
    server = spawn(framing=framing)
    server.write(BOM + frame(ping_msg("bom"), framing))
    assert_result(server.recv(), "bom", "pong")
    server.expect_nothing()


def test_blank_lines_before_first_ndjson_frame(spawn):
    server = spawn(framing="ndjson")
    server.write(b"\n\r\n  \n" + frame(ping_msg(1), "ndjson"))
    assert_result(server.recv(), 1, "pong")
    server.expect_nothing()


def test_blank_lines_between_ndjson_frames_are_ignored(spawn):
    server = spawn(framing="ndjson")
    server.write(frame(ping_msg(1), "ndjson") + b"\n\n   \n" + frame(ping_msg(2), "ndjson"))
    assert_result(server.recv(), 1, "pong")
    assert_result(server.recv(), 2, "pong")
    server.expect_nothing()


def test_crlf_terminated_ndjson(spawn):
    server = spawn(framing="ndjson")
    server.write(dumps(ping_msg(1)) + b"\r\n" + dumps(ping_msg(2)) + b"\r\n")
    assert_result(server.recv(), 1, "pong")
    assert_result(server.recv(), 2, "pong")


def test_forced_ndjson_does_not_detect_lsp(spawn):
    # With --framing ndjson a Content-Length header line is just a bad line.
    server = spawn("--framing", "ndjson", framing="ndjson")
    body = dumps(ping_msg(1))
    server.write(b"Content-Length: %d\n" % len(body) + b"\n" + body + b"\n")
    assert_error(server.recv(), None, -32700)
    assert_result(server.recv(), 1, "pong")
    server.expect_nothing()


def test_forced_lsp(spawn):
    server = spawn("--framing", "lsp", framing="lsp")
    server.send(ping_msg(1))
    assert_result(server.recv(), 1, "pong")


def test_lsp_body_may_contain_newlines_and_header_text(spawn):
    server = spawn(framing="lsp")
    body = b'{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "test.echo",\n  "params": {"value": "Content-Length: 5\\r\\n\\r\\n"}\n}\n'
    server.write(frame(body, "lsp") + frame(ping_msg(2), "lsp"))
    assert_result(server.recv(), 1, "Content-Length: 5\r\n\r\n")
    assert_result(server.recv(), 2, "pong")


# ---------------------------------------------------------------- lenient LSP headers


LENIENT_HEADERS = {
    "lowercase": b"content-length: %d\r\n\r\n",
    "uppercase": b"CONTENT-LENGTH: %d\r\n\r\n",
    "content-type-first": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %d\r\n\r\n",
    "content-type-after-utf8": b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf8\r\n\r\n",
    "bare-lf": b"Content-Length: %d\n\n",
    "bare-lf-with-type": b"Content-Length: %d\nContent-Type: application/json\n\n",
    "other-order-extra-header": b"Content-Type: application/json\r\nX-Custom: 1\r\nContent-Length: %d\r\n\r\n",
    # under auto-detection only a first byte C/c selects LSP, so this one runs with --framing lsp only
    "unknown-header-first": b"X-Custom: 1\r\nContent-Length: %d\r\n\r\n",
}


LENIENT_CASES = [
    pytest.param(header, mode, id=f"{name}-{mode}")
    for name, header in LENIENT_HEADERS.items()
    for mode in ("auto", "forced")
    # under auto-detection only a first byte C/c selects LSP (by contract)
    if mode == "forced" or header[:1] in b"Cc"
]


@pytest.mark.parametrize("header,mode", LENIENT_CASES)
def test_lenient_lsp_headers(spawn, header, mode):
    server = spawn(*(("--framing", "lsp") if mode == "forced" else ()), framing="lsp")
    body = dumps({"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"value": "héllo"}})
    body2 = dumps(ping_msg(2))
    # twice, so both the detection and the steady-state parser see the variant
    server.write(header % len(body) + body + header % len(body2) + body2)
    assert_result(server.recv(), 1, "héllo")
    assert_result(server.recv(), 2, "pong")
    server.expect_nothing()


@pytest.mark.parametrize(
    "bad_header",
    [
        b"Content-Type: application/json\r\n\r\n",
        b"Content-Length: twelve\r\n\r\n",
        b"Content-Length: -5\r\n\r\n",
        b"Content-Length 12\r\n\r\n",
    ],
    ids=["missing-length", "non-numeric", "negative", "no-colon"],
)
def test_bad_lsp_header_then_valid_frame(spawn, bad_header):
    # The body of a frame with an unusable header has no known length; it ends
    # in a line break here, so resynchronising at the next header line is
    # unambiguous.
    server = spawn(framing="lsp")
    server.send(ping_msg(1))
    assert_result(server.recv(), 1, "pong")
    server.write(
        bad_header + b'{"jsonrpc":"2.0","id":2,"method":"rpc.ping"}\r\n' + frame(ping_msg(3), "lsp") + frame(ping_msg(4), "lsp")
    )
    resp = server.recv()
    assert_error(resp, None, (-32700, -32600))
    assert_result(server.recv(), 3, "pong")
    assert_result(server.recv(), 4, "pong")
    server.expect_nothing()


def _replies_after_bad_header(spawn, split: bool):
    server = spawn(framing="lsp")
    first = frame(ping_msg(1), "lsp") + b"Content-Length: twelve\r\n\r\n" + dumps(ping_msg(2))
    rest = frame(ping_msg(3), "lsp") + frame(ping_msg(4), "lsp") + frame(ping_msg(5), "lsp")
    if split:
        server.write(first)
        time.sleep(0.3)
        server.write(rest)
    else:
        server.write(first + rest)
    time.sleep(0.5)
    server.close_stdin()
    server.wait_exit(5)
    assert server.wait_stdout_eof(2)
    ids = []
    while server.pending_stdout():
        ids.append(loads(server.recv_raw(1)).get("id"))
    return ids


def test_bad_lsp_header_recovery_does_not_depend_on_chunking(spawn):
    # The same byte stream must give the same replies however the pipe
    # delivers it (a bad header followed, in the same read, by good frames).
    one_write = _replies_after_bad_header(spawn, split=False)
    two_writes = _replies_after_bad_header(spawn, split=True)
    assert one_write == two_writes, f"one write -> reply ids {one_write}; two writes -> {two_writes}"


def test_lsp_reply_header_is_exact(spawn):
    server = spawn(framing="lsp")
    server.send({"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"value": "日本"}})
    raw = server.recv_raw()
    all_out = bytes(server.stdout_all)
    assert all_out.startswith(b"Content-Length: %d\r\n\r\n" % len(raw)), all_out[:80]
    assert loads(raw)["result"] == "日本"


# ---------------------------------------------------------------- size limits


def test_oversized_ndjson_frame_then_valid(spawn):
    server = spawn("--max-frame-bytes", "1024", framing="ndjson")
    big = dumps({"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"value": "x" * 5000}})
    server.write(big + b"\n" + frame(ping_msg(2), "ndjson"))
    check_oversize_error(server.recv())
    assert_result(server.recv(), 2, "pong")
    # a frame under the limit still works
    ok = {"jsonrpc": "2.0", "id": 3, "method": "test.echo", "params": {"value": "y" * 900}}
    assert len(dumps(ok)) < 1024
    server.send(ok)
    assert_result(server.recv(), 3, "y" * 900)
    server.expect_nothing()


def test_oversized_ndjson_frame_in_chunks_without_newline_for_a_while(spawn):
    server = spawn("--max-frame-bytes", "1024", framing="ndjson")
    server.send(ping_msg(0))
    assert_result(server.recv(), 0, "pong")
    junk = b'{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"value":"' + b"z" * 300_000
    server.write_chunks(junk, [4096] * (len(junk) // 4096 + 1))
    server.write(b'"}}\n' + frame(ping_msg(2), "ndjson"))
    check_oversize_error(server.recv(10))
    assert_result(server.recv(), 2, "pong")
    server.expect_nothing()


def test_oversized_lsp_frame_then_valid(spawn):
    server = spawn("--max-frame-bytes", "1024", framing="lsp")
    declared = 200_000
    head = b'{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"value":"'
    body = head + b"q" * (declared - len(head) - 3) + b'"}}'
    assert len(body) == declared
    server.write(b"Content-Length: %d\r\n\r\n" % declared)
    server.write_chunks(body, [8192] * (declared // 8192 + 1))
    server.send(ping_msg(2))
    check_oversize_error(server.recv(10))
    assert_result(server.recv(), 2, "pong")
    server.expect_nothing()


def test_oversized_lsp_frame_contains_fake_header(spawn):
    # resync must skip the declared body, not scan it for headers
    server = spawn("--max-frame-bytes", "1024", framing="lsp")
    inner = frame(ping_msg("inner"), "lsp")
    body = b"x" * 2000 + inner + b"y" * 2000
    server.write(b"Content-Length: %d\r\n\r\n" % len(body) + body + frame(ping_msg("outer"), "lsp"))
    check_oversize_error(server.recv())
    assert_result(server.recv(), "outer", "pong")
    server.expect_nothing()


@pytest.mark.timeout(60)
def test_default_frame_limit_is_16_mib(spawn):
    server = spawn(framing="ndjson")
    head = b'{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"value":"'
    tail = b'"}}\n'
    n = 16 * 1024 * 1024 + 4096
    server.write(head + b"a" * n + tail + frame(ping_msg(2), "ndjson"))
    check_oversize_error(server.recv(40))
    assert_result(server.recv(10), 2, "pong")


def check_oversize_error(resp):
    err = assert_error(resp, None, -32600)
    data = err.get("data")
    assert isinstance(data, dict), f"oversize error should carry data: {resp!r}"
    reason = data.get("reason")
    assert isinstance(reason, str) and reason, f"data.reason missing: {resp!r}"
    text = json.dumps(data).lower()
    assert any(w in text for w in ("limit", "max", "large", "1024", "16777216", "exceed")), (
        f"data.reason should mention the limit: {resp!r}"
    )


# ---------------------------------------------------------------- 1 MiB UTF-8


@pytest.mark.timeout(60)
def test_one_mib_multibyte_body(spawn, framing):
    server = spawn(framing=framing)
    unit = "é日本😀\n\"\\ a"  # 2 + 3 + 3 + 4 + 1 + 1 + 1 + 1 + 1 bytes
    value = unit * (1024 * 1024 // len(unit.encode()) + 1)
    assert len(value.encode()) > 1024 * 1024
    msg = {"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"value": value}}
    server.send(msg)
    raw = server.recv_raw(20)  # in LSP mode recv_raw reads exactly Content-Length bytes
    resp = loads(raw)
    assert_result(resp, 1, value)
    if framing == "lsp":
        out = bytes(server.stdout_all)
        header = b"Content-Length: %d\r\n\r\n" % len(raw)
        assert out.startswith(header), out[:60]
        assert len(out) == len(header) + len(raw), "Content-Length must equal the UTF-8 byte count"
    else:
        assert b"\n" not in raw
    # the stream is still aligned
    server.send(ping_msg(2))
    assert_result(server.recv(), 2, "pong")


def test_content_length_counts_bytes_not_chars(spawn):
    server = spawn(framing="lsp")
    server.send({"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"value": "😀" * 10 + "é" * 10}})
    server.send(ping_msg(2))
    assert_result(server.recv(), 1, "😀" * 10 + "é" * 10)
    assert_result(server.recv(), 2, "pong")


# ---------------------------------------------------------------- garbage / bad bytes


def test_garbage_line_then_valid_line(spawn):
    server = spawn(framing="ndjson")
    server.write(b"this is not json\n" + frame(ping_msg(1), "ndjson"))
    err = assert_error(server.recv(), None, -32700)
    assert isinstance(err.get("data"), dict), err
    assert_result(server.recv(), 1, "pong")
    server.expect_nothing()


@pytest.mark.parametrize(
    "junk", [b"}", b"{", b'{"jsonrpc":"2.0",', b"nul\x00l", b"[1,]", b"{'a':1}", b"NaN", b"01"],
    ids=["close", "open", "truncated", "nul-byte", "trailing-comma", "single-quotes", "nan", "leading-zero"],
)
def test_invalid_json_lines(spawn, junk):
    server = spawn(framing="ndjson")
    server.send(ping_msg(0))
    assert_result(server.recv(), 0, "pong")
    server.write(junk + b"\n")
    assert_error(server.recv(), None, -32700)
    server.expect_nothing()


def test_trailing_garbage_after_json_is_parse_error(server, framing):
    server.send(b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"} xyz')
    assert_error(server.recv(), None, -32700)
    server.expect_nothing()


def test_two_json_values_in_one_frame_is_parse_error(server, framing):
    server.send(b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}{"jsonrpc":"2.0","id":2,"method":"rpc.ping"}')
    assert_error(server.recv(), None, -32700)
    server.expect_nothing()


def test_garbage_lsp_body_then_valid(spawn):
    server = spawn(framing="lsp")
    server.send(b"this is not json")
    assert_error(server.recv(), None, -32700)
    server.send(ping_msg(1))
    assert_result(server.recv(), 1, "pong")


INVALID_UTF8 = {
    "ff": b"\xff",
    "overlong-slash": b"\xc0\xaf",
    "surrogate-d800": b"\xed\xa0\x80",
    "truncated-3byte": b"\xe6\x97",
    "lone-continuation": b"\x80",
    "above-10ffff": b"\xf4\x90\x80\x80",
}


@pytest.mark.parametrize("bad", list(INVALID_UTF8.values()), ids=list(INVALID_UTF8))
def test_invalid_utf8_is_parse_error_and_server_continues(server, framing, bad):
    body = b'{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"value":"a' + bad + b'b"}}'
    server.send(body)
    assert_error(server.recv(), None, -32700)
    server.send(ping_msg(2))
    assert_result(server.recv(), 2, "pong")
    server.expect_nothing()


def test_invalid_utf8_outside_strings(server, framing):
    server.send(b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"\xff}')
    assert_error(server.recv(), None, -32700)
    server.expect_nothing()


# ---------------------------------------------------------------- nesting


def nested(depth):
    return "[" * depth + "]" * depth


def echo_raw(id, raw_value):
    return ('{"jsonrpc":"2.0","id":%s,"method":"test.echo","params":{"value":%s}}' % (json.dumps(id), raw_value)).encode()


def test_nesting_within_default_limit_is_fine(server, framing):
    server.send(echo_raw(1, nested(40)))
    resp = server.recv()
    value = json.loads(nested(40))
    assert_result(resp, 1, value)


@pytest.mark.parametrize("depth", [100, 3000, 100_000])
def test_nesting_beyond_default_limit(server, framing, depth):
    server.send(echo_raw(1, nested(depth)))
    resp = server.recv(10)
    if depth <= 2048:
        err = assert_error(resp, resp.get("id"), -32600)
    else:
        # beyond 2048 the JSON parser itself may refuse it as malformed
        err = assert_error(resp, resp.get("id"), (-32600, -32700))
    assert resp["id"] in (None, 1), resp
    assert err
    server.send(ping_msg(2))
    assert_result(server.recv(), 2, "pong")
    server.expect_nothing()


def test_unclosed_deep_nesting(server, framing):
    server.send(b"[" * 50_000)
    assert_error(server.recv(10), None, (-32700, -32600))
    server.send(ping_msg(2))
    assert_result(server.recv(), 2, "pong")


def test_max_depth_flag(spawn, framing):
    server = spawn("--max-depth", "16", framing=framing)
    server.send(echo_raw(1, nested(5)))
    assert_result(server.recv(), 1, json.loads(nested(5)))
    server.send(echo_raw(2, nested(40)))
    resp = server.recv()
    assert_error(resp, resp.get("id"), -32600)
    assert resp["id"] in (None, 2), resp
    server.send(ping_msg(3))
    assert_result(server.recv(), 3, "pong")


def test_deep_top_level_batch(server, framing):
    server.send(nested(200).encode())
    resp = server.recv()
    if isinstance(resp, list):  # refused entry by entry: one entry, one error
        assert len(resp) == 1, resp
        resp = resp[0]
    assert_error(resp, None, -32600)
    server.expect_nothing()


def test_deep_objects(server, framing):
    raw = '{"a":' * 200 + "1" + "}" * 200
    server.send(echo_raw(1, raw))
    resp = server.recv()
    assert_error(resp, resp.get("id"), -32600)
    assert resp["id"] in (None, 1)
    server.expect_nothing()


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize("big", ["18446744073709551617", "123456789012345678901234567890", "-99999999999999999999"])
def test_integer_id_beyond_64_bits_is_parse_error(server, framing, big):
    server.send(('{"jsonrpc":"2.0","id":%s,"method":"rpc.ping"}' % big).encode())
    assert_error(server.recv(), None, -32700)
    server.send(ping_msg(2))
    assert_result(server.recv(), 2, "pong")
