"""A loopback stand-in for the Pushwoosh inbox backend, driven in-process by the tests.

It serves the two calls inbox-rpc makes, with the real wire shapes (docs/sync.md#the-backend-contract):

    POST {base}/getInboxMessages  {"request": {application, hwid, userId, v, device_type}}
    POST {base}/inboxStatus       {"request": {..., inbox_code, status, hash}}

and answers {"status_code": 200, "status_message": "OK", "response": ...} plus an optional
"base_url". It keeps its own state (an inbox per user id, statuses that never go down, ids deleted
by the service), applies inboxStatus to it, records every request (headers and body), and injects
faults on demand: HTTP 500/503, status_code 210, a slow reply (timeout), a connection closed
mid-body, a connection closed with no reply, invalid JSON, an empty body, a redirect, a reply of
the wrong shape, and the whole server down (connection refused).

Messages go out with the quirks the SDKs tolerate: numbers as strings or numbers (alternating),
action_params as a JSON string or an object (alternating), plus any raw entries a test adds
(messages missing required fields, for instance).

Control it from the test itself (same process): `backend.fail("timeout", method="inboxStatus")`,
`backend.add_message("m1")`, `backend.status_of("m1")`, `backend.requests`, `backend.down()`.
`FakeBackend(tls=context)` serves https with that `ssl.SSLContext` (its URL names `host`, while it
listens on 127.0.0.1 either way); `backend.chunked = True` sends replies with chunked framing,
`backend.gzip = True` compresses them for a client that accepts gzip, and `backend.body_override`
is sent instead of every reply's body (before compression); `backend.trickle = SECONDS` sends a
body in pieces over that long, and `backend.body_sent` is set once a body has been written.
Connections are kept alive as HTTP/1.1 allows, and `backend.connections` counts those accepted. A
`drop` on a connection that already carried a request is also played on the client's retry (HTTP
clients retry once, on a fresh connection, a request whose kept-alive connection closed unanswered).
"""

from __future__ import annotations

import gzip
import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

APP = "APP-12345"
TOKEN = "fake-token-5f2b9c"
USER = "user-1"

FAULTS = (
    "http500",  # HTTP 500 with a JSON body that has status_code 500
    "http503",  # HTTP 503, plain text
    "status210",  # HTTP 200, status_code 210 "Argument error"
    "timeout",  # the reply comes after `delay` seconds (inboxStatus is applied first: applied, not confirmed)
    "close_mid_body",  # headers announce the whole body, half of it is sent, then the connection closes
    "drop",  # the connection closes before any reply
    "invalid_json",  # HTTP 200, a body that is not JSON
    "empty",  # HTTP 200, an empty body
    "redirect",  # HTTP 302 to another path
    "wrong_shape",  # HTTP 200, status_code 200, response.messages is not an array (inboxStatus: applied first)
)
# HTTP 200 with status_code 200 is the backend's confirmation of an inboxStatus, whatever its
# `response` holds (every SDK reads it so, and so does the server): a fake that confirmed a change
# it then dropped would be a backend that loses acknowledged writes, which no client can repair.


@dataclass
class Recorded:
    """One request as it arrived."""

    method: str  # getInboxMessages | inboxStatus | the unknown path's last segment
    path: str
    headers: dict[str, str]  # lower-cased names
    raw: bytes
    body: Any  # parsed JSON, or None when the body was not JSON

    @property
    def request(self) -> dict:
        return (self.body or {}).get("request", {}) if isinstance(self.body, dict) else {}


@dataclass
class Fault:
    kind: str
    method: str | None = None  # None: the next request of any method
    delay: float = 1.0  # timeout: seconds before the reply


@dataclass
class Message:
    inbox_id: str
    order: str
    status: int = 1
    rt: int = 4_102_444_800
    send_date: int = 1_700_000_000
    title: str = ""
    text: str = "Body"
    hash: str = ""
    params: dict = field(default_factory=dict)
    quirk: int = 0  # which of the two wire shapes it is sent in (stable per message, as a real service is)


