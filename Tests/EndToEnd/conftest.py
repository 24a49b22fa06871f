"""Black-box fixtures for the inbox-rpc stdio JSON-RPC 2.0 transport.

Every test talks to the real binary over pipes. The binary path comes from the
environment variable INBOX_RPC_BIN (default: .build/debug/inbox-rpc of this checkout).
A missing binary FAILS every test (it must never turn into a green run).

Nothing here can hang: stdout is read by a background thread into a buffer and
every receive waits on a condition variable with a deadline; every test also
carries a pytest-timeout marker (30 s unless the test sets its own).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from typing import Any, Iterable

import pytest

import jsonschema_rs

from contract import CONTRACT
from other_user import copy_for_other_users, other_user_problem

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("INBOX_RPC_BIN", os.path.join(REPO_ROOT, ".build", "debug", "inbox-rpc"))
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

# Every wait here is for an event (a reply, the exit) under a deadline that only catches a hang: a
# deadline a test names is raised to HANG, since CI machines are loaded ten-fold. How fast things
# happen is measured in bench/, never asserted (script/check-test-time).
HANG = 60.0
DEFAULT_TIMEOUT = HANG  # seconds to wait for one reply frame
EXIT_TIMEOUT = HANG  # seconds to wait for the process to exit
TEST_TIMEOUT = 120  # hard per-test cap (pytest-timeout)

MISSING = object()


# --------------------------------------------------------------------------
# pytest plumbing
# --------------------------------------------------------------------------


def pytest_configure(config):
    config.addinivalue_line("markers", "release_binary: runs the release build (INBOX_RPC_RELEASE_BIN); script/test "
                            "runs these after it, the rest beside it")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(TEST_TIMEOUT))
    # Files whose tests allow the longest run first, each file's tests in their order: spread over
    # workers (pytest-xdist, script/test), the fault campaign then ends beside the rest, not after it.
    longest: dict[str, float] = {}
    for item in items:
        marker = item.get_closest_marker("timeout")
        allowed = float(marker.kwargs.get("timeout", marker.args[0] if marker.args else TEST_TIMEOUT))
        longest[item.path] = max(longest.get(item.path, 0.0), allowed)
    items.sort(key=lambda item: -longest[item.path])


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A randomized module names its seed, and the variable that replays it, on every failure."""
    outcome = yield
    report = outcome.get_result()
    seed, variable = getattr(item.module, "SEED", None), getattr(item.module, "SEED_ENV", None)
    if report.failed and isinstance(seed, int) and variable:
        report.sections.append(("seed", f"seed {seed}: replay with {variable}={seed}"))


def binary_problem() -> str | None:
    if not os.path.exists(BIN):
        return f"inbox-rpc binary not found at {BIN!r} (set INBOX_RPC_BIN, or build with `swift build`)"
    if not os.path.isfile(BIN) or not os.access(BIN, os.X_OK):
        return f"inbox-rpc binary at {BIN!r} is not an executable file"
    return None


@pytest.fixture(scope="session", autouse=True)
def server_bin() -> str:
    """Fails (never skips) every test when the binary is missing."""
    problem = binary_problem()
    if problem:
        pytest.fail(problem, pytrace=False)
    return BIN


@pytest.fixture(scope="session")
def other_user_bin(server_bin) -> str:
    """The binary as another user may run it (other_user.py): skips the test where this process
    cannot act as one."""
    problem = other_user_problem()
    if problem:
        print(f"skipped: {problem}")
        pytest.skip(problem)
    directory, path = copy_for_other_users(server_bin)
    yield path
    shutil.rmtree(directory, ignore_errors=True)


# --------------------------------------------------------------------------
# JSON helpers
# --------------------------------------------------------------------------


def dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON (never contains a raw newline)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _reject_constant(name):
    raise ValueError(f"non-JSON constant {name} in server output")


def loads(raw: bytes) -> Any:
    text = raw.decode("utf-8")  # strict: the server must emit valid UTF-8
    return json.loads(text, parse_constant=_reject_constant)


