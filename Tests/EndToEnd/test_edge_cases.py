"""Request-level edge cases (go-ethereum rpc/testdata and friends), both framings."""

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import (
    Server,
    assert_batch,
    assert_error,
    assert_result,
    dumps,
    frame,
    same_json,
    strip_strings,
)

# ---------------------------------------------------------------- batches


def test_batch_of_null(server):
    # go-ethereum invalid-batch.js
    server.send("[null]")
    assert_batch(server.recv(), [{"id": None, "error": -32600}])
    server.expect_nothing()


def test_batch_junk_mixed_with_valid(server):
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"},
        1,
        None,
        "x",
        [],
        {"jsonrpc": "2.0", "id": 2, "method": "nope.nothing"},
        {"id": 3},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "no.such.notification"},
        {"jsonrpc": "2.0", "id": 4, "method": "subtract", "params": [5, 3]},
        {"jsonrpc": "2.0", "id": "s", "method": "get_data"},
    ]
    server.send(batch)
    assert_batch(
        server.recv(),
        [
            {"id": 1, "result": "pong"},
            {"id": None, "error": -32600},
            {"id": None, "error": -32600},
            {"id": None, "error": -32600},
            {"id": None, "error": -32600},
            {"id": 2, "error": -32601},
            {"id": 3, "error": -32600},
            {"id": 4, "result": 2},
            {"id": "s", "result": ["hello", 5]},
        ],
    )
    server.expect_nothing()


def test_batch_too_large(spawn, framing):
    # go-ethereum invalid-batch-toolarge.js: ONE error object, not an array
    server = spawn("--max-batch", "3", framing=framing)
    server.send([{"jsonrpc": "2.0", "id": i, "method": "rpc.ping"} for i in range(4)])
    resp = server.recv()
    err = assert_error(resp, None, -32600)
    assert isinstance(err.get("data"), dict), resp
    assert "batch" in json.dumps(err["data"]).lower(), f"data should say the batch is too large: {resp!r}"
    server.expect_nothing()
    # at the limit is fine
    server.send([{"jsonrpc": "2.0", "id": i, "method": "rpc.ping"} for i in range(3)])
    assert_batch(server.recv(), [{"id": i, "result": "pong"} for i in range(3)])


def test_batch_too_large_of_notifications_still_answers(spawn, framing):
    # the batch as a whole is invalid, so the -32600 object is sent even though
    # every entry is a notification
    server = spawn("--max-batch", "2", framing=framing)
    server.send([{"jsonrpc": "2.0", "method": "notify_hello", "params": [i]} for i in range(3)])
    assert_error(server.recv(), None, -32600)
    server.expect_nothing()


def test_default_max_batch_is_1000(server):
    server.send([{"jsonrpc": "2.0", "id": i, "method": "rpc.ping"} for i in range(1000)])
    assert_batch(server.recv(10), [{"id": i, "result": "pong"} for i in range(1000)])
    server.send([{"jsonrpc": "2.0", "id": i, "method": "rpc.ping"} for i in range(1001)])
    assert_error(server.recv(10), None, -32600)
    server.expect_nothing()


def test_batch_reply_one_entry_per_request_with_duplicate_ids(server):
    server.send([{"jsonrpc": "2.0", "id": 1, "method": "subtract", "params": [i, 0]} for i in range(3)])
    resp = server.recv()
    assert isinstance(resp, list) and len(resp) == 3, resp
    assert sorted(r["result"] for r in resp) == [0, 1, 2], resp


def test_nested_batch_entry_is_invalid(server):
    server.send([[{"jsonrpc": "2.0", "id": 1, "method": "rpc.ping"}]])
    assert_batch(server.recv(), [{"id": None, "error": -32600}])


# ---------------------------------------------------------------- request objects


def test_id_only_object_recovers_id(server):
    # go-ethereum invalid-idonly.js
    server.send('{"id":1}')
    assert_error(server.recv(), 1, -32600)
    server.send('{"jsonrpc":"2.0","id":"abc"}')
    assert_error(server.recv(), "abc", -32600)
    server.expect_nothing()