class FakeBackend:
    def __init__(
        self,
        *,
        token: str | None = TOKEN,
        application: str = APP,
        tls: ssl.SSLContext | None = None,
        host: str = "127.0.0.1",
    ):
        self.token = token
        self.application = application
        self.tls = tls
        self.host = host
        self.chunked = False  # replies framed with Transfer-Encoding: chunked instead of Content-Length
        self.gzip = False  # replies compressed (Content-Encoding: gzip) when the request accepts it
        self.body_override: bytes | None = None
        self.trickle = 0.0  # seconds a reply body takes to send, in pieces (a slow link)
        self.body_sent = threading.Event()  # set once a reply body has been written in full
        self._lock = threading.RLock()
        self._inboxes: dict[str, dict[str, Message]] = {}
        self._deleted: dict[str, list[str]] = {}
        self._raw: dict[str, list[Any]] = {}
        self._faults: list[Fault] = []
        self._orders = 50_000_000_000_000_000  # beyond 2^53: every digit must survive
        self.requests: list[Recorded] = []
        self.connections = 0  # TCP connections accepted
        self._open: set[socket.socket] = set()  # connections kept alive, closed by down()
        self.applied: list[tuple[str, str, int]] = []  # (user, inbox_code, status) of every accepted inboxStatus
        self.base_url_reply: str | None = None
        self.prefix = "/json/1.3/"
        self.now: int | None = None  # when set, expired messages are not listed
        self._server: ThreadingHTTPServer | None = None
        self.port = 0
        self.up()

    # -- lifecycle ---------------------------------------------------------------
    @property
    def url(self) -> str:
        return self.url_with(self.prefix)

    def url_with(self, prefix: str) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}{prefix}"

    def up(self) -> None:
        """Listens (again, on the same port once it had one)."""
        if self._server is not None:
            return
        backend = self

        class Handler(_Handler):
            owner = backend

        server = None
        for _ in range(50):
            try:
                server = _QuietServer(("127.0.0.1", self.port), Handler)
                break
            except OSError:
                time.sleep(0.05)
        if server is None:
            raise RuntimeError(f"cannot listen on 127.0.0.1:{self.port}")
        server.daemon_threads = True
        if self.tls is not None:
            # The handshake runs on the request's own thread (at its first read), not in accept().
            server.socket = self.tls.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
        self._server = server
        self.port = server.server_address[1]
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def down(self) -> None:
        """Stops listening: connections are refused until up()."""
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()
        with self._lock:
            for connection in self._open:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.down()

    # -- state ---------------------------------------------------------------------
    def inbox(self, user: str = USER) -> dict[str, Message]:
        with self._lock:
            return self._inboxes.setdefault(user, {})

    def next_order(self) -> str:
        with self._lock:
            self._orders += 1
            return str(self._orders)

    def add_message(self, inbox_id: str, *, user: str = USER, order: str | None = None, **fields) -> Message:
        with self._lock:
            message = Message(
                inbox_id=inbox_id,
                order=order or self.next_order(),
                title=fields.pop("title", f"Title {inbox_id}"),
                hash=fields.pop("hash", f"H-{inbox_id}"),
                quirk=fields.pop("quirk", len(self.inbox(user)) % 2),
                **fields,
            )
            self.inbox(user)[inbox_id] = message
            return message

    def add_raw(self, entry: Any, *, user: str = USER) -> None:
        """An entry listed exactly as given (e.g. a message missing required fields)."""
        with self._lock:
            self._raw.setdefault(user, []).append(entry)

    def clear_raw(self, *, user: str = USER) -> None:
        with self._lock:
            self._raw.pop(user, None)

    def set_status(self, inbox_id: str, status: int, *, user: str = USER) -> None:
        """A change made elsewhere (another device); statuses never go down."""
        with self._lock:
            message = self.inbox(user)[inbox_id]
            message.status = max(message.status, status)

    def delete_by_service(self, inbox_id: str, *, user: str = USER) -> None:
        """Deleted from the Control Panel: gone from the list, reported in `deleted`."""
        with self._lock:
            message = self.inbox(user).get(inbox_id)
            if message is not None:
                message.status = 5
            self._deleted.setdefault(user, []).append(inbox_id)

    def status_of(self, inbox_id: str, *, user: str = USER) -> int | None:
        with self._lock:
            message = self.inbox(user).get(inbox_id)
            return None if message is None else message.status

    def statuses(self, *, user: str = USER) -> dict[str, int]:
        with self._lock:
            return {m.inbox_id: m.status for m in self.inbox(user).values()}

    def visible(self, *, user: str = USER) -> dict[str, int]:
        """What a client should show: listed, not deleted, not expired."""
        with self._lock:
            return {
                m.inbox_id: m.status
                for m in self.inbox(user).values()
                if m.status < 4 and (self.now is None or m.rt > self.now)
            }

    # -- faults and records ----------------------------------------------------------
    def fail(self, kind: str, *, method: str | None = None, delay: float = 1.0, times: int = 1) -> None:
        assert kind in FAULTS, kind
        with self._lock:
            self._faults.extend(Fault(kind, method, delay) for _ in range(times))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def _take_fault(self, method: str, reused: bool) -> Fault | None:
        with self._lock:
            for index, fault in enumerate(self._faults):
                if fault.method in (None, method):
                    return fault if reused and fault.kind == "drop" else self._faults.pop(index)
        return None

    def calls(self, method: str) -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.method == method]

    def reset_records(self) -> None:
        with self._lock:
            self.requests.clear()
            self.applied.clear()

    # -- the two calls -----------------------------------------------------------------
    @staticmethod
    def wire(message: Message) -> dict:
        """The message as the service sends it, in one of two shapes: numbers as strings and
        action_params as a JSON string, or numbers as numbers and action_params as an object."""
        odd = message.quirk % 2 == 0
        params = dict(message.params) or {"l": "https://example.com/" + message.inbox_id}
        return {
            "inbox_id": message.inbox_id,
            "order": message.order if odd else int(message.order),
            "rt": str(message.rt) if odd else message.rt,
            "send_date": str(message.send_date),
            "title": message.title,
            "text": message.text,
            "image": "",
            "action_type": 1 if odd else "1",
            "action_params": json.dumps(params) if odd else params,
            "status": message.status if odd else str(message.status),
            "hash": message.hash,
        }

    def _inbox_reply(self, request: dict) -> tuple[int, dict]:
        user = request.get("userId") or request.get("hwid") or ""
        with self._lock:
            listed = [
                self.wire(m)
                for m in self.inbox(user).values()
                if m.status < 5 and (self.now is None or m.rt > self.now)
            ]
            listed += self._raw.get(user, [])
            deleted = list(self._deleted.get(user, []))
        return 200, {"messages": listed, "deleted": deleted, "next": "", "new_inbox": len(listed)}

    def _status_reply(self, request: dict, headers: dict[str, str]) -> tuple[int, Any]:
        user = request.get("userId") or request.get("hwid") or ""
        code = request.get("inbox_code")
        status = request.get("status")
        if not isinstance(code, str) or not isinstance(status, int) or status not in (2, 3, 4):
            return 210, None
        with self._lock:
            for message in self.inbox(user).values():
                if message.order == code:
                    message.status = max(message.status, status)
            self.applied.append((user, code, status))
        return 200, None

    def handle(self, path: str, headers: dict[str, str], raw: bytes, reused: bool = False,
               ) -> tuple[int, dict[str, str], bytes, Fault | None]:
        """The reply to one request (`reused`: not the first on its connection): (HTTP status,
        headers, body, fault to play out)."""
        method = path.rstrip("/").rsplit("/", 1)[-1]
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        record = Recorded(method, path, headers, raw, body)
        with self._lock:
            self.requests.append(record)
        if method not in ("getInboxMessages", "inboxStatus"):
            return 404, {"Content-Type": "text/plain"}, b"not found", None
        fault = self._take_fault(method, reused)
        refusals = ("http500", "http503", "status210", "invalid_json", "empty", "redirect")
        if fault and (fault.kind in refusals or (fault.kind == "wrong_shape" and method == "getInboxMessages")):
            return (*self._fault_reply(fault), None)

        request = record.request
        if self.token is not None and headers.get("authorization") != f"Token {self.token}":
            return 401, {"Content-Type": "application/json"}, _envelope(401, "Unauthorized", None), fault
        if request.get("application") != self.application:
            return 200, {"Content-Type": "application/json"}, _envelope(210, "Application not found", None), fault
        if method == "getInboxMessages":
            code, response = self._inbox_reply(request)
        else:
            code, response = self._status_reply(request, headers)
            if fault and fault.kind == "wrong_shape":
                response, fault = {"messages": "none"}, None  # applied and confirmed: see FAULTS
        message = "OK" if code == 200 else "Argument error"
        body = _envelope(code, message, response, self.base_url_reply)
        return 200, {"Content-Type": "application/json"}, body, fault

    def _fault_reply(self, fault: Fault) -> tuple[int, dict[str, str], bytes]:
        json_type = {"Content-Type": "application/json"}
        if fault.kind == "http500":
            return 500, json_type, _envelope(500, "Internal Server Error", None)
        if fault.kind == "http503":
            return 503, {"Content-Type": "text/plain"}, b"Service Unavailable"
        if fault.kind == "status210":
            return 200, json_type, _envelope(210, "Argument error", None)
        if fault.kind == "invalid_json":
            return 200, json_type, b'{"status_code": 200, "response": {"messages": [ oops'
        if fault.kind == "empty":
            return 200, json_type, b""
        if fault.kind == "redirect":
            return 302, {"Location": self.url_with("/elsewhere/json/1.3/")}, b""
        if fault.kind == "wrong_shape":
            return 200, json_type, _envelope(200, "OK", {"messages": "none"})
        raise AssertionError(fault.kind)


