"""JSON-RPC 2.0 specification section 7 examples, in both framings.

Data: data/spec_examples.jsonl. Each case runs on a fresh server (so the case
itself is the first frame and decides the auto-detected framing), and once
more all together on one connection.
"""

import pytest

from conftest import assert_batch, assert_error, assert_result, load_jsonl

CASES = load_jsonl("spec_examples.jsonl")


def body_for(case, framing):
    if framing == "lsp":
        return case.get("send_lsp", case["send"])
    return case["send"]


def check_expectation(server, case):
    expect = case["expect"]
    if expect is None:
        server.expect_nothing()
        return
    resp = server.recv()
    if "batch" in expect:
        assert_batch(resp, expect["batch"])
    elif "error" in expect:
        err = assert_error(resp, expect["id"], expect["error"])
        if expect["error"] == -32601:
            # contract: -32601 carries data.method
            assert isinstance(err.get("data"), dict), resp
            assert err["data"].get("method") == "foobar", resp
        if expect["error"] == -32700:
            assert isinstance(err.get("data"), dict), f"-32700 should carry a data object: {resp!r}"
    else:
        assert_result(resp, expect["id"], expect["result"])
    # and nothing else after it
    server.expect_nothing()


def test_data_file_has_all_twelve_examples():
    names = {c["name"].split("-")[0].rstrip("ab") for c in CASES}
    assert names == {str(i) for i in range(1, 13)}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_spec_example(server, framing, case):
    server.send(body_for(case, framing))
    check_expectation(server, case)


@pytest.mark.parametrize("explicit", [False, True], ids=["auto", "forced-flag"])
def test_all_spec_examples_on_one_connection(spawn, framing, explicit):
    args = ("--framing", framing) if explicit else ()
    server = spawn(*args, framing=framing)
    for case in CASES:
        server.send(body_for(case, framing))
        check_expectation(server, case)
    server.close_stdin()
    rc, _ = server.wait_exit()
    assert rc == 0