@pytest.mark.parametrize("bad_id", ["[]", "{}", "[1]", '{"a":1}', "true"])
def test_non_scalar_id_gets_null_id(server, bad_id):
    # go-ethereum invalid-badid.js ("true" is not a valid id either)
    server.send('{"jsonrpc":"2.0","id":%s,"method":"rpc.ping"}' % bad_id)
    assert_error(server.recv(), None, -32600)
    server.expect_nothing()


@pytest.mark.parametrize(
    "version", ['"2.1"', '"1.0"', '"2"', "2.0", "null", '""'], ids=["2.1", "1.0", "2", "number", "null", "empty"]
)
def test_bad_jsonrpc_version(server, version):
    # go-ethereum invalid-badversion.js: the id is readable, so it is echoed
    server.send('{"jsonrpc":%s,"id":1,"method":"rpc.ping"}' % version)
    assert_error(server.recv(), 1, -32600)
    server.expect_nothing()


def test_missing_jsonrpc_member(server):
    server.send('{"id":2,"method":"rpc.ping"}')
    assert_error(server.recv(), 2, -32600)
    server.expect_nothing()


def test_bad_version_without_id_is_invalid_request(server):
    # Not a valid notification either: like spec example 6 (no id, invalid
    # object) it is answered with -32600 and id null.
    server.send('{"jsonrpc":"2.1","method":"notify_hello"}')
    assert_error(server.recv(), None, -32600)
    server.expect_nothing()


def test_params_null_is_absent(server):
    # go-ethereum reqresp-paramsnull.js
    server.send('{"jsonrpc":"2.0","id":5,"method":"rpc.ping","params":null}')
    assert_result(server.recv(), 5, "pong")
    server.send('{"jsonrpc":"2.0","id":6,"method":"get_data","params":null}')
    assert_result(server.recv(), 6, ["hello", 5])


def test_no_params(server):
    # go-ethereum reqresp-noparam.js
    server.send('{"jsonrpc":"2.0","id":7,"method":"rpc.ping"}')
    assert_result(server.recv(), 7, "pong")
    server.send('{"jsonrpc":"2.0","id":8,"method":"get_data"}')
    assert_result(server.recv(), 8, ["hello", 5])


@pytest.mark.parametrize("params", [[], {}, [1, 2], {"x": 1}])
def test_ping_accepts_any_params(server, params):
    resp = server.call("rpc.ping", params)
    assert_result(resp, resp["id"], "pong")


@pytest.mark.parametrize("params", ['"bar"', "3", "true"])
def test_scalar_params_are_invalid(server, params):
    # params MUST be an array or object; the id is readable
    server.send('{"jsonrpc":"2.0","id":9,"method":"rpc.ping","params":%s}' % params)
    assert_error(server.recv(), 9, (-32600, -32602))
    server.expect_nothing()


@pytest.mark.parametrize("method", ["1", "null", "[]", '{"a":1}'])
def test_non_string_method(server, method):
    server.send('{"jsonrpc":"2.0","id":10,"method":%s}' % method)
    assert_error(server.recv(), 10, -32600)


def test_missing_method_with_id(server):
    server.send('{"jsonrpc":"2.0","id":11,"params":[1]}')
    assert_error(server.recv(), 11, -32600)


def test_method_not_found_carries_method_in_data(server):
    resp = server.call("no.such.method", {"a": 1})
    err = assert_error(resp, resp["id"], -32601)
    assert isinstance(err.get("data"), dict) and err["data"].get("method") == "no.such.method", resp


def test_unknown_notification_is_silent(server):
    server.notify("no.such.method", [1, 2])
    server.notify("$/somethingElse", {"x": 1})
    server.expect_nothing()


def test_dollar_request_is_method_not_found(server):
    # LSP: a $/ request (with id) MUST be answered with MethodNotFound
    resp = server.call("$/unknownThing", {})
    assert_error(resp, resp["id"], -32601)


