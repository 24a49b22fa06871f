"""Every named error of the contract, raised as its own class, made by the real server where it can
make it; codes the contract does not name stay the base class."""

from __future__ import annotations

import json

from python_client_support import CONTRACT, DOCUMENT_PATH as CONTRACT_PATH, contract_double, inbox, replies_fit_the_contract, server_bin, store, watchdog  # noqa: F401  (fixtures; first: it finds the package)

import os
import shutil
import time
from pathlib import Path
from typing import Callable, Dict

import pytest

from fake_backend import TOKEN, FakeBackend
from inbox_rpc_client import Client, InboxRpcError
from sync_support import backend, backend_args  # noqa: F401  (a fixture)


def synced_client(server_bin: str, store: str, backend: FakeBackend) -> Client:
    env = {**os.environ, "INBOX_RPC_API_TOKEN": TOKEN}
    return Client(server_bin, store=store, args=[*backend_args(backend), "--backend-timeout", "0.5"], env=env, timeout=20)


def sync_fault(fault: str) -> Callable[[str, str, Path], None]:
    def make(server_bin: str, store: str, tmp_path: Path) -> None:
        backend = FakeBackend()
        try:
            with synced_client(server_bin, store, backend) as client:
                backend.fail(fault, method="getInboxMessages", delay=2)
                client.feed.sync(force=True)
        finally:
            backend.close()
    return make


def on_sample_feed(action: Callable[[Client], object]) -> Callable[[str, str, Path], None]:
    def make(server_bin: str, store: str, tmp_path: Path) -> None:
        with Client(server_bin, store=store, sample_feed=True, args=["--test-methods"], timeout=20) as client:
            action(client)
    return make


def store_gone(server_bin: str, store: str, tmp_path: Path) -> None:
    path = tmp_path / "gone" / "inbox.sqlite"
    with Client(server_bin, store=path, sample_feed=True, timeout=20) as client:
        client.feed.counts()
        shutil.rmtree(path.parent)
        client.message.dismiss(id="welcome")


def unreachable(server_bin: str, store: str, tmp_path: Path) -> None:
    args = ["--application", "APP-12345", "--backend-url", "http://127.0.0.1:9/json/1.3/"]
    with Client(server_bin, store=store, args=args, timeout=20) as client:
        client.feed.sync(force=True)


def cancelled(client: Client) -> None:
    call = client.start("test.sleep", ms=10000)
    time.sleep(0.1)
    call.cancel()
    call.result(5)


def pass_over_http(client: Client) -> None:
    client.config.set(attributes={"walletPasses": True})  # a host that can add passes
    data = {"displayType": "wallet", "wallet": "http://passes.example.com/loyalty.pkpass"}
    client.message.ingest(payload={"pw_inbox": "pass-1", "aps": {"alert": {"title": "Your pass"}}, "u": json.dumps(data)})
    client.wallet.download(id="pass-1")  # http: refused before anything is fetched


def another_stores_cursor(server_bin: str, store: str, tmp_path: Path) -> None:
    with Client(server_bin, store=tmp_path / "other.sqlite", sample_feed=True) as other:
        cursor = other.feed.changes()["cursor"]
    with Client(server_bin, store=store, sample_feed=True) as client:
        client.feed.changes(since=cursor)


# How the real server is made to answer each named error.
PRODUCERS: Dict[str, Callable[[str, str, Path], None]] = {
    "InvalidParams": on_sample_feed(lambda c: c.feed.list(limit=0)),
    "MessageNotFound": on_sample_feed(lambda c: c.message.get(id="no-such-message")),
    "NotAVideoCard": on_sample_feed(lambda c: c.video.play(id="summer-sale")),
    "GestureDisabled": on_sample_feed(lambda c: (c.config.set(attributes={"swipeToDelete": False}),
                                                 c.message.dismiss(id="summer-sale", swipe=True))),
    "NotAWalletCard": on_sample_feed(lambda c: c.wallet.download(id="summer-sale")),
    "WalletPassFailed": on_sample_feed(pass_over_http),
    "NotAnInboxMessage": on_sample_feed(lambda c: c.message.ingest(payload={"aps": {"alert": "a plain push"}})),
    "StoreFailure": store_gone,
    "CursorTooOld": another_stores_cursor,
    "RequestCancelled": on_sample_feed(cancelled),
    "BackendUnavailable": unreachable,
    "BackendRefused": sync_fault("http500"),
    "BackendMalformedReply": sync_fault("invalid_json"),
    "BackendNotConfigured": on_sample_feed(lambda c: c.feed.sync()),
    "MCPHandshake": on_sample_feed(lambda c: c.initialize(protocolVersion="2025-06-18", capabilities={},
                                                          clientInfo={"name": "host", "version": "1"})),
}


