"""A JSON-RPC client for `inbox-rpc`: starts the server (or attaches to streams) and calls it.

One reader thread reads every frame the server writes: replies complete the pending call with
their id, notifications go to the `on_notification` callback, to listeners and to a bounded queue
that `notifications()` iterates. When the server's output ends, every pending call fails with
`ServerExited` (exit status and the tail of its stderr), so no call can wait forever; a call
that gets no reply within its timeout raises `CallTimeout` and is cancelled on the server.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import itertools
import json
import logging
import os
import shlex
import shutil
import subprocess
import threading
import time
from typing import (
    TYPE_CHECKING,
    IO,
    Any,
    Callable,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
    cast,
)

from . import _framing
from ._framing import Framing
from .errors import CallTimeout, InboxRPCClientError, ProtocolError, RPCError, ServerExited

if TYPE_CHECKING:
    from .contract import Contract
from .types import (
    AttributesResult,
    ButtonTapResult,
    Card,
    ChangedResult,
    Counts,
    DismissResult,
    FeedPage,
    IngestResult,
    InitializeResult,
    JSONObject,
    MarkReadResult,
    SlideTapResult,
    SyncProgress,
    SyncReport,
    TapResult,
)

log = logging.getLogger("inbox_rpc_client")

#: Where `find_server` looks after `INBOX_RPC_BIN` and `PATH`, relative to the current directory.
BUILD_PATHS = (".build/release/inbox-rpc", ".build/debug/inbox-rpc")
#: How many stderr lines a `ServerExited` carries.
STDERR_TAIL_LINES = 40


class Notification(NamedTuple):
    """A notification from the server: `feed.changed`, `log`, `sync.progress`, ..."""

    method: str
    params: Any


NotificationCallback = Callable[[Notification], None]


def find_server(binary: Union[str, "os.PathLike[str]", None] = None) -> str:
    """The server executable: `binary`, else `$INBOX_RPC_BIN`, else the one the `inbox-rpc` wheel
    installed beside this client (package `inbox_rpc`), else `inbox-rpc` on `PATH`, else
    `.build/release/inbox-rpc` or `.build/debug/inbox-rpc` under the current directory.

    Raises `FileNotFoundError` naming every place it looked.
    """
    if binary is not None:
        return os.fspath(binary)
    from_env = os.environ.get("INBOX_RPC_BIN")
    if from_env:
        return from_env
    packaged = packaged_server()
    if packaged:
        return packaged
    on_path = shutil.which("inbox-rpc")
    if on_path:
        return on_path
    for candidate in BUILD_PATHS:
        if os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    raise FileNotFoundError(
        "inbox-rpc not found: set INBOX_RPC_BIN, put inbox-rpc on PATH, or build it "
        f"(swift build --product inbox-rpc) so that one of {', '.join(BUILD_PATHS)} exists"
    )


def packaged_server() -> Optional[str]:
    """The binary of the `inbox_rpc` package (the `inbox-rpc` wheel), when it is installed: the
    `inbox-rpc` command on PATH only hands over to it."""
    try:
        spec = importlib.util.find_spec("inbox_rpc")
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    path = str(importlib.import_module("inbox_rpc").binary())
    return path if os.access(path, os.X_OK) else None


class Call:
    """One request in flight: `result()` waits for its reply, `cancel()` asks the server to stop."""

    def __init__(self, client: "Client", request_id: int, method: str) -> None:
        self.id = request_id
        self.method = method
        self._client = client
        self._done = threading.Event()
        self._result: Any = None
        self._error: Optional[BaseException] = None

    def done(self) -> bool:
        """Whether the reply (or the failure) is in."""
        return self._done.is_set()

    def result(self, timeout: Optional[float] = None) -> Any:
        """The call's result; raises `RPCError` for an error reply, `ServerExited` when the
        server went away first, `CallTimeout` after `timeout` seconds (default: the client's
        timeout; the request is then cancelled on the server and its late reply ignored).

        Interrupting the wait (Ctrl-C) cancels the request on the server too.
        """
        if threading.current_thread() is self._client._reader_thread and not self._done.is_set():
            raise ProtocolError(
                f"{self.method}: cannot wait for a reply inside a notification callback "
                "(the reader thread delivers both); start the call there and wait elsewhere"
            )
        wait = self._client.timeout if timeout is None else timeout
        try:
            finished = self._done.wait(wait)
        except KeyboardInterrupt:
            self.cancel()
            raise
        if not finished:
            self._client._forget(self.id)
            self.cancel()
            raise CallTimeout(self.method, wait)
        if self._error is not None:
            raise self._error
        return self._result

    def cancel(self) -> None:
        """Sends `$/cancelRequest` for this call if its reply is not in yet.

        The server then answers -32800, so `result()` raises `RequestCancelled` (or returns the
        result, if the reply was already on its way). Best effort: a server already gone is not
        an error here.
        """
        if self._done.is_set():
            return
        try:
            self._client.notify("$/cancelRequest", {"id": self.id})
        except (InboxRPCClientError, OSError):
            pass

    def _finish(self, result: Any = None, error: Optional[BaseException] = None) -> None:
        self._result = result
        self._error = error
        self._done.set()


class Client:
    """A connection to one `inbox-rpc` server.

    `Client(store=..., sample_feed=True)` starts the server; `Client.attach(reader, writer)` talks
    over streams someone else opened; `Client.from_env()` reads `INBOX_RPC_BIN`, `INBOX_STORE`
    and `INBOX_RPC_FLAGS` as the shell client does. Use it as a context manager: leaving the
    block sends `shutdown` and `exit`, waits for the server, and kills it after `close_timeout`.

    Methods: `call(method, **params)` for any method; typed wrappers for the inbox methods
    (`feed_list`, `message_tap`, `button_tap`, ...) whose keyword arguments are the snake_case
    parameter names. Every wait is bounded by `timeout` (seconds).
    """

    _stderr_thread: Optional[threading.Thread]
    _reader_thread: Optional[threading.Thread]

    def __init__(
        self,
        binary: Union[str, "os.PathLike[str]", None] = None,
        *,
        store: Union[str, "os.PathLike[str]", None] = None,
        sample_feed: bool = False,
        args: Sequence[str] = (),
        env: Optional[Mapping[str, str]] = None,
        cwd: Union[str, "os.PathLike[str]", None] = None,
        framing: Framing = "ndjson",
        timeout: float = 30.0,
        close_timeout: float = 5.0,
        on_notification: Optional[NotificationCallback] = None,
        stderr: Union[IO[str], int, None] = None,
        max_notifications: int = 10_000,
    ) -> None:
        """Starts the server.

        `store`: the store file (`--store`; `:memory:` for a throwaway one; None: the server's
        default location). `sample_feed`: `--sample-feed`. `args`: more server flags. `stderr`:
        None keeps only the last lines (for `ServerExited`); a text file (such as `sys.stderr`)
        also gets every line; `subprocess.DEVNULL` discards it all. `max_notifications` bounds
        the queue `notifications()` reads (the oldest are dropped past it).
        """
        command = [find_server(binary)]
        if store is not None:
            command += ["--store", os.fspath(store)]
        if sample_feed:
            command.append("--sample-feed")
        command += list(args)
        self.command: List[str] = command
        if isinstance(stderr, int) and stderr != subprocess.DEVNULL:
            raise ValueError("stderr must be None, a text file or subprocess.DEVNULL")
        discard_stderr = stderr == subprocess.DEVNULL
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if discard_stderr else subprocess.PIPE,
            env=None if env is None else dict(env),
            cwd=cwd,
        )
        assert process.stdin is not None and process.stdout is not None
        self._setup(
            reader=process.stdout,
            writer=process.stdin,
            process=process,
            framing=framing,
            timeout=timeout,
            close_timeout=close_timeout,
            on_notification=on_notification,
            max_notifications=max_notifications,
        )
        if process.stderr is not None:
            sink = None if isinstance(stderr, int) else stderr
            self._stderr_thread = threading.Thread(
                target=self._drain_stderr, args=(process.stderr, sink), name="inbox-rpc stderr", daemon=True
            )
            self._stderr_thread.start()
        self._start_reader()

    @classmethod
    def attach(
        cls,
        reader: IO[bytes],
        writer: IO[bytes],
        *,
        framing: Framing = "ndjson",
        timeout: float = 30.0,
        close_timeout: float = 5.0,
        on_notification: Optional[NotificationCallback] = None,
        max_notifications: int = 10_000,
    ) -> "Client":
        """A client over streams already connected to a server: `reader` carries its output,
        `writer` its input (both binary). `close()` sends shutdown and exit and closes `writer`;
        `ServerExited.returncode` is None (there is no process to ask)."""
        client = cls.__new__(cls)
        client.command = []
        client._setup(
            reader=reader,
            writer=writer,
            process=None,
            framing=framing,
            timeout=timeout,
            close_timeout=close_timeout,
            on_notification=on_notification,
            max_notifications=max_notifications,
        )
        client._start_reader()
        return client

    @classmethod
    def from_env(cls, **kwargs: Any) -> "Client":
        """A client configured like the shell client: `INBOX_RPC_BIN` (the binary),
        `INBOX_STORE` (`--store`), `INBOX_RPC_FLAGS` (more flags, split as a shell would).
        Keyword arguments are passed on and win over the environment."""
        if "store" not in kwargs and os.environ.get("INBOX_STORE"):
            kwargs["store"] = os.environ["INBOX_STORE"]
        flags = shlex.split(os.environ.get("INBOX_RPC_FLAGS", ""))
        kwargs["args"] = flags + list(kwargs.get("args", ()))
        return cls(**kwargs)

    def _setup(
        self,
        *,
        reader: IO[bytes],
        writer: IO[bytes],
        process: Optional["subprocess.Popen[bytes]"],
        framing: Framing,
        timeout: float,
        close_timeout: float,
        on_notification: Optional[NotificationCallback],
        max_notifications: int,
    ) -> None:
        if framing not in _framing.FRAMINGS:
            raise ValueError(f"framing must be one of {', '.join(_framing.FRAMINGS)}, not {framing!r}")
        self.framing: Framing = framing
        self.timeout = timeout
        self.close_timeout = close_timeout
        self.on_notification = on_notification
        #: Notifications dropped from the full queue (the callback and listeners still got them).
        self.dropped_notifications = 0
        self.process = process
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._lock = threading.Lock()  # guards _pending, _exited, _closed, _listeners
        self._write_lock = threading.Lock()
        self._pending: Dict[int, Call] = {}
        self._exited: Optional[ServerExited] = None
        self._closed = False
        self._listeners: List[Tuple[Optional[str], NotificationCallback]] = []
        self._queue: Deque[Notification] = collections.deque(maxlen=max_notifications)
        self._queue_ready = threading.Condition(self._lock)
        self._stderr_tail: Deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._stderr_thread = None
        self._reader_thread = None
        self._contract: Optional["Contract"] = None

    def _start_reader(self) -> None:
        self._reader_thread = threading.Thread(target=self._read_loop, name="inbox-rpc reader", daemon=True)
        self._reader_thread.start()

    # MARK: - Context manager and lifecycle

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def returncode(self) -> Optional[int]:
        """The server's exit status once it has exited (None while it runs, or when attached)."""
        return None if self.process is None else self.process.poll()

    @property
    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr (empty when stderr is discarded)."""
        with self._lock:
            return "\n".join(self._stderr_tail)

    def close(self, timeout: Optional[float] = None) -> Optional[int]:
        """Ends the session cleanly: `shutdown`, then `exit`, then end of input; waits up to
        `timeout` seconds (default `close_timeout`) for the server, then kills it. Returns its
        exit status (0 after a clean shutdown). Calling it again does nothing more."""
        wait = self.close_timeout if timeout is None else timeout
        with self._lock:
            already_closed, self._closed = self._closed, True
            alive = self._exited is None
        if not already_closed and alive:
            try:
                self._start("shutdown", None, closing=True).result(wait)
                self.notify("exit")
            except (InboxRPCClientError, OSError):
                pass  # gone or stuck: end of input and the kill below settle it
        try:
            self._writer.close()
        except OSError:
            pass
        if self.process is not None:
            try:
                self.process.wait(wait)
            except subprocess.TimeoutExpired:
                log.warning("inbox-rpc did not exit within %g s; killing it", wait)
                self.process.kill()
                self.process.wait()
        for thread in (self._reader_thread, self._stderr_thread):
            if thread is not None and thread is not threading.current_thread():
                thread.join(wait)
        if self.process is not None:
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
        return self.returncode

    def kill(self) -> None:
        """Kills the server process at once (tests and emergencies); pending calls fail with
        `ServerExited`."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()

    # MARK: - Calls

    def call(self, method: str, params: Any = None, /, *, timeout: Optional[float] = None, **kwargs: Any) -> Any:
        """Calls `method` and returns its result: `client.call("feed.list", limit=3)`.

        Parameters go as keyword arguments (sent by name, as given) or as one `params` value
        (an object or an array, for names that are not identifiers). Raises `RPCError` (of the
        subclass for its code) for an error reply, `ServerExited`, or `CallTimeout`.
        """
        if kwargs:
            if params is not None:
                raise TypeError("pass parameters either as keyword arguments or as params, not both")
            params = kwargs
        return self._start(method, params).result(timeout)

    def start(self, method: str, params: Any = None, /, **kwargs: Any) -> Call:
        """Sends a request without waiting: returns its `Call` (`result()`, `cancel()`)."""
        if kwargs:
            if params is not None:
                raise TypeError("pass parameters either as keyword arguments or as params, not both")
            params = kwargs
        return self._start(method, params)

    def notify(self, method: str, params: Any = None, /, **kwargs: Any) -> None:
        """Sends a notification (no reply), e.g. `$/cancelRequest`."""
        if kwargs:
            params = kwargs
        message: JSONObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._send(message, method)

    def _start(self, method: str, params: Any, *, closing: bool = False) -> Call:
        message: JSONObject = {"jsonrpc": "2.0", "id": 0, "method": method}
        if params is not None:
            if not isinstance(params, (dict, list, tuple)):
                raise TypeError(f"params must be an object or an array, not {type(params).__name__}")
            message["params"] = params
        with self._lock:
            if self._closed and not closing:
                raise ProtocolError(f"{method}: the client is closed")
            if self._exited is not None:
                raise ServerExited(self._exited.returncode, self._exited.stderr_tail, method=method)
            call = Call(self, next(self._ids), method)
            message["id"] = call.id
            self._pending[call.id] = call
        try:
            self._send(message, method)
        except BaseException:
            with self._lock:
                self._pending.pop(call.id, None)
            raise
        return call

    def _forget(self, request_id: int) -> None:
        """Stops waiting for a reply (a call that timed out): a late reply is then dropped."""
        with self._lock:
            self._pending.pop(request_id, None)

    def _send(self, message: JSONObject, method: str) -> None:
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        frame = _framing.encode(body, self.framing)
        try:
            with self._write_lock:
                self._writer.write(frame)
                self._writer.flush()
        except (OSError, ValueError):  # BrokenPipeError, or a closed stream
            raise self._wait_for_exit(method) from None

    def _wait_for_exit(self, method: str) -> ServerExited:
        """The `ServerExited` for a server whose input is gone (waits briefly for its output to end)."""
        if self._reader_thread is not None and self._reader_thread is not threading.current_thread():
            self._reader_thread.join(self.close_timeout)
        with self._lock:
            exited = self._exited
        if exited is None:
            return ServerExited(self.returncode, self.stderr_tail, method=method)
        return ServerExited(exited.returncode, exited.stderr_tail, method=method)

    # MARK: - Reading

    def _read_loop(self) -> None:
        try:
            while True:
                body = _framing.read_frame(self._reader, self.framing)
                if body is None:
                    break
                try:
                    message = json.loads(body)
                except ValueError:
                    log.warning("inbox-rpc sent a frame that is not JSON: %r", body[:200])
                    continue
                self._dispatch(message)
        except (OSError, ValueError) as error:  # a closed stream, or a header block without a length
            log.debug("reading from inbox-rpc stopped: %s", error)
        finally:
            self._output_ended()

    def _dispatch(self, message: Any) -> None:
        if isinstance(message, list):
            for item in message:
                self._dispatch(item)
            return
        if not isinstance(message, dict):
            log.warning("inbox-rpc sent a message that is not an object: %r", message)
            return
        if "method" in message:
            if "id" in message:
                log.warning("inbox-rpc sent a request (%s); clients answer none", message.get("method"))
                return
            self._deliver(Notification(str(message["method"]), message.get("params")))
            return
        request_id = message.get("id")
        with self._lock:
            call = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
        if call is None:
            if request_id is None and "error" in message:
                # About a frame the server could not read as a request (too large, say): no call
                # can be named, so the one that sent it waits for its timeout.
                log.warning("inbox-rpc error without an id: %s", message["error"])
            else:
                log.debug("reply to id %r, which no call waits for (timed out)", request_id)
            return
        if "error" in message and isinstance(message["error"], dict):
            try:
                error: BaseException = RPCError.from_reply(message["error"], method=call.method)
            except ProtocolError as problem:
                error = problem
            call._finish(error=error)
        elif "result" in message:
            call._finish(result=message["result"], error=self._contract_problem(call.method, message))
        else:
            call._finish(error=ProtocolError(f"{call.method}: reply without result or error: {message!r}"))

    def check_replies(self, document: Optional[JSONObject] = None) -> "Contract":
        """Opt in to the contract check: from now on a result that breaks its method's schema
        raises `ContractViolation` (a `ProtocolError`) from the call. `document` is the OpenRPC
        document to check against; by default the server's own (`rpc.discover`). Needs the
        `contract` extra (jsonschema-rs); the rest of the client stays standard library only."""
        from .contract import Contract

        self._contract = Contract(document if document is not None else self.discover())
        return self._contract

    def _contract_problem(self, method: str, reply: JSONObject) -> Optional[BaseException]:
        if self._contract is None:
            return None
        try:
            self._contract.check_reply(method, reply)
        except ProtocolError as violation:
            return violation
        return None

    def _deliver(self, notification: Notification) -> None:
        with self._lock:
            if self._queue.maxlen is not None and len(self._queue) == self._queue.maxlen:
                self.dropped_notifications += 1
            self._queue.append(notification)
            self._queue_ready.notify_all()
            listeners = [callback for method, callback in self._listeners if method in (None, notification.method)]
        if self.on_notification is not None:
            listeners.insert(0, self.on_notification)
        for callback in listeners:
            try:
                callback(notification)
            except Exception:  # a callback's bug must not stop the reader
                log.exception("notification callback failed on %s", notification.method)

    def _output_ended(self) -> None:
        """The server's output ended: it exited (or is about to). Fails every pending call."""
        returncode: Optional[int] = None
        if self.process is not None:
            try:
                returncode = self.process.wait(self.close_timeout)
            except subprocess.TimeoutExpired:
                returncode = None  # closed its stdout yet runs on; close() will kill it
        if self._stderr_thread is not None:
            self._stderr_thread.join(1.0)
        with self._lock:
            exited = ServerExited(returncode, "\n".join(self._stderr_tail))
            self._exited = exited
            pending, self._pending = self._pending, {}
            self._queue_ready.notify_all()
        for call in pending.values():
            call._finish(error=ServerExited(exited.returncode, exited.stderr_tail, method=call.method))

    def _drain_stderr(self, stream: IO[bytes], sink: Optional[IO[str]]) -> None:
        """Reads the server's stderr to its end, so the server can never block on it."""
        try:
            for raw in stream:
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                with self._lock:
                    self._stderr_tail.append(line)
                if sink is not None:
                    try:
                        sink.write(line + "\n")
                        sink.flush()
                    except (OSError, ValueError):
                        sink = None
        except (OSError, ValueError):
            pass

    # MARK: - Notifications

    def add_listener(self, callback: NotificationCallback, method: Optional[str] = None) -> Callable[[], None]:
        """Calls `callback` for each notification (of `method` only, if given), on the reader
        thread: keep it quick, and do not wait for a reply inside it. Returns a function that
        removes the listener."""
        entry = (method, callback)
        with self._lock:
            self._listeners.append(entry)

        def remove() -> None:
            with self._lock:
                if entry in self._listeners:
                    self._listeners.remove(entry)

        return remove

    def notifications(self, timeout: Optional[float] = None) -> Iterator[Notification]:
        """Yields notifications as they arrive (queued ones first). Stops when none has come
        for `timeout` seconds (None: waits until the server exits)."""
        while True:
            with self._lock:
                deadline = None if timeout is None else time.monotonic() + timeout
                while not self._queue and self._exited is None:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        return
                    self._queue_ready.wait(remaining)
                if not self._queue:
                    return
                notification = self._queue.popleft()
            yield notification

    def take_notifications(self, method: Optional[str] = None) -> List[Notification]:
        """Removes and returns the queued notifications (of `method` only, if given), without waiting."""
        with self._lock:
            taken = [n for n in self._queue if method is None or n.method == method]
            kept = [n for n in self._queue if method is not None and n.method != method]
            self._queue.clear()
            self._queue.extend(kept)
        return taken

    # MARK: - Lifecycle and discovery methods

    def initialize(
        self,
        *,
        client: Optional[JSONObject] = None,
        platform: Optional[str] = None,
        capabilities: Optional[JSONObject] = None,
        attributes: Optional[JSONObject] = None,
    ) -> InitializeResult:
        """`initialize` (optional): declares the host; its attributes last for this session."""
        params = _params(client=client, platform=platform, capabilities=capabilities, attributes=attributes)
        return cast(InitializeResult, self.call("initialize", params))

    def ping(self) -> str:
        """`rpc.ping` -> "pong"."""
        return cast(str, self.call("rpc.ping"))

    def discover(self) -> JSONObject:
        """`rpc.discover`: the server's OpenRPC document."""
        return cast(JSONObject, self.call("rpc.discover"))

    def config_get(self) -> AttributesResult:
        """`config.get`: the attributes in force."""
        return cast(AttributesResult, self.call("config.get"))

    def config_set(self, attributes: JSONObject) -> AttributesResult:
        """`config.set`: merges `attributes` over those in force and saves them with the store."""
        return cast(AttributesResult, self.call("config.set", {"attributes": attributes}))

    # MARK: - Feed

    def feed_list(
        self,
        *,
        cursor: Optional[str] = None,
        limit: Optional[int] = None,
        unread_only: Optional[bool] = None,
        kinds: Optional[Iterable[str]] = None,
    ) -> FeedPage:
        """`feed.list`: one page in feed order (pinned first, then newest first)."""
        params = _params(
            cursor=cursor, limit=limit, unreadOnly=unread_only, kinds=None if kinds is None else list(kinds)
        )
        return cast(FeedPage, self.call("feed.list", params))

    def iter_feed(
        self, *, page_size: Optional[int] = None, unread_only: Optional[bool] = None, kinds: Optional[Iterable[str]] = None
    ) -> Iterator[Card]:
        """Every card of the feed, page after page (each message once, whatever changes meanwhile)."""
        kind_list = None if kinds is None else list(kinds)
        cursor: Optional[str] = None
        while True:
            page = self.feed_list(cursor=cursor, limit=page_size, unread_only=unread_only, kinds=kind_list)
            yield from page["items"]
            cursor = page["nextCursor"]
            if cursor is None:
                return

    def feed_counts(self) -> Counts:
        """`feed.counts`: total, unread, unactioned and pinned visible messages."""
        return cast(Counts, self.call("feed.counts"))

    def feed_mark_all_read(self) -> ChangedResult:
        """`feed.markAllRead`."""
        return cast(ChangedResult, self.call("feed.markAllRead"))

    def feed_sync(
        self, *, on_progress: Optional[Callable[[SyncProgress], None]] = None, timeout: Optional[float] = None
    ) -> SyncReport:
        """`feed.sync`: pushes pending local changes, fetches from the backend, and reports.

        `on_progress` gets each `sync.progress` notification's params while the sync runs (on
        the reader thread). Ctrl-C or the timeout cancels the sync on the server. A server
        without sync raises `MethodNotFound`; one without a backend `BackendNotConfigured`.
        """
        remove = None
        if on_progress is not None:
            progress = on_progress

            def forward(notification: Notification) -> None:
                progress(cast(SyncProgress, notification.params or {}))

            remove = self.add_listener(forward, "sync.progress")
        try:
            return cast(SyncReport, self.call("feed.sync", timeout=timeout))
        finally:
            if remove is not None:
                remove()

    # MARK: - Messages

    def message_get(self, id: str) -> Card:
        """`message.get`: the card of a visible message (`MessageNotFound` otherwise)."""
        return cast(Card, self.call("message.get", {"id": id}))

    def message_tap(self, id: str, *, perform_default: Optional[bool] = None) -> TapResult:
        """`message.tap`: marks it read and opened (unless `perform_default=False`) and returns
        its row action and custom data for the host to act on."""
        return cast(TapResult, self.call("message.tap", _params(id=id, performDefault=perform_default)))

    def button_tap(self, id: str, button: int, *, perform_default: Optional[bool] = None) -> ButtonTapResult:
        """`button.tap`: the message becomes read and opened, and the server performs `dismiss` and
        `markRead` (unless `perform_default=False`); `openURL` and `custom` are for the host to act on."""
        params = _params(id=id, button=button, performDefault=perform_default)
        return cast(ButtonTapResult, self.call("button.tap", params))

    def slide_tap(self, id: str, slide: int) -> SlideTapResult:
        """`slide.tap`: the slide's url, or the message's row action."""
        return cast(SlideTapResult, self.call("slide.tap", {"id": id, "slide": slide}))

    def message_dismiss(self, id: str) -> DismissResult:
        """`message.dismiss`: persisted before the reply; False when it already was dismissed."""
        return cast(DismissResult, self.call("message.dismiss", {"id": id}))

    def message_mark_read(self, ids: Iterable[str]) -> MarkReadResult:
        """`message.markRead`."""
        return cast(MarkReadResult, self.call("message.markRead", {"ids": list(ids)}))

    def message_ingest(self, payload: JSONObject, *, id: Optional[str] = None) -> IngestResult:
        """`message.ingest`: stores a message from a push payload, a send-request notification
        object or a backend inbox message (`NotAnInboxMessage` when it is none)."""
        return cast(IngestResult, self.call("message.ingest", _params(payload=payload, id=id)))

    def message_resolve(
        self,
        payload: JSONObject,
        *,
        attributes: Optional[JSONObject] = None,
        id: Optional[str] = None,
        now: Optional[int] = None,
    ) -> Card:
        """`message.resolve`: the card a payload becomes, without storing anything."""
        params = _params(payload=payload, attributes=attributes, id=id, now=now)
        return cast(Card, self.call("message.resolve", params))


def _params(**members: Any) -> JSONObject:
    """The members that were given (None means: leave it to the server's default)."""
    return {name: value for name, value in members.items() if value is not None}