def test_rpc_prefix_unknown_is_method_not_found(server):
    resp = server.call("rpc.nope")
    assert_error(resp, resp["id"], -32601)


@pytest.mark.parametrize(
    "params",
    [[1], [], ["a", 1], [1, None], {"minuend": 1}, {"minuend": "x", "subtrahend": 1}],
    ids=["too-few", "none", "string", "null", "missing-named", "string-named"],
)
def test_invalid_params(server, params):
    resp = server.call("subtract", params)
    assert_error(resp, resp["id"], -32602)


def test_error_in_notification_is_never_reported(server):
    server.notify("subtract", ["a", "b"])
    server.send('{"jsonrpc":"2.0","method":"subtract","params":{"minuend":1}}')
    server.expect_nothing()


def test_request_with_null_id_is_answered_with_null_id(server):
    # A request whose id is null is still a request (only a missing id makes a notification)
    server.send('{"jsonrpc":"2.0","id":null,"method":"rpc.ping"}')
    assert_result(server.recv(), None, "pong")


# ---------------------------------------------------------------- ids


IDS = [
    0,
    1,
    -1,
    2**53 + 1,
    9223372036854775807,
    -9223372036854775808,
    "1",
    "",
    "a b\tc",
    "日本-é-😀",
    "quote\"backslash\\",
    "550e8400-e29b-41d4-a716-446655440000",
]


@pytest.mark.parametrize("rid", IDS, ids=[repr(i) for i in IDS])
def test_id_echoed_verbatim(server, rid):
    resp = server.call("rpc.ping", id=rid)
    assert_result(resp, rid, "pong")


def test_big_integer_ids_exact_on_the_wire(spawn):
    server = spawn(framing="ndjson")
    for rid in (9007199254740993, 9223372036854775807, -9223372036854775808):
        server.send('{"jsonrpc":"2.0","id":%d,"method":"rpc.ping"}' % rid)
        raw = server.recv_raw()
        assert re.search(rb'"id":\s*%d\s*[,}]' % rid, raw), f"id not written as the exact integer {rid}: {raw!r}"


def test_string_id_stays_string(server):
    resp = server.call("rpc.ping", id="42")
    assert isinstance(resp["id"], str) and resp["id"] == "42", resp


def test_ids_in_batch_echoed(server):
    ids = [2**53 + 1, "x", -1, 9223372036854775807]
    server.send([{"jsonrpc": "2.0", "id": i, "method": "rpc.ping"} for i in ids])
    assert_batch(server.recv(), [{"id": i, "result": "pong"} for i in ids])


# ---------------------------------------------------------------- echo / values


ECHO_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    9223372036854775807,
    1.5,
    -0.25,
    1e300,
    "",
    "plain",
    "line\nbreak\r\ttab",
    "\u2028\u2029",
    "nul\u0000inside",
    "é日本😀",
    "\u007f\u0001\u001f",
    [],
    {},
    {"a": [1, {"b": None}], "é": "日本"},
]


@pytest.mark.parametrize("value", ECHO_VALUES, ids=[repr(v)[:30] for v in ECHO_VALUES])
def test_echo_round_trip(server, value):
    resp = server.call("test.echo", {"value": value})
    assert_result(resp, resp["id"], value)


def test_echo_key_order_irrelevant_and_unicode_keys(server):
    value = {"z": 1, "a": 2, "日本": 3, "": 4}
    resp = server.call("test.echo", {"value": value})
    assert resp["result"] == value


def json_equiv(got, want):
    """Exact, except that a float with an integral value may come back as an int
    (1.0 -> 1 is the same JSON number) and -0.0 may come back as 0."""
    if isinstance(want, bool) or isinstance(got, bool):
        return type(got) is type(want) and got == want
    if isinstance(want, float):
        return isinstance(got, (int, float)) and got == want
    if isinstance(want, int):
        return type(got) is int and got == want
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(json_equiv(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(json_equiv(g, w) for g, w in zip(got, want))
    return type(got) is type(want) and got == want


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=40)
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=10), children, max_size=5),
    max_leaves=25,
)


