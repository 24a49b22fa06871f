"""Apple Wallet passes end to end: `wallet.download` fetches a wallet card's pass from a loopback
https server (pass_server.py) under the test CA, and `wallet.report` records what became of the
Wallet sheet.

What is shown:
  - a real pass is kept as <sha256>.pkpass, 0600 in a 0700 directory, byte for byte what was served,
    and the message becomes read, with its status 2 reaching the backend on the next sync, also
    when the server is SIGKILLed right after the download answered;
  - https only: a redirect to http:// is refused before it is followed, an http:// pass URL is
    refused, and file:// or a private scheme never renders as a wallet card (-32003);
  - what is not a pass is refused (-32004) and leaves no file: an HTML page, an error status, a
    body past 10 MiB (announced, unannounced, or compressed), a zip bomb;
  - a slow download runs off the reader (a ping answers meanwhile), tells its progress and stops
    on `$/cancelRequest` (-32800), leaving nothing behind;
  - cards that are not wallet cards (a video, a wallet card for a host that declared no iOS) are
    refused by kind (-32003);
  - `wallet.report`: added reads the message (status 2 on the wire), failed keeps its reason, both
    are told as `wallet.reported`; bad ids, kinds and outcomes are refused;
  - no file another user can read, and nothing written outside the pass directory;
  - the pass also comes through a CONNECT proxy named by https_proxy.

Every reply and notification is checked against Schemas/openrpc.json by sync_support's SyncServer
(CONTRACT.check_reply / check_notification), so the results and the wallet.progress,
wallet.reported and feed.changed notifications below are all validated against the contract.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import socket
import sqlite3
import stat
import time
from dataclasses import dataclass

import pytest

from connect_proxy import ConnectProxy
from conftest import HANG
from pass_server import PKPASS, PassServer, Reply, make_pass, make_zip_bomb
from sync_support import (  # noqa: F401  (fixtures)
    SyncServer,
    backend,
    servers,
    start_server,
    token_env,
)
from tls_support import _issue, needs_openssl, pki, server_context  # noqa: F401  (fixtures)

pytestmark = needs_openssl

PASS_PATH = "/v1/passes/pass.com.example.loyalty/abc123"
VIDEO = {"displayType": "video", "video": {"url": "https://cdn.example.com/clip.mp4"}}
STORE_NAME = "inbox.sqlite"


def wallet(url: str) -> dict:
    return {"displayType": "wallet", "wallet": url}


# --------------------------------------------------------------------------------------------
# Fixtures and helpers
# --------------------------------------------------------------------------------------------


@dataclass
class Place:
    """The test's own directory: the store, the pass directory and an XDG cache (so a pass written
    to the default place instead of --pass-dir would show up in the tree too)."""

    root: str
    store: str
    passes: str
    cache: str


@pytest.fixture
def place(tmp_path) -> Place:
    root = str(tmp_path)
    cache = os.path.join(root, "cache")
    os.mkdir(cache)
    return Place(root, os.path.join(root, STORE_NAME), os.path.join(root, "passes"), cache)


@pytest.fixture
def pass_server(pki):
    server = PassServer(server_context(pki, "loopback"))
    yield server
    server.close()


@pytest.fixture
def tripwire():
    """A plain TCP listener nothing should reach: a connection made to it waits in its backlog,
    so `reached()` tells whether anything connected, with no thread and no wait."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)

    class Tripwire:
        port = listener.getsockname()[1]

        @staticmethod
        def reached() -> bool:
            try:
                client, _ = listener.accept()
            except BlockingIOError:
                return False
            client.close()
            return True

    yield Tripwire
    listener.close()


