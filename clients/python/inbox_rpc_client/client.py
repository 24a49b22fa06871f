"""The connection: it starts the server (or takes streams to one), writes requests, and hands each
reply to the call waiting for it, on one reader thread that also runs the notification callbacks.
It knows JSON-RPC 2.0 alone; methods, params and errors come from the contract (`contract.py`)."""

import collections
import contextlib
import importlib
import itertools
import json
import logging
import os
import shlex
import shutil
import signal
import subprocess
import threading
from concurrent.futures import Future, TimeoutError as FutureTimeout
from typing import (IO, TYPE_CHECKING, Any, Callable, Deque, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple,
                    Union)

from . import _framing
from .contract import Contract, InboxRpcError, member

if TYPE_CHECKING:  # generated from the contract by script/gen-client-stubs, for type checkers
    from .methods import Errors, Methods
else:
    Methods = object

log = logging.getLogger("inbox_rpc_client")
BUILD_PATHS = (".build/release/inbox-rpc", ".build/debug/inbox-rpc")
#: The repository this package sits in, when it is run from a checkout (clients/python/inbox_rpc_client).
CHECKOUT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
Path = Union[str, "os.PathLike[str]"]
#: How long a call waits for its reply unless told otherwise: no call waits for ever.
DEFAULT_TIMEOUT = 30.0


Notification = NamedTuple("Notification", [("method", str), ("params", Any)])


class ServerExited(ConnectionError):
    """The server's output ended before the reply: it exited (`returncode`; None when attached), or the
    client stopped reading a broken one (`reason`). `stderr_tail`: the end of its stderr, if kept."""

    def __init__(self, returncode: Optional[int], method: str, tail: Sequence[str], reason: Optional[str]) -> None:
        self.returncode, self.method, self.stderr_tail, self.reason = returncode, method, "\n".join(tail), reason
        how = f"{reason}; the connection was ended" if reason else f"inbox-rpc exited with status {returncode}"
        super().__init__(f"{how} during {method}" + (f": {tail[-1]}" if tail else ""))