def _envelope(code: int, message: str, response: Any, base_url: str | None = None) -> bytes:
    envelope: dict[str, Any] = {"status_code": code, "status_message": message, "response": response}
    if base_url:
        envelope["base_url"] = base_url
    return json.dumps(envelope).encode()


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass  # a client that hung up mid-request (a timeout it was told to expect) is not news


class _Handler(BaseHTTPRequestHandler):
    owner: FakeBackend
    protocol_version = "HTTP/1.1"
    # The headers and the body leave in separate writes; on a kept-alive connection Nagle's
    # algorithm would hold the body until the client's delayed ACK, 40 ms per call.
    disable_nagle_algorithm = True

    def log_message(self, *args) -> None:  # quiet: pytest shows what matters
        pass

    def setup(self) -> None:
        super().setup()
        self.served = 0
        with self.owner._lock:
            self.owner.connections += 1
            self.owner._open.add(self.connection)

    def finish(self) -> None:
        with self.owner._lock:
            self.owner._open.discard(self.connection)
        try:
            super().finish()
        except OSError:
            pass

    def do_GET(self) -> None:
        self.send_error(405)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, reply_headers, body, fault = self.owner.handle(self.path, headers, raw, self.served > 0)
        self.served += 1
        if fault is not None and fault.kind == "timeout":
            time.sleep(fault.delay)
        if fault is not None and fault.kind == "drop":
            self._abort()
            return
        if fault is None and self.owner.body_override is not None:
            body = self.owner.body_override
        if fault is None and self.owner.gzip and "gzip" in headers.get("accept-encoding", ""):
            body = gzip.compress(body, 1)
            reply_headers = {**reply_headers, "Content-Encoding": "gzip"}
        try:
            self.send_response(status)
            for name, value in reply_headers.items():
                self.send_header(name, value)
            if self.owner.chunked and fault is None:
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for start in range(0, len(body), 4096):
                    piece = body[start : start + 4096]
                    self.wfile.write(b"%x;offset=%d\r\n%s\r\n" % (len(piece), start, piece))
                self.wfile.write(b"0\r\n\r\n")
                return
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if fault is not None and fault.kind == "close_mid_body":
                self.wfile.write(body[: max(1, len(body) // 2)])
                self.wfile.flush()
                self._abort()
                return
            if self.owner.trickle > 0:
                step = max(1, len(body) // 100)
                for start in range(0, len(body), step):
                    self.wfile.write(body[start : start + step])
                    self.wfile.flush()
                    time.sleep(self.owner.trickle / 100)
            else:
                self.wfile.write(body)
            self.wfile.flush()
            self.owner.body_sent.set()
        except OSError:
            pass  # the client gave up (a timeout it was told to expect)

    def _abort(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