def start(servers, place: Place, backend, pki, *extra: str, ios: bool = True, env: dict | None = None) -> SyncServer:
    """A server on the test's store that trusts the test CA and keeps passes in place.passes; an
    iOS host unless `ios` is false (a wallet card renders as a wallet card only for one)."""
    server = start_server(
        servers, place.store, backend, "--backend-ca-file", os.path.join(pki, "ca.pem"), "--pass-dir", place.passes,
        *extra, env={**token_env(), "XDG_CACHE_HOME": place.cache, **(env or {})})
    if ios:
        server.call("initialize", {"client": {"name": "wallet-test", "version": "1.0"}, "platform": "ios"})
    return server


def add(backend, inbox_id: str, data: dict) -> None:
    backend.add_message(inbox_id, params={"u": json.dumps(data)})


def ingest(server: SyncServer, inbox_id: str, data: dict) -> dict:
    """A received iOS push carrying the card's custom data."""
    payload = {"pw_inbox": inbox_id, "aps": {"alert": {"title": "Your card", "body": "Add it"}}, "u": json.dumps(data)}
    return server.call("message.ingest", {"payload": payload})["message"]


def download(server: SyncServer, inbox_id: str) -> dict:
    return server.call_raw("wallet.download", {"id": inbox_id}, timeout=HANG)


def failure(server: SyncServer, inbox_id: str, code: int = -32004) -> dict:
    """The error of a wallet.download that must fail with `code`."""
    reply = download(server, inbox_id)
    assert "error" in reply, f"wallet.download {inbox_id} succeeded: {reply}"
    error = reply["error"]
    assert error["code"] == code, error
    if code == -32004:
        assert error["message"] == "Wallet pass failed" and error["data"]["id"] == inbox_id, error
    return error


def kept(directory: str) -> list[str]:
    """The names in the pass directory (none when it was never made)."""
    return sorted(os.listdir(directory)) if os.path.isdir(directory) else []


def mode(path: str) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def is_read(server: SyncServer, inbox_id: str) -> bool:
    return server.call("message.get", {"id": inbox_id})["read"]


def sent_statuses(backend) -> set[tuple[str, int]]:
    codes = {m.order: m.inbox_id for m in backend.inbox().values()}
    return {(codes[r.request["inbox_code"]], r.request["status"]) for r in backend.calls("inboxStatus")}


def wait_until(server: SyncServer, predicate, what: str) -> None:
    """Waits for the server's output to satisfy `predicate` (woken by each frame it writes)."""
    deadline = time.monotonic() + HANG
    with server._cond:
        while not predicate():
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"{what} never came: {server.stderr_text()[-800:]}"
            server._cond.wait(remaining)


def tree(root: str) -> dict[str, int]:
    """Every path under `root` (the store's own files left out) with its mode."""
    found = {}
    for directory, names, files in os.walk(root):
        for name in names + files:
            if name.startswith(STORE_NAME):  # inbox.sqlite, -wal, -shm, -journal
                continue
            path = os.path.join(directory, name)
            found[os.path.relpath(path, root)] = mode(path)
    return found


def assert_pass_kept(result: dict, body: bytes, url: str, place: Place) -> None:
    """The pass is the served bytes, kept 0600 under its SHA-256 in the 0700 pass directory."""
    digest = hashlib.sha256(body).hexdigest()
    path = os.path.join(place.passes, digest + ".pkpass")
    assert result["pass"] == {"path": path, "size": len(body), "sha256": digest, "url": url, "contentType": PKPASS}
    with open(path, "rb") as f:
        assert f.read() == body
    assert mode(path) == 0o600 and mode(place.passes) == 0o700
    assert not [n for n in kept(place.passes) if n.startswith(".download-")], kept(place.passes)


# --------------------------------------------------------------------------------------------
# A real pass
# --------------------------------------------------------------------------------------------