def canon(value: Any) -> str:
    """A canonical text for a JSON value that keeps int/float/bool apart."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def same_json(a: Any, b: Any) -> bool:
    """Exact JSON equality: 1 != 1.0 != true, key sets must match."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


RESPONSE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "id": {"type": ["string", "integer", "null"]},
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "integer"},
                "message": {"type": "string"},
                "data": {},
            },
            "additionalProperties": False,
        },
        "response": {
            "type": "object",
            "required": ["jsonrpc", "id"],
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "id": {"$ref": "#/$defs/id"},
                "result": {},
                "error": {"$ref": "#/$defs/error"},
            },
            "additionalProperties": False,
            "oneOf": [
                {"required": ["result"], "not": {"required": ["error"]}},
                {"required": ["error"], "not": {"required": ["result"]}},
            ],
        },
        "notification": {
            "type": "object",
            "required": ["jsonrpc", "method"],
            "properties": {
                "jsonrpc": {"const": "2.0"},
                "method": {"type": "string"},
                "params": {"type": ["object", "array"]},
            },
            "not": {"required": ["id"]},
            "additionalProperties": False,
        },
    },
    "oneOf": [
        {"$ref": "#/$defs/response"},
        {"$ref": "#/$defs/notification"},
        {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/response"}},
    ],
}

_validator = jsonschema_rs.Draft202012Validator(RESPONSE_SCHEMA)


def check_message(msg: Any) -> None:
    """Assert that msg is a well-formed server->host JSON-RPC message."""
    if not _validator.is_valid(msg):
        errors = sorted(e.message for e in _validator.iter_errors(msg))
        raise AssertionError(f"not a valid JSON-RPC message: {msg!r}: {errors[0]}")


def is_notification(msg: Any) -> bool:
    return isinstance(msg, dict) and "method" in msg and "id" not in msg


def assert_result(resp: Any, id: Any, value: Any = MISSING) -> Any:
    assert isinstance(resp, dict), f"expected a single response object, got {resp!r}"
    assert resp.get("jsonrpc") == "2.0", resp
    assert "error" not in resp, f"expected a result for id {id!r}, got error {resp!r}"
    assert "result" in resp, resp
    assert "id" in resp and same_json(resp["id"], id), f"expected id {id!r}, got {resp!r}"
    if value is not MISSING:
        assert same_json(resp["result"], value), f"expected result {value!r}, got {resp['result']!r}"
    return resp["result"]


def assert_error(resp: Any, id: Any, code: int | Iterable[int]) -> dict:
    codes = (code,) if isinstance(code, int) else tuple(code)
    assert isinstance(resp, dict), f"expected a single error object, got {resp!r}"
    assert resp.get("jsonrpc") == "2.0", resp
    assert "result" not in resp, f"expected error {codes} for id {id!r}, got result {resp!r}"
    assert "error" in resp, resp
    err = resp["error"]
    assert isinstance(err, dict), resp
    assert type(err.get("code")) is int and err["code"] in codes, f"expected code {codes}, got {resp!r}"
    assert isinstance(err.get("message"), str) and err["message"], resp
    assert "id" in resp and same_json(resp["id"], id), f"expected id {id!r}, got {resp!r}"
    return err


def summarize(resp: dict) -> tuple:
    """(kind, canonical id, canonical result | code) for multiset comparisons."""
    if "error" in resp:
        return ("error", canon(resp.get("id")), resp["error"].get("code"))
    return ("result", canon(resp.get("id")), canon(resp.get("result")))


def expected_summary(spec: dict) -> tuple:
    if "error" in spec:
        return ("error", canon(spec["id"]), spec["error"])
    return ("result", canon(spec["id"]), canon(spec["result"]))


def assert_batch(resp: Any, expected: list[dict]) -> None:
    """resp must be an array reply holding exactly the expected entries (any order)."""
    assert isinstance(resp, list), f"expected an array reply, got {resp!r}"
    for entry in resp:
        assert isinstance(entry, dict), resp
        if "error" in entry:
            assert isinstance(entry["error"].get("message"), str), entry
    got = sorted(summarize(e) for e in resp)
    want = sorted(expected_summary(e) for e in expected)
    assert got == want, f"batch reply mismatch\n got: {resp!r}\nwant: {expected!r}"


