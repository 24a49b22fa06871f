"""Sync over https through an HTTP proxy, end to end: `https_proxy` names the proxy, the server asks
it for a CONNECT tunnel to the backend and speaks TLS with the backend inside it, so the proxy sees
the backend's name and port and nothing else: not the request, not the token. `no_proxy` goes
direct; a proxy that refuses, is down or is misnamed is a clear -32030 and the local feed keeps
working."""

from __future__ import annotations

import base64
import os

import pytest

from connect_proxy import ConnectProxy
from fake_backend import TOKEN
from sync_support import (  # noqa: F401  (fixtures)
    SyncServer,
    push_payload,
    servers,
    start_server,
    store_path,
    token_env,
)
from tls_support import needs_openssl, pki, tls_backend  # noqa: F401  (fixtures)

pytestmark = needs_openssl


@pytest.fixture
def proxy():
    server = ConnectProxy()
    yield server
    server.close()


def start(servers, store_path, backend, pki, **variables) -> SyncServer:
    """A server that trusts the test CA, with these environment variables."""
    return start_server(servers, store_path, backend, "--backend-ca-file", os.path.join(pki, "ca.pem"),
                        env={**token_env(), **variables})


@pytest.mark.parametrize("tls_backend", [("loopback", "127.0.0.1"), ("loopback", "localhost")], indirect=True,
                         ids=["ip", "name"])
def test_sync_through_the_proxy(servers, store_path, tls_backend, pki, proxy):
    tls_backend.add_message("a")
    server = start(servers, store_path, tls_backend, pki, https_proxy=proxy.url, INBOX_RPC_LOG_LEVEL="info")
    assert server.sync()["added"] == 1
    server.call("message.markRead", {"ids": ["a"]})
    assert server.sync()["pushed"] == 1
    assert tls_backend.status_of("a") == 2
    authority = f"{tls_backend.host}:{tls_backend.port}"
    # One tunnel, to the backend's own name and port, kept for every call (one connection).
    assert len(proxy.heads) == 1, proxy.heads
    assert proxy.heads[0].startswith(f"CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n"), proxy.heads
    assert [r.method for r in tls_backend.requests] == ["getInboxMessages", "inboxStatus", "getInboxMessages"]
    assert tls_backend.requests[0].headers["authorization"] == f"Token {TOKEN}"
    # What crossed the proxy towards the backend was TLS: the token and the API paths never show.
    assert proxy.upstream_bytes.startswith(b"\x16\x03"), proxy.upstream_bytes[:8]
    for secret in (TOKEN.encode(), b"getInboxMessages", b"inboxStatus"):
        assert secret not in proxy.upstream_bytes
    assert f"https to the backend goes through the proxy 127.0.0.1 port {proxy.port} (https_proxy)" in (
        server.stderr_text())


def test_proxy_credentials(servers, store_path, tls_backend, pki):
    proxy = ConnectProxy(authorization="Basic " + base64.b64encode(b"me:p@ss").decode())
    try:
        tls_backend.add_message("a")
        server = start(servers, store_path, tls_backend, pki,
                       HTTPS_PROXY=f"http://me:p%40ss@127.0.0.1:{proxy.port}")
        assert server.sync()["added"] == 1
        assert len(proxy.heads) == 1
        assert "me:p" not in server.output_text()
    finally:
        proxy.close()


def test_a_refused_tunnel_is_unavailable_and_the_feed_still_works(servers, store_path, tls_backend, pki):
    proxy = ConnectProxy(authorization="Basic bm9ib2R5")
    try:
        tls_backend.add_message("a")
        server = start(servers, store_path, tls_backend, pki,
                       https_proxy=f"http://me:wrong@127.0.0.1:{proxy.port}")
        error = server.error_of("feed.sync", {"force": True})
        assert error["code"] == -32030, error
        authority = f"{tls_backend.host} port {tls_backend.port}"
        assert error["data"]["reason"] == (
            f"the proxy 127.0.0.1 port {proxy.port} refused the tunnel to {authority}: HTTP 407"), error
        assert "wrong" not in server.output_text()
        assert not tls_backend.requests
        server.call("message.ingest", {"payload": push_payload("local")})
        assert list(server.feed()) == ["local"]
    finally:
        proxy.close()


def test_no_proxy_goes_direct(servers, store_path, tls_backend, pki, proxy):
    tls_backend.add_message("a")
    server = start(servers, store_path, tls_backend, pki, https_proxy=proxy.url,
                   no_proxy=f"example.org, {tls_backend.host}")
    assert server.sync()["added"] == 1
    assert proxy.heads == []


def test_a_proxy_that_is_down(servers, store_path, tls_backend, pki, proxy):
    port = proxy.port
    proxy.close()
    server = start(servers, store_path, tls_backend, pki, https_proxy=f"127.0.0.1:{port}")
    error = server.error_of("feed.sync", {"force": True})
    assert error["code"] == -32030, error
    assert error["data"]["reason"] == f"cannot connect to 127.0.0.1 port {port}: Connection refused", error


def test_an_unusable_proxy_variable_is_never_bypassed(servers, store_path, tls_backend, pki):
    tls_backend.add_message("a")
    server = start(servers, store_path, tls_backend, pki, ALL_PROXY="ftp://127.0.0.1:1080")
    error = server.error_of("feed.sync", {"force": True})
    assert error["code"] == -32030, error
    reason = ("ALL_PROXY: the proxy URL uses ftp://; the proxies supported are "
              "http://, https://, socks4://, socks4a://, socks5://, socks5h://")
    assert error["data"]["reason"] == reason, error
    assert not tls_backend.requests
    assert f"ALL_PROXY is not usable: {reason.split(': ', 1)[1]}" in server.stderr_text()
