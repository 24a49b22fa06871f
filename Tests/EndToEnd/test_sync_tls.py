"""Sync over https, end to end: the fake backend behind TLS with a throwaway CA made at test time by
the openssl tool. The server must verify the certificate chain (against --backend-ca-file here; the
system store does not know this CA) and the name or IP address it connected to, and say which check
failed when one does."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import tempfile

import pytest

from fake_backend import FakeBackend
from sync_support import (  # noqa: F401  (fixtures)
    BIN,
    SyncServer,
    backend_args,
    servers,
    store_path,
    token_env,
)

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl tool is missing (script/bootstrap)")


def _openssl(*args: str, cwd: str) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _issue(directory: str, name: str, alt_names: str) -> None:
    """A P-256 key and a server certificate `name.pem` for `alt_names`, signed by the test CA."""
    _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}", cwd=directory)
    with open(os.path.join(directory, f"{name}.ext"), "w") as ext:
        ext.write(f"subjectAltName={alt_names}\nbasicConstraints=CA:FALSE\n"
                  "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
    _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "2",
             "-days", "2", "-sha256", "-extfile", f"{name}.ext", "-out", f"{name}.pem", cwd=directory)


@pytest.fixture(scope="module")
def pki():
    """A throwaway CA, a certificate for 127.0.0.1 and localhost, and one for another host."""
    directory = tempfile.mkdtemp(prefix="inbox-tls-")
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-sha256", "-subj", "/CN=inbox-rpc test CA",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             cwd=directory)
    _issue(directory, "loopback", "IP:127.0.0.1,DNS:localhost")
    _issue(directory, "other", "DNS:other.example,IP:10.9.8.7")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def _context(pki: str, name: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(pki, f"{name}.pem"), os.path.join(pki, f"{name}.key"))
    return context


@pytest.fixture
def tls_backend(pki, request):
    """The fake backend over https; the test's parameter (if any) is (certificate, host in the URL)."""
    certificate, host = getattr(request, "param", ("loopback", "127.0.0.1"))
    fake = FakeBackend(tls=_context(pki, certificate), host=host)
    yield fake
    fake.close()


def start(servers, store_path, backend, *extra, env=None) -> SyncServer:
    server = SyncServer(store_path, backend_args(backend, *extra), env=env or token_env())
    servers.append(server)
    return server


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
    """OpenSSL's default store, which SSL_CERT_FILE points elsewhere: here, at the test CA."""
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
        plain.tls = _context(pki, "loopback")  # the URL says https; the server still speaks plain http
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