def strip_strings(text: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)


# --------------------------------------------------------------------------
# Framing helpers
# --------------------------------------------------------------------------

BOM = b"\xef\xbb\xbf"


def frame(body: bytes | str | Any, framing: str) -> bytes:
    """Wrap a body: ndjson -> body + \\n; lsp -> exact Content-Length header + body.

    A dict/list/scalar is JSON-encoded compactly; bytes/str are sent verbatim.
    """
    if isinstance(body, str):
        body = body.encode("utf-8")
    elif not isinstance(body, (bytes, bytearray)):
        body = dumps(body)
    if framing == "ndjson":
        return bytes(body) + b"\n"
    if framing == "lsp":
        return b"Content-Length: %d\r\n\r\n" % len(body) + bytes(body)
    raise ValueError(framing)


class ServerGone(AssertionError):
    pass


class Server:
    """One inbox-rpc process plus a non-blocking view of its stdout."""

    _ids = itertools.count(1000)

    def __init__(
        self,
        args: Iterable[str] = (),
        *,
        framing: str = "ndjson",
        stderr: str = "drain",  # drain | pipe (never read) | devnull
        read_stdout: bool = True,
        test_methods: bool = True,
        store: bool = True,
    ):
        cmd = [BIN]
        if store:
            cmd += ["--store", ":memory:"]
        if test_methods:
            cmd += ["--test-methods"]
        cmd += list(args)
        self.cmd = cmd
        self.framing = framing
        self.notifications: list[Any] = []
        self._pending_methods: dict[str, str] = {}
        self._buf = bytearray()
        self.stdout_all = bytearray()
        self._stderr = bytearray()
        self._cond = threading.Condition()
        self._eof = False
        self._threads: list[threading.Thread] = []
        err = {"drain": subprocess.PIPE, "pipe": subprocess.PIPE, "devnull": subprocess.DEVNULL}[stderr]
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, bufsize=0
        )
        self.stdin_fd = self.proc.stdin.fileno()
        if read_stdout:
            self._start(self._read_stdout)
        if stderr == "drain":
            self._start(self._read_stderr)

    # -- threads ----------------------------------------------------------
    def _start(self, target):
        t = threading.Thread(target=target, daemon=True)
        t.start()
        self._threads.append(t)

    def _read_stdout(self):
        fd = self.proc.stdout.fileno()
        while True:
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                data = b""
            with self._cond:
                if not data:
                    self._eof = True
                    self._cond.notify_all()
                    return
                self._buf += data
                self.stdout_all += data
                self._cond.notify_all()

    def _read_stderr(self):
        fd = self.proc.stderr.fileno()
        while True:
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                return
            if not data:
                return
            with self._cond:
                self._stderr += data

    # -- output -----------------------------------------------------------
    def stderr_bytes(self) -> bytes:
        with self._cond:
            return bytes(self._stderr)

    def stderr_tail(self, n: int = 800) -> str:
        return self.stderr_bytes()[-n:].decode("utf-8", "replace")

    def _diag(self) -> str:
        rc = self.proc.poll()
        return (
            f"[returncode={rc}; buffered stdout={bytes(self._buf[:300])!r}; "
            f"stderr tail={self.stderr_tail()!r}]"
        )

    def _take_frame(self, framing: str) -> bytes | None:
        buf = self._buf
        if framing == "ndjson":
            i = buf.find(b"\n")
            if i < 0:
                return None
            line = bytes(buf[:i])
            del buf[: i + 1]
            return line
        # LSP: the server must write exactly "Content-Length: N\r\n\r\n" + body.
        prefix = b"Content-Length: "
        n = min(len(buf), len(prefix))
        if bytes(buf[:n]) != prefix[:n]:
            raise AssertionError(f"LSP reply does not start with 'Content-Length: ': {bytes(buf[:200])!r}")
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            if len(buf) > 64:
                raise AssertionError(f"LSP reply header not terminated by CRLFCRLF: {bytes(buf[:200])!r}")
            return None
        header = bytes(buf[:end])
        m = re.fullmatch(rb"Content-Length: (0|[1-9][0-9]*)", header)
        if not m:
            raise AssertionError(f"LSP reply header is not exactly 'Content-Length: N': {header!r}")
        length = int(m.group(1))
        start = end + 4
        if len(buf) < start + length:
            return None
        body = bytes(buf[start : start + length])
        del buf[: start + length]
        return body

    def recv_raw(self, timeout: float = DEFAULT_TIMEOUT, framing: str | None = None) -> bytes:
        timeout = max(timeout, HANG)
        framing = framing or self.framing
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                body = self._take_frame(framing)
                if body is not None:
                    return body
                if self._eof:
                    raise ServerGone(f"server closed stdout before a complete frame {self._diag()}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no complete {framing} frame within {timeout}s {self._diag()}")
                self._cond.wait(remaining)

    def recv(self, timeout: float = DEFAULT_TIMEOUT, *, skip_notifications: bool = True) -> Any:
        """Next reply (response object or batch array), validated."""
        deadline = time.monotonic() + max(timeout, HANG)
        while True:
            raw = self.recv_raw(max(0.0, deadline - time.monotonic()))
            try:
                msg = loads(raw)
            except ValueError as e:
                raise AssertionError(f"server wrote a frame that is not JSON ({e}): {raw[:300]!r}")
            check_message(msg)
            self._check_contract(msg)
            if skip_notifications and is_notification(msg):
                self.notifications.append(msg)
                continue
            return msg

    def pending_stdout(self) -> bytes:
        with self._cond:
            return bytes(self._buf)

    def wait_stdout_eof(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._eof:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    # -- input ------------------------------------------------------------
    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.stdin_fd, view)
            view = view[n:]

    def write_chunks(self, data: bytes, sizes: Iterable[int], delay: float = 0.0) -> None:
        pos = 0
        for size in sizes:
            if pos >= len(data):
                break
            self.write(data[pos : pos + size])
            pos += size
            if delay:
                time.sleep(delay)
        if pos < len(data):
            self.write(data[pos:])

    def send(self, body: Any, framing: str | None = None) -> None:
        self._remember(body)
        self.write(frame(body, framing or self.framing))

    # -- the contract (Schemas/openrpc.json) ----------------------------------
    def _remember(self, body: Any) -> None:
        """Notes which method each request id is for, so its reply can be checked against it."""
        for message in body if isinstance(body, list) else [body]:
            if isinstance(message, dict) and "id" in message and isinstance(message.get("method"), str):
                self._pending_methods[canon(message["id"])] = message["method"]

    def _check_contract(self, message: Any) -> None:
        """Every reply and notification any test receives must fit the schemas of its method."""
        for item in message if isinstance(message, list) else [message]:
            if is_notification(item):
                CONTRACT.check_notification(item)
            elif isinstance(item, dict) and "id" in item:
                method = self._pending_methods.pop(canon(item["id"]), None)
                if method is not None:
                    CONTRACT.check_reply(method, item)

    @classmethod
    def next_id(cls) -> int:
        return next(cls._ids)

    def request(self, method: str, params: Any = MISSING, id: Any = MISSING) -> Any:
        if id is MISSING:
            id = self.next_id()
        msg = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not MISSING:
            msg["params"] = params
        self.send(msg)
        return id

    def notify(self, method: str, params: Any = MISSING) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not MISSING:
            msg["params"] = params
        self.send(msg)

    def call(self, method: str, params: Any = MISSING, id: Any = MISSING, timeout: float = DEFAULT_TIMEOUT) -> dict:
        """Send a request and return the next reply, which must carry its id."""
        id = self.request(method, params, id)
        resp = self.recv(timeout)
        assert isinstance(resp, dict) and "id" in resp and same_json(resp["id"], id), (
            f"expected the reply to {method} id {id!r}, got {resp!r}"
        )
        return resp

    def ping(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        resp = self.call("rpc.ping", timeout=timeout)
        assert_result(resp, resp["id"], "pong")

    def expect_nothing(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Prove that nothing was written since the last read: the next frame
        must be the reply to a fresh rpc.ping."""
        probe = f"probe-{self.next_id()}"
        self.request("rpc.ping", id=probe)
        resp = self.recv(timeout)
        assert isinstance(resp, dict) and same_json(resp.get("id"), probe), (
            f"expected no reply, but the server wrote {resp!r} before the probe's reply"
        )
        assert_result(resp, probe, "pong")

    # -- lifecycle --------------------------------------------------------
    def close_stdin(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def wait_exit(self, timeout: float = EXIT_TIMEOUT) -> tuple[int, float]:
        """Wait for the process; returns (returncode, seconds). Fails on timeout."""
        timeout = max(timeout, HANG)
        t0 = time.monotonic()
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"server did not exit within {timeout}s {self._diag()}")
        # What the process wrote before it exited is read to its end (EOF) before anyone looks.
        for thread in self._threads:
            thread.join(max(0.0, t0 + timeout - time.monotonic()))
        return rc, time.monotonic() - t0

    def alive(self) -> bool:
        return self.proc.poll() is None

    killed_by_us = False

    def sigkill_and_drain(self, stop: threading.Event, writer: threading.Thread) -> list[Any]:
        """SIGKILL the server while `writer` feeds it, stop the writer, and return the replies the
        server had already written to the pipe (they were acknowledged before it died)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(5)
        stop.set()
        writer.join(5)
        replies = []
        try:
            while True:
                replies.append(self.recv(timeout=0.2))
        except AssertionError:
            pass
        return replies

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.killed_by_us = True
            try:
                self.proc.kill()
            except OSError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if f:
                    f.close()
            except OSError:
                pass
        for t in self._threads:
            t.join(1)

    def shutdown_gracefully(self) -> None:
        if self.proc.poll() is None:
            self.close_stdin()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


@pytest.fixture
def spawn():
    """Factory: spawn(args=(), framing=..., ...) -> Server; all killed at teardown."""
    servers: list[Server] = []

    def _spawn(*args: str, **kw) -> Server:
        s = Server(args, **kw)
        servers.append(s)
        return s

    yield _spawn
    crashed = []
    for s in servers:
        s.shutdown_gracefully()
        rc = s.proc.returncode
        if rc is not None and rc < 0 and not s.killed_by_us:
            err = s.stderr_bytes().decode("utf-8", "replace")
            fatal = [ln for ln in err.splitlines() if "Fatal error" in ln or "crashed" in ln]
            crashed.append(f"{' '.join(s.cmd)} died from signal {-rc}: {' | '.join(fatal[:3]) or err[-800:]}")
    if crashed:
        pytest.fail("server crashed:\n" + "\n".join(crashed), pytrace=False)


@pytest.fixture(params=["ndjson", "lsp"])
def framing(request) -> str:
    return request.param


@pytest.fixture
def server(spawn, framing) -> Server:
    """A default server (auto framing, --test-methods, --store :memory:)."""
    return spawn(framing=framing)


def run_cli(*args: str, timeout: float = 10.0, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([BIN, *args], input=stdin, capture_output=True, timeout=timeout)


def load_jsonl(name: str) -> list[dict]:
    out = []
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("//"):
                out.append(json.loads(line))
    return out


# --------------------------------------------------------------------------
# The run's closing lines, added up over pytest-xdist's workers
# --------------------------------------------------------------------------

FIGURES: list[str] = []  # what tests recorded as record_property("figure", text): shown even under -q


def pytest_runtest_logreport(report):
    """Reports reach the controller from every worker, with the properties their tests recorded."""
    if report.when == "call":
        FIGURES.extend(value for name, value in report.user_properties if name == "figure")


def pytest_sessionfinish(session):
    """A worker's frames were validated in its own process: it hands the count to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["contract_checked"] = CONTRACT.checked


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    CONTRACT.checked += getattr(node, "workeroutput", {}).get("contract_checked", 0)


def pytest_terminal_summary(terminalreporter):
    for figure in FIGURES:
        terminalreporter.write_line(figure)
    terminalreporter.write_line(
        f"contract: {CONTRACT.checked} replies and notifications validated against Schemas/openrpc.json")