# Named errors no request can make the real server answer; each is raised from a stand-in below.
UNREACHABLE = {"InternalError": "a defect of the server: no request is known to cause one"}


def test_every_named_error_of_the_contract_is_made_here_or_said_why_not() -> None:
    named = set(CONTRACT.errors)
    assert set(PRODUCERS) | set(UNREACHABLE) == named, "a named error was added to or removed from the contract"
    assert not set(PRODUCERS) & set(UNREACHABLE)


@pytest.mark.parametrize("name", sorted(PRODUCERS))
def test_the_server_raises_each_named_error_as_its_class(server_bin: str, store: str, tmp_path: Path, name: str) -> None:
    with pytest.raises(InboxRpcError) as raised:
        PRODUCERS[name](server_bin, store, tmp_path)
    error = raised.value
    assert type(error).__name__ == name and error.name == name, error
    assert error.code == CONTRACT.errors[name]["code"]
    assert (error.data is None or isinstance(error.data, dict)) and isinstance(error.message, str) and error.message


@pytest.mark.parametrize("name", sorted(UNREACHABLE))
def test_errors_the_server_cannot_be_made_to_answer_are_raised_by_name_from_a_stand_in(tmp_path: Path, name: str) -> None:
    code = CONTRACT.errors[name]["code"]
    answers = {"feed.counts": {"error": {"code": code, "message": "from a stand-in", "data": {"reason": "test"}}}}
    with contract_double(tmp_path, Path(CONTRACT_PATH), answers) as client:
        with pytest.raises(getattr(client.errors, name)) as raised:
            client.feed.counts()
    assert raised.value.name == name and raised.value.code == code and raised.value.data == {"reason": "test"}


def test_a_named_error_carries_the_reply_and_the_method(inbox: Client) -> None:
    with pytest.raises(inbox.errors.MessageNotFound) as raised:
        inbox.message.tap(id="no-such-message")
    error = raised.value
    assert (error.code, error.message, error.data, error.method) == (-32001, "Message not found", {"id": "no-such-message"}, "message.tap")
    assert str(error) == "message.tap: Message not found (-32001, MessageNotFound) {'id': 'no-such-message'}"
    with pytest.raises(inbox.errors.InvalidParams) as bad:
        inbox.button.tap(id="summer-sale", button=5)
    assert bad.value.data["param"] == "button"


def test_codes_the_contract_does_not_name_raise_the_base_class(inbox: Client) -> None:
    with pytest.raises(InboxRpcError) as raised:
        inbox.call("feed.frobnicate", limit=1)
    assert type(raised.value) is InboxRpcError and raised.value.name is None
    assert (raised.value.code, raised.value.data) == (-32601, {"method": "feed.frobnicate"})


def test_one_class_per_named_error_for_every_client(server_bin: str, inbox: Client) -> None:
    with Client(server_bin, store=":memory:", sample_feed=True) as other:
        with pytest.raises(inbox.errors.MessageNotFound):
            other.message.get(id="nope")
        assert vars(other.errors) == vars(inbox.errors)
    assert sorted(vars(inbox.errors)) == sorted(CONTRACT.errors)
    assert all(issubclass(cls, InboxRpcError) for cls in vars(inbox.errors).values())


def test_the_local_feed_works_on_after_a_sync_error(server_bin: str, store: str, backend: FakeBackend) -> None:
    with synced_client(server_bin, store, backend) as client:
        backend.fail("http500", method="getInboxMessages")
        with pytest.raises(client.errors.BackendRefused) as raised:
            client.feed.sync(force=True)
        assert raised.value.data["httpStatus"] == 500
        assert client.feed.counts()["total"] == 0