def test_a_pass_is_downloaded_kept_privately_and_reads_the_message(servers, place, backend, pki, pass_server):
    body = make_pass()
    pass_server.routes[PASS_PATH] = Reply(body=body)
    add(backend, "w", wallet(pass_server.origin + PASS_PATH))
    server = start(servers, place, backend, pki)
    server.sync()
    backend.reset_records()
    assert server.call("message.get", {"id": "w"})["kind"] == "wallet" and not is_read(server, "w")

    reply = download(server, "w")
    assert "result" in reply, reply
    result = reply["result"]
    assert_pass_kept(result, body, pass_server.origin + PASS_PATH, place)
    assert kept(place.passes) == [result["pass"]["sha256"] + ".pkpass"]
    assert pass_server.paths == [PASS_PATH]

    assert result["message"]["id"] == "w" and result["message"]["read"] is True
    assert result["message"] == server.call("message.get", {"id": "w"})
    changes = [n["params"] for n in server.notifications_of("feed.changed")]
    assert changes[-1]["reason"] == "read" and changes[-1]["updated"] == ["w"], changes
    # A pass this small may arrive in one step, with no progress told; any told is this download's.
    progress = [n["params"] for n in server.notifications_of("wallet.progress")]
    assert all(p["id"] == "w" and 0 < p["received"] <= len(body) for p in progress), progress

    server.sync()
    assert sent_statuses(backend) == {("w", 2)}
    assert backend.statuses() == {"w": 2}


def test_the_read_status_survives_a_kill_right_after_the_download(servers, place, backend, pki, pass_server):
    pass_server.routes[PASS_PATH] = Reply(body=make_pass())
    add(backend, "w", wallet(pass_server.origin + PASS_PATH))
    first = start(servers, place, backend, pki)
    first.sync()
    backend.reset_records()
    assert "result" in download(first, "w")
    first.kill()  # SIGKILL before any sync: the status was committed before the reply

    second = start(servers, place, backend, pki)
    assert second.call("config.get")["backend"]["pending"] == 1
    result = second.sync()
    assert result["pending"] == 0 and result["failed"] == 0, result
    assert sent_statuses(backend) == {("w", 2)}
    assert backend.statuses() == {"w": 2}


# --------------------------------------------------------------------------------------------
# https only
# --------------------------------------------------------------------------------------------


def test_a_redirect_to_http_is_refused_before_it_is_followed(servers, place, backend, pki, pass_server, tripwire):
    plain = f"http://127.0.0.1:{tripwire.port}/pass.pkpass"
    pass_server.routes["/moved"] = Reply(302, b"", {"Location": plain, "Content-Type": "text/plain"})
    add(backend, "w", wallet(pass_server.origin + "/moved"))
    server = start(servers, place, backend, pki)
    server.sync()

    error = failure(server, "w")
    assert error["data"]["code"] == "insecureURL", error
    assert pass_server.paths == ["/moved"]
    assert not tripwire.reached(), "the http:// redirect target was connected to"
    assert kept(place.passes) == [] and not is_read(server, "w")


def test_https_redirects_are_followed_up_to_five(servers, place, backend, pki, pass_server):
    body = make_pass()
    origin = pass_server.origin
    pass_server.routes[PASS_PATH] = Reply(body=body)
    # Two hops: an absolute Location, then a relative one.
    pass_server.routes["/a"] = Reply(302, b"", {"Location": origin + "/b", "Content-Type": "text/plain"})
    pass_server.routes["/b"] = Reply(301, b"", {"Location": PASS_PATH, "Content-Type": "text/plain"})
    # Chains of 5 and 6 redirects to the pass.
    for n in range(1, 7):
        pass_server.routes[f"/chain/{n}"] = Reply(302, b"", {"Location": f"/chain/{n - 1}" if n > 1 else PASS_PATH})
    add(backend, "two", wallet(origin + "/a"))
    add(backend, "five", wallet(origin + "/chain/5"))
    add(backend, "six", wallet(origin + "/chain/6"))
    server = start(servers, place, backend, pki)
    server.sync()

    reply = download(server, "two")
    assert "result" in reply, reply
    assert_pass_kept(reply["result"], body, origin + PASS_PATH, place)
    assert pass_server.paths == ["/a", "/b", PASS_PATH]

    reply = download(server, "five")
    assert "result" in reply and reply["result"]["pass"]["url"] == origin + PASS_PATH, reply
    error = failure(server, "six")
    assert error["data"]["code"] == "unavailable" and "redirects" in error["data"]["reason"], error
    assert not is_read(server, "six")