@pytest.mark.parametrize("fr", ["ndjson", "lsp"])
@pytest.mark.timeout(60)
def test_echo_property(fr):
    server = Server(framing=fr)
    try:

        @settings(max_examples=120, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(value=json_values)
        def prop(value):
            resp = server.call("test.echo", {"value": value})
            assert "error" not in resp, resp
            got = resp.get("result")
            assert json_equiv(got, value), f"echo changed the value: sent {value!r}, got {got!r}"

        prop()
        server.close_stdin()
        rc, _ = server.wait_exit()
        assert rc == 0
    finally:
        server.kill()


@pytest.mark.timeout(60)
def test_garbage_lines_property():
    """Any single line of bytes gets at most one error reply and never breaks the stream."""
    server = Server(["--framing", "ndjson"], framing="ndjson")
    try:

        @settings(max_examples=150, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(junk=st.binary(min_size=1, max_size=200).filter(lambda b: b"\n" not in b))
        def prop(junk):
            server.write(junk + b"\n")
            probe = f"probe-{Server.next_id()}"
            server.request("rpc.ping", id=probe)
            first = server.recv(5)
            if isinstance(first, dict) and first.get("id") == probe:
                # only acceptable when the junk was blank
                assert junk.strip(b" \t\r") == b"", f"no reply to junk line {junk!r}"
                return
            assert isinstance(first, (dict, list)), first
            if isinstance(first, dict):
                assert first.get("error", {}).get("code") in (-32700, -32600), (junk, first)
            second = server.recv(5)
            assert_result(second, probe, "pong")

        prop()
        assert server.alive()
    finally:
        server.kill()


def test_compact_ndjson_replies(spawn):
    server = spawn(framing="ndjson")
    server.send({"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"value": {"a": [1, 2, {"b": "x y"}]}}})
    raw = server.recv_raw().decode("utf-8")
    skeleton = strip_strings(raw)
    assert not any(c in skeleton for c in " \t\r"), f"NDJSON reply is not compact: {raw!r}"


def test_frame_helper_sanity():
    assert frame({"a": 1}, "ndjson") == b'{"a":1}\n'
    assert frame(b"{}", "lsp") == b"Content-Length: 2\r\n\r\n{}"
    assert dumps("é") == '"é"'.encode()
    assert same_json(1, 1) and not same_json(1, 1.0) and not same_json(True, 1)


# ---------------------------------------------------------------- bad input never crashes


@pytest.mark.parametrize(
    "method,params",
    [
        ("test.log", {"count": -1}),
        ("test.log", {"count": -1, "bytes": 10}),
        ("test.log", {"count": "x"}),
        ("test.log", {"count": 1.5}),
        ("test.sleep", {"ms": "x"}),
        ("test.sleep", {"ms": 1.5}),
        ("subtract", {"minuend": [], "subtrahend": 1}),
    ],
    ids=["log-negative", "log-negative-bytes", "log-string", "log-fraction", "sleep-string", "sleep-fraction", "subtract-array"],
)
def test_bad_helper_params_are_invalid_params_not_a_crash(server, method, params):
    resp = server.call(method, params)
    assert_error(resp, resp["id"], -32602)
    assert server.alive()
    server.ping()


@pytest.mark.parametrize(
    "method,params,exact",
    [
        ("subtract", [9223372036854775807, -1], 9223372036854775808),
        ("subtract", [-9223372036854775808, 1], -9223372036854775809),
        ("sum", [9223372036854775807, 1], 9223372036854775808),
    ],
    ids=["subtract-max", "subtract-min", "sum-max"],
)
def test_integer_overflow_is_not_silent(server, method, params, exact):
    # the right number (as a float if need be) or an error, never a wrapped value
    resp = server.call(method, params)
    if "result" in resp:
        got = resp["result"]
        assert isinstance(got, (int, float)) and abs(got - exact) <= abs(exact) * 1e-15, (
            f"{method}{params} = {got}, expected {exact} (or an error)"
        )
    else:
        assert_error(resp, resp["id"], (-32602, -32603))
