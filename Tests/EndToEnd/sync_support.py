"""Helpers for the sync tests: an inbox-rpc process on a file store, pointed at a FakeBackend.

Self-contained (it does not rely on conftest.py): `SyncServer` spawns the binary named by
INBOX_RPC_BIN, reads its stdout on a thread, matches replies to requests by id and keeps every
notification. Nothing here can hang: every wait has a deadline.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from typing import Any

import pytest

from contract import CONTRACT, ContractViolation

from fake_backend import APP, TOKEN, USER, FakeBackend

BIN = os.environ.get("INBOX_RPC_BIN", os.path.join(os.getcwd(), ".build/debug/inbox-rpc"))
PROXY_VARIABLES = {name for base in ("https_proxy", "all_proxy", "no_proxy") for name in (base, base.upper())}
T0 = 1_900_000_000  # the pinned clock: messages below are sent before it and expire after it


class RPCError(AssertionError):
    def __init__(self, error: dict):
        super().__init__(f"RPC error {error.get('code')}: {error.get('message')} {error.get('data')}")
        self.error = error
        self.code = error.get("code")
        self.data = error.get("data")


class SyncServer:
    """One inbox-rpc process over newline-delimited JSON."""

    _ids = itertools.count(1)

    def __init__(self, store: str, args: list[str] = (), env: dict[str, str] | None = None, clock: int | None = T0,
                 binary: str = BIN, face: str | None = None):
        if not os.path.exists(binary):
            pytest.fail(f"inbox-rpc binary not found at {binary!r} (set INBOX_RPC_BIN)", pytrace=False)
        # `face`: "mcp" starts the MCP face (`inbox-rpc mcp`) instead of the JSON-RPC one.
        self.cmd = [binary, *([face] if face else []), "--store", store, "--test-methods", *args]
        # The server's own settings and proxy variables come from the test alone, not the machine.
        full_env = {k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_") and k not in PROXY_VARIABLES}
        full_env.update(env or {})
        self.proc = subprocess.Popen(
            self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env, bufsize=0
        )
        self._cond = threading.Condition()
        self._replies: dict[Any, dict] = {}
        self._methods: dict[Any, str] = {}
        self._violations: list[str] = []
        self.notifications: list[dict] = []
        self.stdout = bytearray()
        self.stderr = bytearray()
        self._eof = False
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        if clock is not None:
            self.call("test.clock", {"now": clock})

    def _read_stdout(self) -> None:
        buffer = b""
        while True:
            data = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not data:
                with self._cond:
                    self._eof = True
                    self._cond.notify_all()
                return
            buffer += data
            with self._cond:
                self.stdout += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    message = json.loads(line)
                    if isinstance(message, dict) and "id" in message and "method" not in message:
                        self._replies[message["id"]] = message
                    else:
                        try:  # every notification must fit Schemas/ (reported on the next reply)
                            CONTRACT.check_notification(message)
                        except ContractViolation as violation:
                            self._violations.append(str(violation))
                        self.notifications.append(message)
                self._cond.notify_all()

    def _read_stderr(self) -> None:
        while True:
            data = os.read(self.proc.stderr.fileno(), 1 << 16)
            if not data:
                return
            with self._cond:
                self.stderr += data

    # -- requests --------------------------------------------------------------------
    def send(self, method: str, params: Any = None, id: Any = None) -> Any:
        id = next(self._ids) if id is None else id
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self._methods[id] = method
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        return id

    def notify(self, method: str, params: Any = None) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")

    def reply(self, id: Any, timeout: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout
        with self._cond:
            while id not in self._replies:
                remaining = deadline - time.monotonic()
                if self._eof:
                    raise AssertionError(f"server exited before replying to {id}: {self.stderr_text()[-800:]}")
                if remaining <= 0:
                    raise AssertionError(f"no reply to {id} within {timeout}s: {self.stderr_text()[-800:]}")
                self._cond.wait(remaining)
            reply = self._replies.pop(id)
            if self._violations:
                raise ContractViolation(self._violations[0])
        # Every reply must fit the schema of its method (Schemas/openrpc.json).
        CONTRACT.check_reply(self._methods.pop(id, ""), reply)
        return reply

    def call_raw(self, method: str, params: Any = None, timeout: float = 10.0) -> dict:
        return self.reply(self.send(method, params), timeout)

    def call(self, method: str, params: Any = None, timeout: float = 10.0) -> Any:
        reply = self.call_raw(method, params, timeout)
        if "error" in reply:
            raise RPCError(reply["error"])
        return reply["result"]

    def sync(self, force: bool = True, timeout: float = 20.0) -> Any:
        return self.call("feed.sync", {"force": force}, timeout)

    def error_of(self, method: str, params: Any = None, timeout: float = 10.0) -> dict:
        reply = self.call_raw(method, params, timeout)
        assert "error" in reply, f"{method} succeeded: {reply}"
        return reply["error"]

    # -- the feed ----------------------------------------------------------------------
    def feed(self) -> dict[str, dict]:
        """Every visible card by id."""
        cards, cursor = {}, None
        while True:
            params = {"limit": 200}
            if cursor:
                params["cursor"] = cursor
            page = self.call("feed.list", params)
            for card in page["items"]:
                cards[card["id"]] = card
            cursor = page["nextCursor"]
            if cursor is None:
                return cards

    def feed_statuses(self) -> dict[str, int]:
        """id -> the status the host sees (1 unread, 2 read, 3 opened)."""
        return {i: (3 if c["actionPerformed"] else 2 if c["read"] else 1) for i, c in self.feed().items()}

    def notifications_of(self, method: str) -> list[dict]:
        with self._cond:
            return [n for n in self.notifications if n.get("method") == method]

    # -- lifecycle ---------------------------------------------------------------------
    def stderr_text(self) -> str:
        with self._cond:
            return self.stderr.decode("utf-8", "replace")

    def output_text(self) -> str:
        with self._cond:
            return self.stdout.decode("utf-8", "replace") + self.stderr.decode("utf-8", "replace")

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        self._close_pipes()

    def close(self, timeout: float = 5.0) -> int:
        """End of input: the server finishes, closes the store and exits."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
            raise AssertionError(f"server did not exit within {timeout}s: {self.stderr_text()[-800:]}")
        self._close_pipes()
        return code

    def _close_pipes(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


def backend_args(backend: FakeBackend, *extra: str, user: str = USER) -> list[str]:
    return ["--backend-url", backend.url, "--application", APP, "--hwid", "hw-test", "--user-id", user, *extra]


def start_server(servers: list, store: str, backend: FakeBackend, *extra: str, env: dict[str, str] | None = None,
                 **kwargs: Any) -> SyncServer:
    """A server pointed at `backend` (with the token unless `env` says otherwise), added to `servers`."""
    server = SyncServer(store, backend_args(backend, *extra), env=env or token_env(), **kwargs)
    servers.append(server)
    return server


def token_env(token: str = TOKEN) -> dict[str, str]:
    return {"INBOX_RPC_API_TOKEN": token}


@pytest.fixture
def backend():
    fake = FakeBackend()
    yield fake
    fake.close()


@pytest.fixture
def store_path():
    directory = tempfile.mkdtemp(prefix="inbox-sync-")
    yield os.path.join(directory, "inbox.sqlite")
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def servers():
    """A list the test appends its servers to; every one still running is killed at the end."""
    started: list[SyncServer] = []
    yield started
    for server in started:
        if server.proc.poll() is None:
            server.kill()


def push_payload(inbox_id: str, sent: int = T0 - 60) -> dict:
    """A received push that carries inbox fields (Android shape)."""
    return {
        "header": f"Push {inbox_id}",
        "title": "Body",
        "pw_inbox": inbox_id,
        "inbox_params": json.dumps({"rt": str(T0 + 10**7)}),
        "google.sent_time": sent * 1000,
        "p": f"P-{inbox_id}",
    }
