"""A throwaway PKI for the https tests, made at test time by the openssl tool: a CA, a certificate
for 127.0.0.1 and localhost, and one for another host; and the fake backend behind TLS."""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import tempfile

import pytest

from fake_backend import FakeBackend

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl tool is missing (script/bootstrap)")


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


def make_ca(directory: str) -> None:
    """A throwaway CA: `ca.pem` and `ca.key` in `directory`."""
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
             "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-sha256", "-subj", "/CN=inbox-rpc test CA",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             cwd=directory)


@pytest.fixture(scope="module")
def pki():
    """A throwaway CA, a certificate for 127.0.0.1 and localhost, and one for another host."""
    directory = tempfile.mkdtemp(prefix="inbox-tls-")
    make_ca(directory)
    _issue(directory, "loopback", "IP:127.0.0.1,DNS:localhost")
    _issue(directory, "other", "DNS:other.example,IP:10.9.8.7")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def server_context(pki: str, name: str) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(pki, f"{name}.pem"), os.path.join(pki, f"{name}.key"))
    return context


@pytest.fixture
def tls_backend(pki, request):
    """The fake backend over https; the test's parameter (if any) is (certificate, host in the URL)."""
    certificate, host = getattr(request, "param", ("loopback", "127.0.0.1"))
    fake = FakeBackend(tls=server_context(pki, certificate), host=host)
    yield fake
    fake.close()
