"""The backend URL is checked by libcurl's own URL parser when it is set (flag, environment,
`config.set`), so a server that starts can also sync; and a URL that sends the token in clear (http)
is taken only from the command line or environment, never from a setting read back from the store."""

from __future__ import annotations

import os
import sqlite3
import subprocess

import pytest

from fake_backend import TOKEN, FakeBackend
from sync_support import SyncServer, backend, servers, store_path, token_env  # noqa: F401  (fixtures)

from conftest import BIN

BAD = "http://[127.0.0.1]:{port}/json/1.3/"  # an IPv4 address in IPv6 brackets: libcurl refuses it
NOT_HOST_SAFE = "APP_NO-DEFAULT"  # no default https host can be made of it: nothing leaves the machine


def start_with(store: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_")}
    full.update(env or {})
    return subprocess.run([BIN, "--store", store, *args], input=b"", capture_output=True, timeout=10, env=full)


def test_a_url_libcurl_cannot_use_stops_the_start_with_exit_2(store_path, backend):
    url = BAD.format(port=backend.port)
    for run in (start_with(store_path, "--backend-url", url),
                start_with(store_path, env={"INBOX_RPC_BACKEND_URL": url})):
        assert run.returncode == 2, run.stderr
        assert b"cannot be used by libcurl" in run.stderr, run.stderr
    assert start_with(store_path, "--backend-url", backend.url).returncode == 0


def test_config_set_refuses_a_url_libcurl_cannot_use(servers, store_path, backend):
    server = SyncServer(store_path, ["--application", "APP-12345"], env=token_env())
    servers.append(server)
    error = server.error_of("config.set", {"backend": {"baseUrl": "https://[127.0.0.1]:8443/"}})
    assert error["code"] == -32602 and error["data"]["param"] == "backend.baseUrl", error
    assert "libcurl" in error["data"]["reason"], error
    assert server.call("config.get")["backend"]["baseUrl"] is None


def test_without_libcurl_the_own_check_stands_alone(store_path):
    run = start_with(store_path, "--backend-url", BAD.format(port=1), env={"INBOX_RPC_LIBCURL": "libnothing.so.0"})
    assert run.returncode == 0, run.stderr


def test_a_saved_http_url_is_not_used_without_the_flag(servers, store_path, backend):
    first = SyncServer(store_path, ["--backend-url", backend.url, "--application", NOT_HOST_SAFE], env=token_env())
    servers.append(first)
    assert first.call("config.get")["backend"]["baseUrl"] == backend.url
    first.close()
    requests = len(backend.requests)
    # The same store later, or one another process wrote: the http URL is only a saved setting now.
    db = sqlite3.connect(store_path)
    assert backend.url in db.execute("SELECT value FROM settings WHERE key = 'backend'").fetchone()[0]
    db.close()
    second = SyncServer(store_path, ["--application", NOT_HOST_SAFE], env=token_env())
    servers.append(second)
    config = second.call("config.get")["backend"]
    assert config["baseUrl"] is None and config["effectiveBaseUrl"] is None, config
    error = second.error_of("feed.sync", {"force": True})
    assert error["code"] == -32033, error
    assert len(backend.requests) == requests, "the token went to a URL read from the store"
    assert all(TOKEN not in str(r.headers) for r in backend.requests[requests:])
    second.close()
    third = SyncServer(store_path, ["--backend-url", backend.url, "--application", NOT_HOST_SAFE], env=token_env())
    servers.append(third)
    third.call_raw("feed.sync", {"force": True})  # given again on the command line, it is used
    assert len(backend.requests) > requests
    assert backend.requests[-1].headers["authorization"] == f"Token {TOKEN}"
