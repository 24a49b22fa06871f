"""The client against a broken or hostile server (a stand-in script in place of the binary): no
call waits for ever, however the server behaves; no frame grows without bound; every failure says
why. Nothing is timed: each test waits for the outcome under the suite's hang-only deadline."""

from __future__ import annotations

from python_client_support import stand_in_server  # noqa: F401  (first: it finds the package)
from client_test_fixtures import answering_server

import json
import subprocess
from pathlib import Path

import pytest

from inbox_rpc_client import Client, InboxRpcError, ServerExited
from inbox_rpc_client import client as client_module

CONTRACT = {"openrpc": "1.3.2", "info": {"title": "fake", "version": "1"},
            "methods": [{"name": "feed.counts", "params": []}]}



def test_lines_for_ever_do_not_move_the_call_deadline(tmp_path: Path) -> None:
    noisy = stand_in_server(tmp_path, "noisy", """
        import sys
        line = '{"jsonrpc":"2.0","method":"log","params":{"level":"info","message":"noise"}}\\n' * 100
        while True:
            sys.stdout.write(line)
    """)
    with Client(str(noisy), contract=CONTRACT, timeout=0.5, close_timeout=0.5) as client:
        with pytest.raises(TimeoutError, match=r"feed\.counts: no reply within 0\.5 s; cancelled"):
            client.call("feed.counts")


def test_an_endless_line_ends_the_connection_at_the_frame_bound(tmp_path: Path) -> None:
    endless = stand_in_server(tmp_path, "endless", """
        import sys
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
    """)
    client = Client(str(endless), contract=CONTRACT, timeout=None, max_frame_bytes=1 << 20, close_timeout=0.5)
    with pytest.raises(ServerExited) as error:
        client.call("feed.counts")
    assert error.value.reason == "inbox-rpc wrote a frame larger than 1048576 bytes (max_frame_bytes)"
    assert "larger than 1048576 bytes" in str(error.value)
    # The broken server the client started is stopped.
    assert client.process is not None and client.process.wait(60) < 0


def test_the_default_timeout_is_finite_and_ends_a_call_to_a_silent_server(tmp_path: Path, monkeypatch) -> None:
    assert 0 < client_module.DEFAULT_TIMEOUT < float("inf")
    silent = stand_in_server(tmp_path, "silent", "import time\ntime.sleep(600)\n")
    client = Client(str(silent), contract=CONTRACT, close_timeout=0.5)
    assert client.timeout == client_module.DEFAULT_TIMEOUT
    client.timeout = 0.3  # the default's rule, with a shorter wait
    with pytest.raises(TimeoutError):
        client.call("feed.counts")
    client.close()


@pytest.mark.parametrize("error, shown", [(None, "None"), ("boom", "'boom'"), (42, "42")])
def test_an_error_reply_that_is_not_an_object_still_says_what_came(tmp_path: Path, error, shown) -> None:
    odd = answering_server(tmp_path, "odd", f"{{'error': {error!r}}}")
    with Client(str(odd), contract=CONTRACT, close_timeout=0.5) as client:
        with pytest.raises(InboxRpcError) as raised:
            client.call("feed.counts")
    assert shown in str(raised.value)


def test_bad_options_are_refused_with_a_reason(tmp_path: Path) -> None:
    quiet = stand_in_server(tmp_path, "quiet", "import time\ntime.sleep(600)\n")
    for options, reason in [({"timeout": 0}, "timeout is a number of seconds above 0"),
                            ({"max_frame_bytes": -1}, "max_frame_bytes is a number of bytes above 0")]:
        with pytest.raises(ValueError, match=reason):
            Client(str(quiet), contract=CONTRACT, close_timeout=0.5, **options)
    # and the server started for them is not left running
    assert not any(f"{tmp_path}/quiet" in line for line in subprocess.run(
        ["ps", "-eo", "args"], capture_output=True, text=True).stdout.splitlines()), "a stand-in was left running"


def test_contract_method_names_cannot_replace_the_clients_own(tmp_path: Path) -> None:
    names = ["__class__", "__init__", "close", "call", "mro", "then", "feed.counts"]
    contract = {**CONTRACT, "methods": [{"name": n, "params": []} for n in names]}
    echo = answering_server(tmp_path, "echo", "{'result': request['method']}")
    with Client(str(echo), contract=contract, close_timeout=0.5) as client:
        assert type(client) is Client and callable(client.close)
        assert client.feed.counts() == "feed.counts"
        for name in names:
            assert client.call(name) == name
    json.dumps(contract)  # the contract itself is untouched