def test_a_url_or_redirect_with_credentials_is_refused(servers, place, backend, pki, pass_server):
    pass_server.routes[PASS_PATH] = Reply(body=make_pass())
    with_credentials = f"https://me:secret@127.0.0.1:{pass_server.port}{PASS_PATH}"
    pass_server.routes["/moved"] = Reply(302, b"", {"Location": with_credentials})
    add(backend, "direct", wallet(with_credentials))
    add(backend, "redirected", wallet(pass_server.origin + "/moved"))
    server = start(servers, place, backend, pki)
    server.sync()

    for inbox_id in ("direct", "redirected"):
        error = failure(server, inbox_id)
        assert error["data"]["code"] == "insecureURL", error
    assert pass_server.paths == ["/moved"] and kept(place.passes) == []
    assert server.feed_statuses() == {"direct": 1, "redirected": 1}


def test_a_pass_dir_that_is_a_link_is_refused(servers, place, backend, pki, pass_server):
    elsewhere = os.path.join(place.root, "elsewhere")
    os.mkdir(elsewhere, 0o700)
    os.symlink(elsewhere, place.passes)
    pass_server.routes[PASS_PATH] = Reply(body=make_pass())
    add(backend, "w", wallet(pass_server.origin + PASS_PATH))
    server = start(servers, place, backend, pki)
    server.sync()

    error = failure(server, "w")
    assert error["data"]["code"] == "cannotStore", error
    assert os.listdir(elsewhere) == [] and os.path.islink(place.passes)
    assert not is_read(server, "w")
    assert pass_server.paths == [], "a directory that cannot be used is refused before any transfer"


# --------------------------------------------------------------------------------------------
# What is not a pass
# --------------------------------------------------------------------------------------------


# Each case made when its test runs (lambdas), not at import: some bodies are large.
NOT_PASSES = {
    "html": (lambda: Reply(200, b"<!doctype html><title>Get your pass</title>",
                           {"Content-Type": "text/html; charset=utf-8"}), "notAPass"),
    "not-a-zip": (lambda: Reply(200, b'{"formatVersion": 1}'), "notAPass"),
    "error-status": (lambda: Reply(404, b"gone", {"Content-Type": "text/plain"}), "httpStatus"),
    # 64 MiB of pass.json in a few dozen KiB, served as a pass: refused once 1 MiB is inflated.
    "zip-bomb": (lambda: Reply(200, make_zip_bomb(64)), "notAPass"),
}


@pytest.mark.parametrize("case", list(NOT_PASSES))
def test_what_is_not_a_pass_is_refused_and_leaves_nothing(servers, place, backend, pki, pass_server, case):
    make, code = NOT_PASSES[case]
    pass_server.routes["/p"] = make()
    add(backend, "w", wallet(pass_server.origin + "/p"))
    server = start(servers, place, backend, pki)
    server.sync()

    error = failure(server, "w")
    assert error["data"]["code"] == code, error
    if code == "httpStatus":
        assert error["data"]["httpStatus"] == 404, error
    assert pass_server.paths == ["/p"]
    assert kept(place.passes) == [], kept(place.passes)  # not even a .download-* file
    assert not is_read(server, "w") and server.feed_statuses() == {"w": 1}


def chunked(body: bytes, size: int = 64 << 10) -> bytes:
    """`body` framed as Transfer-Encoding: chunked."""
    pieces = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size]) for i in range(0, len(body), size)]
    return b"".join(pieces) + b"0\r\n\r\n"


