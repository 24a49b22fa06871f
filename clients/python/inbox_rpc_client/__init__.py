"""A thin client for `inbox-rpc`, whose methods, params and errors come from the server's contract
(`rpc.discover`): `with Client(store="inbox.sqlite") as inbox: inbox.feed.list(limit=5)`. README.md
tells the rest. Standard library only; Python 3.9 or later."""
from ._framing import Framing
from .client import Call, Changes, Client, Notification, ServerExited, find_server
from .contract import Contract, InboxRpcError

__version__ = "0.1.0"
__all__ = ["Call", "Changes", "Client", "Contract", "Framing", "InboxRpcError", "Notification", "ServerExited", "find_server"]
