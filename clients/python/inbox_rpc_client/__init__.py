"""A thin client for `inbox-rpc`, the stdio JSON-RPC 2.0 server of a mobile-inbox engine.

    from inbox_rpc_client import Client

    with Client(store="inbox.sqlite", sample_feed=True) as inbox:
        for card in inbox.feed.list(limit=5)["items"]:
            print(card["id"], card["kind"], card["title"])
        try:
            inbox.message.get(id="nope")
        except inbox.errors.MessageNotFound as error:
            print(error.name, error.code, error.data)

Methods, params and errors come from the server's contract (`rpc.discover`), not from this
package. Standard library only; Python 3.9 or later.
"""

from ._framing import Framing
from .client import Call, Client, Notification, ServerExited, find_server
from .contract import Contract, InboxRpcError

__version__ = "0.1.0"

__all__ = ["Call", "Client", "Contract", "Framing", "InboxRpcError", "Notification", "ServerExited", "find_server"]