FIFTY_MB = 50 << 20
TOO_LARGE = {
    "announced": lambda: Reply(200, bytes(FIFTY_MB)),
    # No length to go by: the cap is met while receiving.
    "chunked": lambda: Reply(200, chunked(bytes(FIFTY_MB)), {"Content-Type": PKPASS, "Transfer-Encoding": "chunked"}),
    # The announced length is the compressed one (about 50 KiB): the cap applies to what it inflates to.
    "gzip": lambda: Reply(200, gzip.compress(bytes(FIFTY_MB)), {"Content-Type": PKPASS, "Content-Encoding": "gzip"}),
}


@pytest.mark.parametrize("case", list(TOO_LARGE))
def test_a_pass_past_ten_mib_is_refused(servers, place, backend, pki, pass_server, case):
    pass_server.routes["/big"] = TOO_LARGE[case]()
    add(backend, "w", wallet(pass_server.origin + "/big"))
    server = start(servers, place, backend, pki)
    server.sync()

    error = failure(server, "w")
    assert error["data"]["code"] == "tooLarge", error
    assert kept(place.passes) == [] and not is_read(server, "w")
    assert server.call("rpc.ping") == "pong"
    if case == "chunked":  # progress was told without a total: the server had no length to go by
        progress = [n["params"] for n in server.notifications_of("wallet.progress")]
        assert progress and all("total" not in p for p in progress), progress


# --------------------------------------------------------------------------------------------
# Off the reader, with progress, cancellable
# --------------------------------------------------------------------------------------------


def test_a_slow_download_runs_off_the_reader_and_stops_on_cancel(servers, place, backend, pki, pass_server):
    size = 2 << 20
    # 2 MiB at 1 KiB every 50 ms: far longer than the test takes, so only the cancel ends it.
    pass_server.routes["/slow"] = Reply(200, bytes(size), drip=0.05, chunk=1024)
    add(backend, "w", wallet(pass_server.origin + "/slow"))
    server = start(servers, place, backend, pki)
    server.sync()

    download_id = server.send("wallet.download", {"id": "w"})
    wait_until(server, lambda: server.notifications_of("wallet.progress"), "a wallet.progress notification")
    first = server.notifications_of("wallet.progress")[0]["params"]
    assert first["id"] == "w" and first["received"] > 0 and first["total"] == size, first

    # The reader is free: a ping sent now is answered while the download is still going.
    assert server.call("rpc.ping", timeout=HANG) == "pong"
    with server._cond:
        assert download_id not in server._replies, "the download ended before the ping was answered"

    server.notify("$/cancelRequest", {"id": download_id})
    reply = server.reply(download_id, timeout=HANG)
    assert "error" in reply and reply["error"]["code"] == -32800, reply
    assert kept(place.passes) == [], kept(place.passes)
    assert not is_read(server, "w")
    assert server.call("rpc.ping") == "pong"


# --------------------------------------------------------------------------------------------
# Cards that are not wallet cards, and pass URLs that are not https
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["file:///etc/passwd", "myapp://pass"])
def test_a_pass_url_that_is_not_http_never_makes_a_wallet_card(servers, place, backend, pki, pass_server, url):
    server = start(servers, place, backend, pki)
    card = ingest(server, "p", wallet(url))
    assert card["kind"] == "classic" and card["degraded"]["from"] == "wallet", card

    error = failure(server, "p", -32003)
    assert error["message"] == "Not a wallet card", error
    assert error["data"]["id"] == "p" and error["data"]["kind"] == "classic" and url in error["data"]["degradation"]
    assert kept(place.passes) == [] and pass_server.paths == []
    assert not is_read(server, "p")


def test_an_http_pass_url_is_a_wallet_card_that_is_never_fetched(servers, place, backend, pki, tripwire):
    server = start(servers, place, backend, pki)
    card = ingest(server, "p", wallet(f"http://127.0.0.1:{tripwire.port}/x"))
    assert card["kind"] == "wallet", card

    error = failure(server, "p")
    assert error["data"]["code"] == "insecureURL", error
    assert not tripwire.reached(), "the http:// pass URL was connected to"
    assert kept(place.passes) == [] and not is_read(server, "p")


