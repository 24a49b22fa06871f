"""`inbox-rpc backend` driven from a test, with the part of fake_backend.FakeBackend's face that a
process started from a fixture can offer: messages added (a restart once it runs), faults given as its
--fault rules, its request log read back, statuses worked out from the fixture and the log, and
down()/up() as a restart on the same port from the statuses it had reached.

    double = BackendDouble(binary)          # token, application as fake_backend's
    double.add_message("m1")                # before the first use of .url
    server = start(servers, store, double)  # sync_support.start_server takes either backend
    double.calls("inboxStatus")             # records with .request, .reply, .headers (no token)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from typing import Any

import pytest

from fake_backend import APP, TOKEN, USER, FakeBackend, Message

# fake_backend's fault names, as the double's --fault kinds.
FAULT_KINDS = {
    "http500": "500", "http503": "503", "status210": "code=210", "invalid_json": "garbage", "empty": "empty",
    "drop": "reset",
}


@dataclass
class Recorded:
    """One line of the double's request log."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    reply: dict

    @property
    def request(self) -> dict:
        return (self.body or {}).get("request", {}) if isinstance(self.body, dict) else {}


class BackendDouble:
    def __init__(self, binary: str, *, token: str | None = TOKEN, application: str | None = APP,
                 fixture: Any = None, args: tuple[str, ...] = (), env: dict[str, str] | None = None):
        self.binary = binary
        self.token = token
        self.application = application
        self.fixture = fixture  # a whole fixture of its own, instead of the messages added
        self.args = list(args)
        self.env = env
        self.directory = tempfile.mkdtemp(prefix="inbox-double-")
        self._messages: dict[str, Message] = {}
        self._raw: list[Any] = []
        self._faults: list[str] = []
        self._orders = 50_000_000_000_000_000
        self._records: list[Recorded] = []  # those of earlier runs (before a down())
        self._skip = 0  # records dropped by reset_records()
        self._runs = 0
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self._url: str | None = None
        self.stderr = bytearray()

    # -- before the start ----------------------------------------------------------------
    def add_message(self, inbox_id: str, *, user: str = USER, order: str | None = None, **fields) -> Message:
        """A message of the fixture; once the double runs, it restarts (on its port) to serve it."""
        assert user == USER, "the double serves every user the same fixture"
        running = self.proc is not None
        self.down()
        self._orders += 1
        message = Message(inbox_id, order or str(self._orders), title=fields.pop("title", f"Title {inbox_id}"),
                          hash=fields.pop("hash", f"H-{inbox_id}"), quirk=fields.pop("quirk", len(self._messages) % 2),
                          **fields)
        self._messages[inbox_id] = message
        if running:
            self.up()
        return message

    def add_raw(self, entry: Any) -> None:
        assert self.proc is None
        self._raw.append(entry)

    def fail(self, kind: str, *, method: str | None = None, delay: float = 1.0, times: int = 1) -> None:
        assert self.proc is None, "faults are --fault rules: add them before the double starts"
        word = f"delay={int(delay * 1000)}" if kind == "timeout" else FAULT_KINDS[kind]
        self._faults.append(f"{method or '*'}:{word}:{times}")

    # -- the process -----------------------------------------------------------------------
    @property
    def url(self) -> str:
        if self.proc is None:
            self.up()
        return self._url

    def up(self) -> None:
        if self.proc is not None:
            return
        self._runs += 1
        fixture_path = os.path.join(self.directory, f"fixture-{self._runs}.json")
        with open(fixture_path, "w") as out:
            json.dump(self.fixture if self.fixture is not None else self._fixture(), out)
        # The fixture bound is the double's own test (test_backend_double.py); here it fits what a test adds.
        fixture_bytes = max(16 << 20, os.path.getsize(fixture_path))
        self.log_path = os.path.join(self.directory, f"requests-{self._runs}.jsonl")
        command = [self.binary, "backend", "--fixture", fixture_path, "--log", self.log_path,
                   "--max-fixture-bytes", str(fixture_bytes), *self.args]
        if self.port:
            command += ["--port", str(self.port)]
        if self.application:
            command += ["--application", self.application]
        if self.token:
            token_path = os.path.join(self.directory, "token")
            with open(token_path, "w") as out:
                out.write(self.token)
            command += ["--token-file", token_path]
        for rule in self._faults if self._runs == 1 else []:
            command += ["--fault", rule]
        env = {k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_")}
        env.update(self.env or {})
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        threading.Thread(target=self._read_stderr, args=(self.proc,), daemon=True).start()
        self._url = self._first_line(self.proc)
        self.port = int(self._url.rsplit(":", 1)[1].split("/", 1)[0])

    @staticmethod
    def _first_line(proc: subprocess.Popen, timeout: float = 20.0) -> str:
        """The URL line; a double that exits first fails the test with its stderr."""
        found: list[bytes] = []
        reader = threading.Thread(target=lambda: found.append(proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not found:
            proc.kill()
            raise AssertionError(f"inbox-rpc backend printed no URL within {timeout}s")
        if not found[0]:
            raise AssertionError(f"inbox-rpc backend exited {proc.wait(10)} before printing its URL")
        return found[0].decode().strip()

    def _read_stderr(self, proc: subprocess.Popen) -> None:
        for line in proc.stderr:
            self.stderr += line

    def down(self) -> None:
        """Stops the double: connections are refused until up(), which serves what it had reached."""
        if self.proc is None:
            return
        self._records += self._read_log()
        statuses = self.statuses()
        for message in self._messages.values():
            message.status = statuses[message.inbox_id]
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(10)
        self.proc = None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    # -- what it saw -----------------------------------------------------------------------
    def _fixture(self) -> list:
        # In the fake's two wire shapes (numbers as strings or numbers, params as a string or an object).
        return [FakeBackend.wire(m) for m in self._messages.values()] + self._raw

    def _read_log(self) -> list[Recorded]:
        if self.proc is None or not os.path.exists(self.log_path):
            return []
        with open(self.log_path) as log:
            lines = [json.loads(line) for line in log if line.endswith("\n")]
        return [Recorded(r["method"], r["path"], r["headers"], r.get("body"), r["reply"]) for r in lines]

    @property
    def requests(self) -> list[Recorded]:
        return (self._records + self._read_log())[self._skip:]

    def calls(self, method: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == method]

    def reset_records(self) -> None:
        self._skip = len(self._records + self._read_log())

    def inbox(self, user: str = USER) -> dict[str, Message]:
        return self._messages

    def statuses(self, *, user: str = USER) -> dict[str, int]:
        """Each message's status: its fixture's, raised by every inboxStatus the double applied."""
        by_order = {m.order: m.inbox_id for m in self._messages.values()}
        statuses = {m.inbox_id: m.status for m in self._messages.values()}
        for record in self._records + self._read_log():
            request = record.request
            if record.method == "inboxStatus" and record.reply.get("applied") and request.get("userId", user) == user:
                inbox_id = by_order.get(str(request.get("inbox_code")))
                if inbox_id is not None:
                    statuses[inbox_id] = max(statuses[inbox_id], request["status"])
        return statuses

    def status_of(self, inbox_id: str, *, user: str = USER) -> int | None:
        return self.statuses(user=user).get(inbox_id)

    def visible(self, *, user: str = USER) -> dict[str, int]:
        return {i: s for i, s in self.statuses(user=user).items() if s < 4}


@pytest.fixture(params=["fake", "double"], name="backend")
def either_backend(request):
    """`backend` for a module that imports this: each test once with the fake (in-process) and
    once with the double (`inbox-rpc backend`)."""
    from fake_backend import FakeBackend
    from sync_support import BIN

    chosen = FakeBackend() if request.param == "fake" else BackendDouble(BIN)
    yield chosen
    chosen.close()