def _leave_signals_to_main_thread() -> None:
    """Leaves SIGINT and SIGTERM to the main thread, so that one waiting for a reply sees its Ctrl-C at once."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def find_server(binary: Optional[Path] = None) -> str:
    """`binary`, else $INBOX_RPC_BIN, the `inbox-rpc` wheel's, PATH's, or when $INBOX_RPC_BUILD asks, this
    checkout's build; never a file for lying in the current directory (in someone else's, their program)."""
    if binary is not None or os.environ.get("INBOX_RPC_BIN"):
        return os.fspath(binary if binary is not None else os.environ["INBOX_RPC_BIN"])
    wheel: List[Optional[str]] = []
    with contextlib.suppress(ImportError):
        wheel.append(importlib.import_module("inbox_rpc").binary())
    builds = [os.path.join(CHECKOUT, path) for path in BUILD_PATHS] if os.environ.get("INBOX_RPC_BUILD") else []
    for candidate in [*wheel, shutil.which("inbox-rpc"), *builds]:
        if candidate and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    raise FileNotFoundError("inbox-rpc not found: set INBOX_RPC_BIN, put it on PATH, or set INBOX_RPC_BUILD=1 to run "
                            f"{os.path.join(CHECKOUT, BUILD_PATHS[1])}")


class Call:
    """A request in flight: `result(timeout)` waits for its reply, `cancel()` asks the server to stop."""

    def __init__(self, client: "Client", request_id: int, method: str) -> None:
        self.id, self.method, self._client = request_id, method, client
        self.reply: "Future[Dict[str, Any]]" = Future()

    def result(self, timeout: Optional[float] = None) -> Any:
        """The result. Raises the contract's class of an error reply, `ServerExited`, or
        `TimeoutError` after `timeout` seconds (the request is then cancelled, as on Ctrl-C)."""
        if threading.current_thread() is self._client._reader:
            raise RuntimeError(f"{self.method}: a notification callback cannot wait for a reply")
        try:
            reply = self.reply.result(timeout)
        except FutureTimeout:
            raise TimeoutError(f"{self.method}: no reply within {timeout} s; cancelled") from None
        finally:
            self.cancel()  # a reply in (or the server gone) leaves nothing to cancel; a Ctrl-C does
        if "error" in reply:
            raise self._client._error(reply["error"], self.method)
        return reply.get("result")

    def cancel(self) -> None:
        """`$/cancelRequest`: the server answers -32800 (RequestCancelled) unless the reply is sent."""
        if not self.reply.done():
            with contextlib.suppress(OSError):  # the server is gone: nothing left to cancel
                self._client.notify("$/cancelRequest", id=self.id)


class Changes:
    """An iterator over `feed.changes`: `cursor` resumes after the last change it gave (save it, and
    `changes(since=cursor)` goes on, in this process or another; too old: `errors.CursorTooOld`)."""

    def __init__(self, client: "Client", since: Optional[str], limit: int) -> None:
        self.client, self.cursor, self.limit = client, since, limit

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        more = True
        while more:
            page = self.client.call("feed.changes", since=self.cursor, limit=self.limit)
            for change in page["changes"]:
                self.cursor = change["cursor"]
                yield change
            self.cursor, more = page["cursor"], page["more"]


class Client(contextlib.AbstractContextManager["Client"], Methods):
    """One server: `feed.list(limit=5)` calls a method, `errors.MessageNotFound` is that named error's
    class, `on("feed.changed", callback)` hears a notification; leaving a `with` block shuts it down."""

    _pending: Dict[int, Call]
    _drainer: Optional[threading.Thread] = None
    _listeners: List[Tuple[Optional[str], Callable[[Notification], None]]]

    def __init__(self, binary: Optional[Path] = None, *, store: Optional[Path] = None, sample_feed: bool = False,
                 args: Sequence[str] = (), env: Optional[Dict[str, str]] = None, stderr: Any = None,
                 **options: Any) -> None:
        """Starts the server (`--store`, `--sample-feed`, then `args`), its stderr to `stderr` (else its
        last lines kept in `stderr_tail`). `options` are `attach`'s."""
        self.stderr_tail: "Deque[str]" = collections.deque(maxlen=20)  # the end of the server's stderr, if it was ours
        self.command = [find_server(binary), *(["--store", os.fspath(store)] if store is not None else [])]
        self.command += [*(["--sample-feed"] if sample_feed else []), *args]
        self.process: Optional["subprocess.Popen[bytes]"] = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
            stderr=subprocess.PIPE if stderr is None else stderr)
        if stderr is None:  # drained, so the server never blocks on it; the end is kept for ServerExited
            self._drainer = threading.Thread(target=self._drain, args=(self.process.stderr,), daemon=True)
            self._drainer.start()
        try:
            self._open(self.process.stdout, self.process.stdin, **options)
        except BaseException:  # options refused: the server started for them is not left running
            self.process.kill()
            self.process.wait()
            raise

    @classmethod
    def attach(cls, reader: IO[bytes], writer: IO[bytes], **options: Any) -> "Client":
        """A client on streams to a running server (`reader` is its output). Options: `contract` (a
        document or its path; default: `rpc.discover`), `framing` ("ndjson" or "lsp"), `timeout` (one
        deadline a call; default 30 s, None: none), `max_frame_bytes` (32 MiB), `on_notification`, `close_timeout`."""
        client = cls.__new__(cls)
        client.command, client.process, client.stderr_tail = [], None, collections.deque()
        client._open(reader, writer, **options)
        return client

    @classmethod
    def from_env(cls, **options: Any) -> "Client":
        """Configured as the shell client is: INBOX_RPC_BIN, INBOX_STORE, INBOX_RPC_FLAGS."""
        options.setdefault("store", os.environ.get("INBOX_STORE") or None)
        options["args"] = (*shlex.split(os.environ.get("INBOX_RPC_FLAGS", "")), *options.get("args", ()))
        return cls(**options)

    def _open(self, reader: Any, writer: Any, *, contract: Union[None, Path, Dict[str, Any]] = None,
              framing: _framing.Framing = "ndjson", timeout: Optional[float] = DEFAULT_TIMEOUT,
              max_frame_bytes: int = _framing.MAX_FRAME_BYTES,
              on_notification: Optional[Callable[[Notification], None]] = None, close_timeout: float = 5.0) -> None:
        if framing not in _framing.FRAMINGS:
            raise ValueError(f"framing is one of {_framing.FRAMINGS}, not {framing!r}")
        if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
            raise ValueError(f"timeout is a number of seconds above 0 (or None), not {timeout!r}")
        if not (isinstance(max_frame_bytes, int) and max_frame_bytes > 0):
            raise ValueError(f"max_frame_bytes is a number of bytes above 0, not {max_frame_bytes!r}")
        self.max_frame_bytes = max_frame_bytes
        self._broken: Optional[str] = None
        if contract is not None and not isinstance(contract, dict):
            with open(contract, encoding="utf-8") as file:
                contract = dict(json.load(file))
        self._contract = None if contract is None else Contract(contract)
        self._in, self._out, self.framing, self.timeout, self.close_timeout = reader, writer, framing, timeout, close_timeout
        self._ids, self._pending, self._listeners = itertools.count(1), {}, []
        self._lock, self._write_lock, self._contract_lock = threading.Lock(), threading.Lock(), threading.Lock()
        self._closed = self._shut_down = self._ended = False
        self._returncode: Optional[int] = None
        if on_notification is not None:
            self.on(None, on_notification)
        self._reader = threading.Thread(target=self._read, name="inbox-rpc reader", daemon=True)
        self._reader.start()

    @property
    def contract(self) -> Contract:
        """The contract given, else the server's `rpc.discover`, read once, at the first use."""
        if self._contract is None and threading.current_thread() is self._reader:  # it would wait for itself
            raise RuntimeError("a notification callback cannot read the contract before a call has")
        with self._contract_lock:
            if self._contract is None:
                document = self.call("rpc.discover")
                if not isinstance(document, dict):
                    raise InboxRpcError(None, "rpc.discover answered no OpenRPC document", document, "rpc.discover")
                self._contract = Contract(document)
            return self._contract

    @property
    def errors(self) -> "Errors":
        """The contract's named errors: `except client.errors.MessageNotFound`."""
        return self.contract.errors  # type: ignore[return-value]

    if not TYPE_CHECKING:  # type checkers see the generated Methods, so a misspelt name is an error
        def __getattr__(self, name: str) -> Any:
            return member(self, "", name)

    def __dir__(self) -> List[str]:
        return sorted({*super().__dir__(), *self.contract.members("")})

    def _error(self, error: Any, method: str) -> InboxRpcError:
        contract = self._contract
        if contract is None and method != "rpc.discover":
            with contextlib.suppress(InboxRpcError, OSError, TimeoutError):  # without rpc.discover: the base class
                contract = self.contract
        return (contract or Contract({})).error(error, method)

    def call(self, method: str, params: Any = None, /, **named: Any) -> Any:
        """Calls `method` with `params` (an object or an array) or the keyword arguments, and waits."""
        return self.start(method, params, **named).result(self.timeout)

    def start(self, method: str, params: Any = None, /, **named: Any) -> Call:
        """Sends a request without waiting: the `Call` to wait for or cancel."""
        call = Call(self, next(self._ids), method)
        self._shut_down = self._shut_down or method == "shutdown"
        with self._lock:
            if self._ended:
                raise self._exited(method)
            self._pending[call.id] = call
        try:
            self._send({"id": call.id, "method": method}, params, named)
        except (OSError, TypeError):
            with self._lock:
                self._pending.pop(call.id, None)
            raise
        return call

    def changes(self, since: Optional[str] = None, limit: int = 100) -> "Changes":
        """The store's changes after the cursor `since` (None: from now), oldest first, a page at a time."""
        return Changes(self, since, limit)

    def notify(self, method: str, params: Any = None, /, **named: Any) -> None:
        self._send({"method": method}, params, named)

    def _send(self, message: Dict[str, Any], params: Any, named: Dict[str, Any]) -> None:
        if params is not None and named:
            raise TypeError("give the params as one object or as keyword arguments, not both")
        value = named or params
        message = {"jsonrpc": "2.0", **message, **({} if value is None else {"params": value})}
        frame = _framing.encode(json.dumps(message, separators=(",", ":")).encode(), self.framing)
        try:
            with self._write_lock:
                self._out.write(frame)
                self._out.flush()
        except (OSError, ValueError):  # a broken pipe, or a closed stream
            if self._reader is not threading.current_thread():
                self._reader.join(self.close_timeout)
            raise self._exited(message["method"]) from None

    def on(self, method: Optional[str], callback: Callable[[Notification], None]) -> Callable[[], None]:
        """Calls `callback(Notification)` for each notification of `method` (None: all), on the
        reader thread, so keep it short. Returns the function that removes it."""
        entry = (method, callback)
        with self._lock:
            self._listeners.append(entry)

        def remove() -> None:
            with self._lock, contextlib.suppress(ValueError):  # removed already
                self._listeners.remove(entry)

        return remove

    def _read(self) -> None:
        _leave_signals_to_main_thread()
        try:
            while (body := _framing.read_frame(self._in, self.framing, self.max_frame_bytes)) is not None:
                try:
                    message = json.loads(body)
                except ValueError:
                    log.warning("inbox-rpc wrote a frame that is not JSON: %r", body[:200])
                    continue
                for item in message if isinstance(message, list) else [message]:
                    self._dispatch(item)
        except _framing.FrameTooLarge as error:
            self._broken = str(error)  # a broken server: nothing more is read, one started here is stopped
            if self.process is not None:
                self.process.kill()
        except (OSError, ValueError) as error:
            log.debug("reading from inbox-rpc stopped: %s", error)
        finally:
            self._end()

    def _dispatch(self, message: Any) -> None:
        if not isinstance(message, dict) or ("method" in message and "id" in message):
            return  # the server sends no requests
        if "method" in message:
            with self._lock:
                callbacks = [cb for method, cb in self._listeners if method in (None, message["method"])]
            for callback in callbacks:
                try:
                    callback(Notification(message["method"], message.get("params")))
                except Exception:  # a callback's bug must not stop the replies
                    log.exception("notification callback failed on %s", message["method"])
            return
        with self._lock:
            call = self._pending.pop(message["id"], None) if isinstance(message.get("id"), int) else None
        if call is not None:
            call.reply.set_result(message)

    def _drain(self, stream: IO[bytes]) -> None:
        _leave_signals_to_main_thread()
        for line in stream:
            self.stderr_tail.append(line.decode(errors="replace").rstrip("\n"))

    def _end(self) -> None:
        """The server's output ended: every pending call fails now rather than waiting for ever."""
        self._returncode = self._exit_status()
        if self._drainer is not None:
            self._drainer.join(self.close_timeout)
        with self._lock:
            self._ended, pending, self._pending = True, self._pending, {}
        for call in pending.values():
            call.reply.set_exception(self._exited(call.method))

    def _exited(self, method: str) -> ServerExited:
        """The error of a call the server cannot answer: it exited, or the client stopped reading it."""
        returncode = self._returncode if self._ended else self.returncode
        return ServerExited(returncode, method, self.stderr_tail, self._broken)

    @property
    def returncode(self) -> Optional[int]:
        return None if self.process is None else self.process.poll()

    def _exit_status(self) -> Optional[int]:
        """The started server's exit status once it exits within `close_timeout`, else None."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            return None if self.process is None else self.process.wait(self.close_timeout)
        return None

    def close(self) -> Optional[int]:
        """`shutdown`, `exit`, end of input, a kill after `close_timeout`: the server's exit status."""
        if not self._closed:
            self._closed = True
            with contextlib.suppress(OSError, FutureTimeout):  # gone or stuck: the kill below settles it
                if not self._shut_down:  # unless the host called shutdown itself
                    self.start("shutdown").reply.result(self.close_timeout)
                self.notify("exit")
        with contextlib.suppress(OSError):
            self._out.close()
        if self.process is not None and self._exit_status() is None:
            self.process.kill()
            self.process.wait()
        if self._reader is not threading.current_thread():
            self._reader.join(self.close_timeout)
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
        return self.returncode

    def __exit__(self, *exc_info: object) -> None:
        self.close()