def test_cards_that_are_not_wallet_cards_are_refused_by_kind(servers, place, backend, pki, pass_server):
    pass_server.routes[PASS_PATH] = Reply(body=make_pass())
    add(backend, "v", VIDEO)
    add(backend, "w", wallet(pass_server.origin + PASS_PATH))

    ios = start(servers, place, backend, pki)
    ios.sync()
    error = failure(ios, "v", -32003)
    assert error["data"] == {"id": "v", "kind": "video", "degradation": None}, error
    assert failure(ios, "nope", -32001)["data"]["id"] == "nope"
    ios.close()

    # A host that declared no iOS platform cannot add passes: the wallet card is classic to it.
    other = start(servers, place, backend, pki, ios=False)
    card = other.call("message.get", {"id": "w"})
    assert card["kind"] == "classic" and card["degraded"]["from"] == "wallet", card
    error = failure(other, "w", -32003)
    assert error["data"]["kind"] == "classic" and isinstance(error["data"]["degradation"], str), error
    assert error["data"]["degradation"], error
    assert pass_server.paths == [] and kept(place.passes) == []
    assert not is_read(other, "w")


# --------------------------------------------------------------------------------------------
# wallet.report
# --------------------------------------------------------------------------------------------


def stored_reports(store: str) -> dict[str, tuple]:
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as database:
        rows = database.execute("SELECT message_id, outcome, reason FROM wallet_passes").fetchall()
    return {row[0]: row[1:] for row in rows}


def test_wallet_reports_are_recorded_and_told(servers, place, backend, pki):
    add(backend, "added", wallet("https://passes.example.com/a.pkpass"))
    add(backend, "failed", wallet("https://passes.example.com/f.pkpass"))
    add(backend, "v", VIDEO)
    server = start(servers, place, backend, pki)
    server.sync()
    backend.reset_records()

    report = server.call("wallet.report", {"id": "added", "outcome": "added"})
    assert {k: report[k] for k in ("id", "outcome", "reason")} == {"id": "added", "outcome": "added", "reason": None}
    assert isinstance(report["reportedAt"], str) and report["reportedAt"].endswith("Z"), report
    assert report["message"]["id"] == "added" and report["message"]["read"] is True
    told = server.notifications_of("wallet.reported")
    assert [n["params"] for n in told] == [{k: report[k] for k in ("id", "outcome", "reason", "reportedAt")}]
    assert server.notifications_of("feed.changed")[-1]["params"]["reason"] == "read"

    reason = "The pass is invalid (PKPassKitErrorDomain 1)"
    report = server.call("wallet.report", {"id": "failed", "outcome": "failed", "reason": reason})
    assert report["outcome"] == "failed" and report["reason"] == reason, report
    assert report["message"]["read"] is False and not is_read(server, "failed")
    told = server.notifications_of("wallet.reported")[-1]["params"]
    assert told == {"id": "failed", "outcome": "failed", "reason": reason, "reportedAt": report["reportedAt"]}

    error = server.error_of("wallet.report", {"id": "v", "outcome": "added"})
    assert error["code"] == -32003 and error["data"]["kind"] == "video", error
    assert server.error_of("wallet.report", {"id": "nope", "outcome": "added"})["code"] == -32001
    assert server.error_of("wallet.report", {"id": "failed", "outcome": "maybe"})["code"] == -32602
    too_long = server.error_of("wallet.report", {"id": "failed", "outcome": "failed", "reason": "x" * 1001})
    assert too_long["code"] == -32602 and too_long["data"]["param"] == "reason", too_long
    # A reason given with added is not kept.
    assert server.call("wallet.report", {"id": "added", "outcome": "added", "reason": "ignored"})["reason"] is None
    assert server.feed_statuses() == {"added": 2, "failed": 1, "v": 1}

    server.sync()
    assert sent_statuses(backend) == {("added", 2)}
    server.close()
    assert stored_reports(place.store) == {"added": ("added", None), "failed": ("failed", reason)}


