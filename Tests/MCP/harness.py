"""One way to drive `inbox-rpc mcp` with whichever official MCP SDK is installed (1.x or 2.x).

`session(...)` starts the server the way an MCP host does (stdio, a bare environment, settings as
arguments) and yields a `Peer`: the SDK's client plus what the server said unasked (notifications,
log messages) and the tools' output schemas, against which every structured result is checked.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import inspect
import json
import os
import tempfile
from typing import Any

import anyio
import jsonschema

from mcp import StdioServerParameters

SDK = importlib.metadata.version("mcp")
MAJOR = int(SDK.split(".")[0])
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("INBOX_RPC_BIN", os.path.join(REPO, ".build", "debug", "inbox-rpc"))

from mcp.client.stdio import stdio_client

if MAJOR >= 2:
    from mcp import Client
    from mcp.shared.exceptions import MCPError as ProtocolError
else:
    from mcp import ClientSession
    from mcp.shared.exceptions import McpError as ProtocolError


def code_of(error: Exception) -> int:
    return error.error.code


def attr(value: Any, snake: str) -> Any:
    """A field of an SDK model by its 2.x (snake_case) name, or its 1.x (camelCase) one; None for
    a field the SDK's revision does not have (1.9.x: no outputSchema, no structuredContent)."""
    if hasattr(value, snake):
        return getattr(value, snake)
    head, *rest = snake.split("_")
    return getattr(value, head + "".join(word.title() for word in rest), None)


@contextlib.contextmanager
def asking(revision: str | None):
    """The SDK's `initialize` asks for `revision` instead of its newest, as a host pinned to that
    revision does (the SDK's own constant, set for the session)."""
    if revision is None:
        yield
        return
    import mcp.client.session as module

    name = "LATEST_HANDSHAKE_VERSION" if MAJOR >= 2 else None
    target = module if name else module.types
    name = name or "LATEST_PROTOCOL_VERSION"
    saved = getattr(target, name)
    setattr(target, name, revision)
    try:
        yield
    finally:
        setattr(target, name, saved)


class Peer:
    def __init__(self, client: Any, stderr_path: str):
        self.client = client
        self.stderr_path = stderr_path
        self.notifications: list[Any] = []
        self.logs: list[Any] = []
        self.schemas: dict[str, dict] = {}

    @property
    def version(self) -> str:
        if MAJOR >= 2:
            return self.client.protocol_version
        return self.negotiated

    def stderr(self) -> str:
        with open(self.stderr_path, encoding="utf-8", errors="replace") as file:
            return file.read()

    async def tools(self) -> list[Any]:
        listed = (await self.client.list_tools()).tools
        for tool in listed:
            self.schemas[tool.name] = attr(tool, "output_schema")
        return listed

    async def call(self, name: str, arguments: dict | None = None, **options) -> Any:
        """Calls a tool; a successful result's structuredContent must validate against its outputSchema."""
        if not self.schemas:
            await self.tools()
        result = await self.client.call_tool(name, arguments or {}, **options)
        if not attr(result, "is_error"):
            schema = self.schemas[name]
            if schema is not None:  # revision 2025-03-26 has no output schemas
                jsonschema.Draft202012Validator.check_schema(schema)
                jsonschema.Draft202012Validator(schema).validate(attr(result, "structured_content"))
            assert result.content and result.content[0].type == "text" and result.content[0].text.strip()
        return result

    async def read(self, uri: str) -> Any:
        contents = (await self.client.read_resource(uri)).contents
        assert len(contents) == 1 and attr(contents[0], "mime_type") == "application/json", contents
        return json.loads(contents[0].text)

    async def wait_for(self, predicate, timeout: float = 5.0) -> list[Any]:
        with anyio.fail_after(timeout):
            while True:
                found = [n for n in self.notifications if predicate(n)]
                if found:
                    return found
                await anyio.sleep(0.02)


def method_of(notification: Any) -> str:
    return getattr(notification, "method", "")


@contextlib.asynccontextmanager
async def session(store: str, *args: str, mode: str = "auto", revision: str | None = None):
    """`inbox-rpc mcp --store STORE ARGS...` under the SDK; mode (2.x): "auto" probes server/discover,
    "legacy" forces initialize; `revision`: the one initialize asks for (default: the SDK's newest)."""
    params = StdioServerParameters(command=BIN, args=["mcp", "--store", store, *args])
    with tempfile.NamedTemporaryFile("w+", suffix=".stderr", delete=False) as errlog:
        peer: Peer | None = None

        async def on_message(message: Any) -> None:
            message = getattr(message, "root", message)
            if peer is not None and not isinstance(message, Exception):
                peer.notifications.append(message)

        async def on_log(params: Any) -> None:
            if peer is not None:
                peer.logs.append(params)

        if MAJOR >= 2:
            client = Client(
                stdio_client(params, errlog=errlog), mode=mode, message_handler=on_message, logging_callback=on_log,
                log_level="warning", cache=None)
            async with contextlib.AsyncExitStack() as stack:
                with asking(revision):  # the handshake happens on entering
                    await stack.enter_async_context(client)
                peer = Peer(client, errlog.name)
                yield peer
        elif "message_handler" in inspect.signature(ClientSession).parameters:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, message_handler=on_message, logging_callback=on_log) as client:
                    peer = Peer(client, errlog.name)
                    with asking(revision):
                        peer.negotiated = (await client.initialize()).protocolVersion
                    yield peer
        else:
            # Before 1.6 a host reads what the server says unasked from `incoming_messages`, as it
            # must: the session stops reading replies while a notification waits there.
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write, logging_callback=on_log) as client:

                    async def drain() -> None:
                        async for message in client.incoming_messages:
                            await on_message(message)

                    async with anyio.create_task_group() as tasks:
                        tasks.start_soon(drain)
                        peer = Peer(client, errlog.name)
                        with asking(revision):
                            peer.negotiated = (await client.initialize()).protocolVersion
                        try:
                            yield peer
                        finally:
                            tasks.cancel_scope.cancel()



async def changes_cursor_of_another_store(store: str) -> str:
    """A changes cursor a server on another store made (as when the file is made again): one that
    no journal on `store` resumes from."""
    async with session(store + ".other", mode="legacy") as peer:
        return json.loads((await peer.client.read_resource("inbox://changes")).contents[0].text)["cursor"]


def loosely_typed(schema: dict, path: str = "") -> list[str]:
    """Where an input schema breaks the rule every agent stack takes: each property (at any depth,
    and each array's items) has one plain `type`, and nothing says null (no `["string", "null"]`, no
    null branch of an `anyOf`/`oneOf`, no null in an `enum`)."""
    found = []
    for name, member in (schema.get("properties") or {}).items():
        where = f"{path}.{name}" if path else name
        if not isinstance(member.get("type"), str) or member["type"] == "null":
            found.append(f"{where}: type {member.get('type')!r}")
        if "anyOf" in member or "oneOf" in member or None in member.get("enum", []):
            found.append(f"{where}: a union or a null value")
        found += loosely_typed(member, where)
        if isinstance(member.get("items"), dict):
            found += loosely_typed({"properties": {"[]": member["items"]}}, where)
    return found
