"""A thin client for `inbox-rpc`, the stdio JSON-RPC 2.0 server of a mobile-inbox engine:
`with Client(store="inbox.sqlite") as inbox: inbox.feed.list(limit=5)`, `except inbox.errors.MessageNotFound`.

Methods, params and errors come from the server's contract (`rpc.discover`), not from this
package; README.md shows the rest. Standard library only; Python 3.9 or later.
"""
from ._framing import Framing
from .client import Call, Changes, Client, Notification, ServerExited, find_server
from .contract import Contract, InboxRpcError

__version__ = "0.1.0"

__all__ = ["Call", "Changes", "Client", "Contract", "Framing", "InboxRpcError", "Notification", "ServerExited", "find_server"]
