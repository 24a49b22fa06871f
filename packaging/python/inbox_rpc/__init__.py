"""The inbox-rpc server as a Python package: its native binary lives here (SQLite linked in,
jansson beside the package, in `inbox_rpc.libs/`, found through the binary's RPATH), and the
`inbox-rpc` command the wheel puts on PATH becomes that binary. `inbox_rpc_client` starts it
without `INBOX_RPC_BIN`.
"""

from __future__ import annotations

import os
import sys


def binary() -> str:
    """The path of the packaged server executable."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "inbox-rpc")


def main() -> None:
    """`inbox-rpc ARGS...`: replaced by the binary, so stdin, stdout, signals and the exit code are
    the server's own (an MCP host launching `uvx inbox-rpc mcp` talks to it directly)."""
    path = binary()
    os.execv(path, [path, *sys.argv[1:]])
