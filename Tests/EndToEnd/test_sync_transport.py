"""What libcurl brings to the sync, end to end: HTTP/2 offered, compressed replies within the size
limit, one connection for the calls of a sync, a cancel that aborts a stalled transfer at once,
SOCKS5 and https proxies, a server that starts without loading libcurl and keeps serving where it
is missing, and the release binary resolving `localhost`."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time

import pytest

from connect_proxy import ConnectProxy
from fake_backend import FakeBackend
from sync_support import (  # noqa: F401  (fixtures)
    SyncServer,
    backend,
    push_payload,
    servers,
    start_server,
    store_path,
    token_env,
)
from tls_support import needs_openssl, pki, server_context, tls_backend  # noqa: F401  (fixtures)

RELEASE_BIN = os.environ.get("INBOX_RPC_RELEASE_BIN", os.path.join(os.getcwd(), ".build/release/inbox-rpc"))


def start_tls(servers, store_path, backend, pki, **variables) -> SyncServer:
    """A server that trusts the test CA (for the backend and an https proxy), with these variables."""
    return start_server(servers, store_path, backend, "--backend-ca-file", os.path.join(pki, "ca.pem"),
                        env={**token_env(), **variables})


def test_the_calls_of_a_sync_share_one_connection(servers, store_path, backend):
    for name in ("a", "b", "c"):
        backend.add_message(name)
    server = start_server(servers, store_path, backend)
    assert server.sync()["added"] == 3
    server.call("message.markRead", {"ids": ["a", "b"]})
    server.call("message.dismiss", {"id": "c"})
    assert server.sync()["pushed"] == 3
    assert [r.method for r in backend.requests].count("inboxStatus") == 3
    assert len(backend.requests) == 5
    assert backend.connections == 1, f"{len(backend.requests)} calls took {backend.connections} connections"


@needs_openssl
def test_http2_is_offered_to_the_backend(servers, store_path, pki):
    """libcurl asks for HTTP/2 in the TLS handshake (ALPN): a listener that accepts only h2 gets it."""
    context = server_context(pki, "loopback")
    context.set_alpn_protocols(["h2"])
    listener = socket.create_server(("127.0.0.1", 0))
    chosen: list[str | None] = []

    def accept() -> None:
        client, _ = listener.accept()
        client.settimeout(5)
        try:
            with context.wrap_socket(client, server_side=True) as tls:
                chosen.append(tls.selected_alpn_protocol())
        except OSError:
            chosen.append(None)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    url = f"https://127.0.0.1:{listener.getsockname()[1]}/json/1.3/"
    server = SyncServer(store_path, ["--backend-url", url, "--application", "APP-12345",
                                     "--backend-ca-file", os.path.join(pki, "ca.pem"), "--backend-timeout", "2"])
    servers.append(server)
    server.error_of("feed.sync", {"force": True})  # the listener speaks no HTTP/2 after the handshake
    thread.join(5)
    listener.close()
    assert chosen == ["h2"], chosen


def test_compressed_replies_are_accepted(servers, store_path, backend):
    backend.gzip = True
    for index in range(50):
        backend.add_message(f"m{index}")
    server = start_server(servers, store_path, backend)
    assert server.sync()["added"] == 50
    assert "gzip" in backend.requests[0].headers["accept-encoding"]


def test_the_size_limit_applies_to_the_decoded_reply(servers, store_path, backend):
    """A reply of 33 MiB once decoded (a few hundred KiB on the wire) is cut off at the 32 MiB limit."""
    backend.gzip = True
    backend.body_override = b" " * (33 << 20)
    server = start_server(servers, store_path, backend)
    error = server.error_of("feed.sync", {"force": True}, timeout=30)
    assert error["code"] == -32032, error
    assert error["data"]["reason"] == "the reply is larger than 33554432 bytes (--max-sync-reply-bytes)", error
    backend.body_override = None
    backend.add_message("a")
    assert server.sync()["added"] == 1


def test_a_cancel_aborts_a_stalled_transfer(servers, store_path, backend):
    # The backend stalls past every wait here: only an aborted transfer answers. How soon it is
    # aborted is measured by bench/sync_memory.py, not asserted.
    backend.add_message("a")
    server = start_server(servers, store_path, backend, "--backend-timeout", "600")
    backend.fail("timeout", method="getInboxMessages", delay=600)
    id = server.send("feed.sync", {"force": True})
    deadline = time.monotonic() + 60
    while not backend.calls("getInboxMessages"):  # the request has arrived; the backend stalls
        assert time.monotonic() < deadline, "the request never reached the backend"
        time.sleep(0.005)
    time.sleep(0.1)
    server.notify("$/cancelRequest", {"id": id})
    reply = server.reply(id, timeout=120)
    assert reply["error"]["code"] == -32800, reply
    assert server.sync()["added"] == 1


@pytest.fixture
def microsocks():
    """A SOCKS5 proxy on loopback (Debian's microsocks), asking for user `me`, password `p@ss`."""
    path = shutil.which("microsocks")
    if path is None:
        pytest.fail("microsocks is missing (script/bootstrap installs it)", pytrace=False)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([path, "-i", "127.0.0.1", "-p", str(port), "-u", "me", "-P", "p@ss"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "microsocks did not start"
            time.sleep(0.02)
    yield port
    process.kill()
    process.wait()


@needs_openssl
@pytest.mark.parametrize("scheme", ["socks5", "socks5h"])
def test_sync_through_a_socks5_proxy(servers, store_path, tls_backend, pki, microsocks, scheme):
    tls_backend.add_message("a")
    server = start_tls(servers, store_path, tls_backend, pki, https_proxy=f"{scheme}://me:p%40ss@127.0.0.1:{microsocks}")
    assert server.sync()["added"] == 1
    assert tls_backend.connections == 1
    # The proxy carried it: with the wrong password, the proxy refuses and nothing reaches the backend.
    before = len(tls_backend.requests)
    refused = start_tls(servers, store_path + "-2", tls_backend, pki,
                        https_proxy=f"{scheme}://me:wrong@127.0.0.1:{microsocks}")
    error = refused.error_of("feed.sync", {"force": True})
    assert error["code"] == -32030, error
    assert f"the {scheme} proxy 127.0.0.1 port {microsocks} failed" in error["data"]["reason"], error
    assert "wrong" not in refused.output_text()
    assert len(tls_backend.requests) == before


@needs_openssl
def test_sync_through_an_https_proxy(servers, store_path, tls_backend, pki):
    proxy = ConnectProxy(tls=server_context(pki, "loopback"))
    try:
        tls_backend.add_message("a")
        server = start_tls(servers, store_path, tls_backend, pki, https_proxy=proxy.url)
        assert server.sync()["added"] == 1
        authority = f"{tls_backend.host}:{tls_backend.port}"
        assert len(proxy.heads) == 1 and proxy.heads[0].startswith(f"CONNECT {authority} HTTP/1.1\r\n")
        # Inside the TLS session with the proxy, the backend's own TLS: the token never shows.
        assert proxy.upstream_bytes.startswith(b"\x16\x03"), proxy.upstream_bytes[:8]
        assert b"fake-token" not in proxy.upstream_bytes
    finally:
        proxy.close()


def libraries_of(pid: int) -> str:
    with open(f"/proc/{pid}/maps") as maps:
        return maps.read()


def test_libcurl_is_loaded_by_a_backend_url_or_the_first_sync_only(servers, store_path, backend):
    plain = SyncServer(store_path, ["--application", "APP-12345"], env=token_env())
    servers.append(plain)
    plain.call("rpc.ping")
    assert "libcurl" not in libraries_of(plain.proc.pid), "start-up must not load libcurl"
    plain.call("config.get")
    assert "libcurl" not in libraries_of(plain.proc.pid)
    plain.call("config.set", {"backend": {"baseUrl": "https://inbox.example.com/json/1.3/"}})
    assert "libcurl" in libraries_of(plain.proc.pid), "libcurl's URL parser reads a URL when it is set"
    plain.close()
    server = start_server(servers, store_path, backend)
    server.call("rpc.ping")
    assert "libcurl" in libraries_of(server.proc.pid), "libcurl's URL parser reads --backend-url"
    server.sync()


def test_without_libcurl_sync_is_unavailable_and_the_rest_serves(servers, store_path, backend):
    backend.add_message("a")
    server = start_server(servers, store_path, backend,
                          env={**token_env(), "INBOX_RPC_LIBCURL": "/nonexistent/libcurl.so.4"})
    for _ in range(2):  # the answer is the same every time, and nothing is sent
        error = server.error_of("feed.sync", {"force": True})
        assert error["code"] == -32030, error
        assert error["data"]["reason"].startswith("libcurl cannot be loaded: /nonexistent/libcurl.so.4"), error
    assert not backend.requests
    server.call("message.ingest", {"payload": push_payload("local")})
    assert list(server.feed()) == ["local"]
    assert server.call("rpc.ping") == "pong"


@pytest.mark.release_binary
def test_the_release_binary_syncs_with_a_backend_named_localhost(servers, store_path):
    """Name resolution as shipped: the release build, not only the debug one, resolves `localhost`."""
    if not os.path.exists(RELEASE_BIN):
        pytest.fail(f"no release binary at {RELEASE_BIN} (swift build -c release -Xswiftc -static-stdlib, "
                    "or set INBOX_RPC_RELEASE_BIN)", pytrace=False)
    named = FakeBackend(host="localhost")
    try:
        named.add_message("a")
        server = start_server(servers, store_path, named, binary=RELEASE_BIN)
        assert server.sync()["added"] == 1
        assert named.requests[0].headers["host"] == f"localhost:{named.port}"
    finally:
        named.close()
