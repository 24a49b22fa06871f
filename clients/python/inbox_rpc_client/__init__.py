"""A Python client for `inbox-rpc`, the stdio JSON-RPC 2.0 server of a mobile-inbox engine.

    from inbox_rpc_client import Client, MessageNotFound

    with Client(store="inbox.sqlite", sample_feed=True) as inbox:
        for card in inbox.iter_feed():
            print(card["id"], card["kind"], card["title"])
        inbox.button_tap("welcome", 1)          # the welcome card's "Dismiss" button

Standard library only; Python 3.9 or later.
"""

from ._framing import Framing
from .client import Call, Client, Notification, find_server
from .errors import (
    BackendError,
    BackendMalformedReply,
    BackendNotConfigured,
    BackendRefused,
    BackendUnavailable,
    CallTimeout,
    ContractViolation,
    InboxRPCClientError,
    InternalError,
    InvalidParams,
    InvalidRequest,
    MessageNotFound,
    MethodNotFound,
    NotAnInboxMessage,
    ParseError,
    ProtocolError,
    RequestCancelled,
    RPCError,
    ServerExited,
    StoreFailure,
)
from .types import (
    ButtonAction,
    ButtonTapResult,
    Card,
    CardKind,
    Counts,
    DismissResult,
    FeedChanged,
    FeedPage,
    IngestResult,
    InitializeResult,
    LogParams,
    MarkReadResult,
    RowAction,
    SlideTapResult,
    SyncProgress,
    SyncReport,
    TapResult,
)

__version__ = "0.1.0"

__all__ = [
    "BackendError",
    "BackendMalformedReply",
    "BackendNotConfigured",
    "BackendRefused",
    "BackendUnavailable",
    "ButtonAction",
    "ButtonTapResult",
    "Call",
    "CallTimeout",
    "ContractViolation",
    "Card",
    "CardKind",
    "Client",
    "Counts",
    "DismissResult",
    "FeedChanged",
    "FeedPage",
    "Framing",
    "InboxRPCClientError",
    "IngestResult",
    "InitializeResult",
    "InternalError",
    "InvalidParams",
    "InvalidRequest",
    "LogParams",
    "MarkReadResult",
    "MessageNotFound",
    "MethodNotFound",
    "NotAnInboxMessage",
    "Notification",
    "ParseError",
    "ProtocolError",
    "RPCError",
    "RequestCancelled",
    "RowAction",
    "ServerExited",
    "SlideTapResult",
    "StoreFailure",
    "SyncProgress",
    "SyncReport",
    "TapResult",
    "find_server",
]
