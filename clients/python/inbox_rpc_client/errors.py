"""Exceptions raised by the client.

Every exception of this package derives from `InboxRPCClientError`. An error *reply* from the
server is an `RPCError` (or the subclass registered for its code), carrying the reply's `code`,
`message` and `data` unchanged; the rest describe the connection: the server went away
(`ServerExited`), a reply did not come in time (`CallTimeout`), or the server sent something that
is not JSON-RPC (`ProtocolError`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Mapping, Optional, Type


class InboxRPCClientError(Exception):
    """Base class of every exception raised by `inbox_rpc_client`."""


class RPCError(InboxRPCClientError):
    """An error reply: `code`, `message` and `data` exactly as the server sent them.

    `RPCError.from_reply(error_object)` returns the subclass registered for the code (for example
    `MessageNotFound` for -32001), or `RPCError` itself for a code this client does not know, so
    `except RPCError` catches every error reply.
    """

    code: int
    #: The code a subclass stands for; `RPCError` itself stands for none.
    CODE: ClassVar[Optional[int]] = None
    _by_code: ClassVar[Dict[int, Type["RPCError"]]] = {}

    def __init__(self, code: int, message: str, data: Any = None, *, method: Optional[str] = None) -> None:
        self.code = code
        self.message = message
        self.data = data
        #: The method of the call that got this reply, when known.
        self.method = method
        super().__init__(code, message, data)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.CODE is not None:
            RPCError._by_code[cls.CODE] = cls

    def __str__(self) -> str:
        where = f"{self.method}: " if self.method else ""
        detail = f" {self.data}" if self.data is not None else ""
        return f"{where}{self.message} ({self.code}){detail}"

    @classmethod
    def from_reply(cls, error: Mapping[str, Any], *, method: Optional[str] = None) -> "RPCError":
        """The exception for a JSON-RPC error object, of the subclass registered for its code.

        Raises `ProtocolError` when the object has no integer `code`.
        """
        code = error.get("code")
        message = error.get("message")
        if not isinstance(code, int) or isinstance(code, bool):
            raise ProtocolError(f"error reply without an integer code: {dict(error)!r}")
        subclass = cls._by_code.get(code, RPCError)
        return subclass(code, message if isinstance(message, str) else "", error.get("data"), method=method)

    @classmethod
    def for_code(cls, code: int) -> Type["RPCError"]:
        """The class that `from_reply` uses for `code`."""
        return cls._by_code.get(code, RPCError)

    def _data_member(self, key: str) -> Any:
        return self.data.get(key) if isinstance(self.data, dict) else None

    def _data_text(self, key: str) -> Optional[str]:
        """`data[key]` when it is a string."""
        value = self._data_member(key)
        return value if isinstance(value, str) else None


# MARK: - JSON-RPC 2.0


class ParseError(RPCError):
    """-32700: the server could not parse what it was sent. `data`: reason, kind, line, column, position."""

    CODE = -32700


class InvalidRequest(RPCError):
    """-32600: not a valid request (also: too large, too deep, or sent after `shutdown`)."""

    CODE = -32600


class MethodNotFound(RPCError):
    """-32601: the server has no such method. `data`: {method}."""

    CODE = -32601


class InvalidParams(RPCError):
    """-32602: a parameter is missing or wrong. `data`: {param, reason}."""

    CODE = -32602

    @property
    def param(self) -> Optional[str]:
        """The parameter the server named (`data.param`)."""
        return self._data_text("param")

    @property
    def reason(self) -> Optional[str]:
        """Why it was refused (`data.reason`)."""
        return self._data_text("reason")


class InternalError(RPCError):
    """-32603: the server failed while handling the request."""

    CODE = -32603


class RequestCancelled(RPCError):
    """-32800: the request was cancelled (`$/cancelRequest`, or the server shutting down)."""

    CODE = -32800


# MARK: - inbox-rpc application codes


class MessageNotFound(RPCError):
    """-32001: no visible message has this id (unknown, dismissed or expired). `data`: {id}."""

    CODE = -32001

    @property
    def id(self) -> Optional[str]:
        """The id that was not found (`data.id`)."""
        return self._data_text("id")


class NotAnInboxMessage(RPCError):
    """-32010: the payload is not an inbox message; nothing was stored. `data`: {reason, code}."""

    CODE = -32010


class StoreFailure(RPCError):
    """-32020: the store failed (busy, damaged, disk full). `data`: {kind, message}."""

    CODE = -32020


class BackendError(RPCError):
    """A `feed.sync` the backend did not complete; the local feed keeps working and no change is
    lost (`data.pushed`, `data.pending` say how far it got)."""


class BackendUnavailable(BackendError):
    """-32030: the backend cannot be reached (refused, DNS or TLS failure, timeout, closed mid-body)."""

    CODE = -32030


class BackendRefused(BackendError):
    """-32031: the backend answered, but not HTTP 200 with `status_code` 200. `data`: httpStatus, statusCode, ..."""

    CODE = -32031


class BackendMalformedReply(BackendError):
    """-32032: the backend's reply is empty, not JSON, or not the contract's shape. `data.path` says where."""

    CODE = -32032


class BackendNotConfigured(BackendError):
    """-32033: `feed.sync` was called on a server that has no backend configured."""

    CODE = -32033


# MARK: - The connection


class ServerExited(InboxRPCClientError):
    """The server is gone: it exited (or closed its output) before answering.

    `returncode` is the server's exit status (negative: killed by that signal; None: unknown, as
    for attached streams), `stderr_tail` the last lines it wrote to stderr.
    """

    def __init__(self, returncode: Optional[int], stderr_tail: str = "", *, method: Optional[str] = None) -> None:
        self.returncode = returncode
        self.stderr_tail = stderr_tail
        self.method = method
        super().__init__(returncode, stderr_tail)

    def __str__(self) -> str:
        status = "an unknown status" if self.returncode is None else f"status {self.returncode}"
        where = f" during {self.method}" if self.method else ""
        text = f"inbox-rpc exited with {status}{where}"
        if self.stderr_tail:
            text += "; its stderr ended with:\n" + self.stderr_tail
        return text


class CallTimeout(InboxRPCClientError, TimeoutError):
    """No reply came within the call's timeout (the request was then cancelled on the server)."""

    def __init__(self, method: str, timeout: float) -> None:
        self.method = method
        self.timeout = timeout
        super().__init__(f"{method}: no reply within {timeout:g} s")


class ProtocolError(InboxRPCClientError):
    """The server sent something that is not a JSON-RPC message, or the client was misused."""


class ContractViolation(ProtocolError, AssertionError):
    """A reply or notification that breaks the server's OpenRPC contract (see `Client.check_replies`)."""