# --------------------------------------------------------------------------------------------
# Nothing another user can read, nothing outside the pass directory
# --------------------------------------------------------------------------------------------


def test_no_file_another_user_can_read_and_nothing_outside_the_pass_dir(
        servers, place, backend, pki, pass_server, tripwire):
    good, other = make_pass("one"), make_pass("two")
    routes = {
        "/good": Reply(body=good), "/other": Reply(body=other, headers={"Content-Type": "application/octet-stream"}),
        "/html": Reply(200, b"<html></html>", {"Content-Type": "text/html"}), "/bomb": Reply(200, make_zip_bomb(64)),
        "/big": Reply(200, bytes(FIFTY_MB)), "/http": Reply(302, b"", {"Location": f"http://127.0.0.1:{tripwire.port}/"}),
        "/slow": Reply(200, bytes(2 << 20), drip=0.05),
    }
    pass_server.routes.update(routes)
    for name in routes:
        add(backend, name.strip("/"), wallet(pass_server.origin + name))
    before = tree(place.root)
    # Started with no umask: a file or directory the server made without its own mode would be
    # world-readable here.
    umask = os.umask(0)
    try:
        server = start(servers, place, backend, pki)
    finally:
        os.umask(umask)
    server.sync()

    for name in ("good", "other", "good"):  # the same pass twice: one file
        assert "result" in download(server, name)
    for name in ("html", "bomb", "big", "http"):
        failure(server, name)
    slow = server.send("wallet.download", {"id": "slow"})
    wait_until(server, lambda: any(n["params"]["id"] == "slow" for n in server.notifications_of("wallet.progress")),
               "the slow download's progress")
    server.notify("$/cancelRequest", {"id": slow})
    assert server.reply(slow, timeout=HANG)["error"]["code"] == -32800
    server.close()

    after = tree(place.root)
    new = {path: m for path, m in after.items() if path not in before}
    expected = {os.path.join("passes", hashlib.sha256(b).hexdigest() + ".pkpass"): 0o600 for b in (good, other)}
    assert new == {"passes": 0o700, **expected}, new
    assert {path: after[path] for path in before} == before  # nothing else changed mode


# --------------------------------------------------------------------------------------------
# Through a CONNECT proxy
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def passes_certificate(pki) -> str:
    """A certificate for passes.example.com from the test CA, in the pki directory."""
    _issue(pki, "passes", "DNS:passes.example.com")
    return "passes"


def test_a_pass_through_a_connect_proxy(servers, place, backend, pki, passes_certificate):
    body = make_pass()
    host = PassServer(server_context(pki, passes_certificate), {PASS_PATH: Reply(body=body)})
    proxy = ConnectProxy(routes={"passes.example.com:443": host.port})
    try:
        url = "https://passes.example.com" + PASS_PATH
        add(backend, "w", wallet(url))
        server = start(servers, place, backend, pki, env={"https_proxy": proxy.url})
        server.sync()
        backend.reset_records()

        reply = download(server, "w")
        assert "result" in reply, reply
        assert_pass_kept(reply["result"], body, url, place)
        assert host.paths == [PASS_PATH]
        assert len(proxy.heads) == 1 and proxy.heads[0].startswith("CONNECT passes.example.com:443 HTTP/1.1\r\n"), \
            proxy.heads
        assert proxy.upstream_bytes.startswith(b"\x16\x03")  # TLS inside the tunnel
        assert PASS_PATH.encode() not in proxy.upstream_bytes

        server.sync()
        assert sent_statuses(backend) == {("w", 2)}
    finally:
        proxy.close()
        host.close()
