"""Sync over https, end to end: the fake backend behind TLS with a throwaway CA made at test time by
the openssl tool. The server must verify the certificate chain (against --backend-ca-file here; the
system store does not know this CA) and the name or IP address it connected to, and say which check
failed when one does."""

from __future__ import annotations

import os
import subprocess

import pytest

from fake_backend import FakeBackend
from sync_support import (  # noqa: F401  (fixtures)
    BIN,
    SyncServer,
    backend_args,
    servers,
    start_server as start,
    store_path,
    token_env,
)
from tls_support import needs_openssl, pki, server_context, tls_backend  # noqa: F401  (fixtures)

pytestmark = needs_openssl


@pytest.mark.parametrize("tls_backend", [("loopback", "127.0.0.1"), ("loopback", "localhost")], indirect=True,
                         ids=["ip", "name"])
def test_a_sync_over_https_with_the_ca_file(servers, store_path, tls_backend, pki):
    assert tls_backend.url.startswith("https://")
    tls_backend.add_message("a")
    server = start(servers, store_path, tls_backend, "--backend-ca-file", os.path.join(pki, "ca.pem"))
    assert server.sync()["added"] == 1
    server.call("message.markRead", {"ids": ["a"]})
    result = server.sync()
    assert result["pushed"] == 1 and result["pending"] == 0, result
    assert tls_backend.status_of("a") == 2
    assert [r.method for r in tls_backend.requests] == ["getInboxMessages", "inboxStatus", "getInboxMessages"]
    assert tls_backend.requests[0].headers["host"] == f"{tls_backend.host}:{tls_backend.port}"


def test_the_ca_file_from_the_environment_and_chunked_replies(servers, store_path, tls_backend, pki):
    tls_backend.chunked = True
    for index in range(300):  # a reply of many chunks
        tls_backend.add_message(f"m{index}")
    env = {**token_env(), "INBOX_RPC_BACKEND_CA_FILE": os.path.join(pki, "ca.pem")}
    server = start(servers, store_path, tls_backend, env=env)
    assert server.sync()["added"] == 300


def test_without_the_ca_file_the_system_store_is_used(servers, store_path, tls_backend, pki):
    """The system's store, which SSL_CERT_FILE points elsewhere (as for the curl tool): here, at the test CA."""
    tls_backend.add_message("a")
    server = start(servers, store_path, tls_backend, env={**token_env(), "SSL_CERT_FILE": os.path.join(pki, "ca.pem")})
    assert server.sync()["added"] == 1


def test_without_the_ca_file_the_certificate_is_not_trusted(servers, store_path, tls_backend):
    tls_backend.add_message("a")
    server = start(servers, store_path, tls_backend)
    error = server.error_of("feed.sync", {"force": True})
    assert error["code"] == -32030, error
    reason = error["data"]["reason"]
    assert "certificate" in reason and "issuer" in reason, reason
    assert not tls_backend.requests, "nothing is sent before the server is trusted"
    assert server.feed() == {}


@pytest.mark.parametrize("tls_backend", [("other", "127.0.0.1"), ("other", "localhost")], indirect=True,
                         ids=["ip", "name"])
def test_a_certificate_for_another_name_is_refused(servers, store_path, tls_backend, pki):
    tls_backend.add_message("a")
    server = start(servers, store_path, tls_backend, "--backend-ca-file", os.path.join(pki, "ca.pem"))
    error = server.error_of("feed.sync", {"force": True})
    assert error["code"] == -32030, error
    reason = error["data"]["reason"]
    assert "certificate" in reason and "mismatch" in reason, reason
    assert not tls_backend.requests


def test_https_to_a_server_without_tls_fails_in_the_handshake(servers, store_path, pki):
    plain = FakeBackend()
    try:
        plain.tls = server_context(pki, "loopback")  # the URL says https; the server still speaks plain http
        server = start(servers, store_path, plain, "--backend-ca-file", os.path.join(pki, "ca.pem"))
        error = server.error_of("feed.sync", {"force": True})
        assert error["code"] == -32030, error
        assert error["data"]["reason"].startswith(f"TLS handshake with 127.0.0.1 port {plain.port} failed"), error
    finally:
        plain.close()


def test_an_unreadable_ca_file_is_a_usage_error(store_path, tmp_path):
    missing = str(tmp_path / "missing.pem")
    run = subprocess.run([BIN, "--store", store_path, "--backend-ca-file", missing], input=b"",
                         capture_output=True, timeout=10)
    assert run.returncode == 2
    assert f"--backend-ca-file: cannot read {missing}" in run.stderr.decode()
