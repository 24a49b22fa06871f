"""Each MCP revision's own schema (schema/<revision>/schema.json of the specification's repository)
and a bare stdio session with `inbox-rpc mcp`, so that every reply can be checked against the schema
of the revision it was answered in.

The schemas are looked for under INBOX_RPC_MCP_SCHEMAS, else Tests/MCP/data/mcp-schema: one folder
per revision, each holding that revision's schema.json as published.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from typing import Any

import jsonschema
import pytest

from harness import BIN

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.environ.get("INBOX_RPC_MCP_SCHEMAS", os.path.join(HERE, "data", "mcp-schema"))
HANDSHAKE = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
STATELESS = "2026-07-28"


class RevisionSchema:
    """One revision's schema.json. `strict`: each definition with properties and no word on others
    refuses members it does not name, so a member a newer revision added (a title, structured
    output) fails the check of an older one instead of passing as an extension."""

    def __init__(self, revision: str, strict: bool):
        path = os.path.join(SCHEMAS, revision, "schema.json")
        if not os.path.exists(path):
            pytest.skip(f"no schema.json of revision {revision} in {SCHEMAS} (see Tests/MCP/revisions.py)")
        with open(path, encoding="utf-8") as file:
            self.root = json.load(file)
        self.key = "$defs" if "$defs" in self.root else "definitions"
        if strict:
            for definition in self.root[self.key].values():
                if "properties" in definition and "additionalProperties" not in definition:
                    definition["additionalProperties"] = False
        self.revision = revision

    def has(self, name: str) -> bool:
        return name in self.root[self.key]

    def check(self, name: str, value: Any) -> None:
        """`value` must be a valid `name` (a definition of this revision's schema)."""
        schema = copy.copy(self.root)
        schema["$ref"] = f"#/{self.key}/{name}"
        cls = jsonschema.validators.validator_for(self.root)
        error = jsonschema.exceptions.best_match(cls(schema).iter_errors(value))
        if error is not None:
            raise AssertionError(f"not a valid {name} of revision {self.revision}: {error.message} at "
                                 f"{list(error.absolute_path)}\n{json.dumps(value)[:1500]}")

    def framed(self, name: str, frame: dict) -> dict:
        """`frame` as definition `name` has it: with `jsonrpc` only where the revision names it there."""
        if "jsonrpc" in self.root[self.key][name].get("properties", {}):
            return frame
        return {k: v for k, v in frame.items() if k != "jsonrpc"}

    def error_frame(self) -> str:
        return "JSONRPCErrorResponse" if self.has("JSONRPCErrorResponse") else "JSONRPCError"


# What each request answers and each notification is, by the name the schemas give them.
RESULTS = {
    "initialize": "InitializeResult", "server/discover": "DiscoverResult", "ping": "EmptyResult",
    "tools/list": "ListToolsResult", "tools/call": "CallToolResult", "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult", "resources/read": "ReadResourceResult",
    "resources/subscribe": "EmptyResult", "resources/unsubscribe": "EmptyResult", "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult", "logging/setLevel": "EmptyResult",
}
NOTIFICATIONS = {
    "notifications/resources/updated": "ResourceUpdatedNotification",
    "notifications/resources/list_changed": "ResourceListChangedNotification",
    "notifications/message": "LoggingMessageNotification", "notifications/progress": "ProgressNotification",
}


class BareSession:
    """`inbox-rpc mcp` over pipes, one request at a time; every reply and notification is checked
    against `schema` as it arrives."""

    def __init__(self, schema: RevisionSchema, store: str, *args: str, meta: dict | None = None):
        self.schema = schema
        self.meta = meta
        self.proc = subprocess.Popen([BIN, "mcp", "--store", store, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.notifications: list[dict] = []
        self.next_id = 0
        self.checked = 0

    def send(self, frame: dict) -> None:
        self.proc.stdin.write((json.dumps(frame) + "\n").encode())
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict | None = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, **({"params": params} if params is not None else {})})

    def request(self, method: str, params: dict | None = None) -> dict:
        """The reply frame (a result or an error), checked against the revision's schema."""
        self.next_id += 1
        params = dict(params or {})
        if self.meta is not None:
            params["_meta"] = {**params.get("_meta", {}), **self.meta}
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            assert line, f"the server closed stdout before answering {method}"
            frame = json.loads(line)
            if "id" not in frame:
                self.schema.check(NOTIFICATIONS[frame["method"]], self.schema.framed(NOTIFICATIONS[frame["method"]], frame))
                self.notifications.append(frame)
                self.checked += 1
                continue
            assert frame["id"] == self.next_id, frame
            if "error" in frame:
                self.schema.check(self.schema.error_frame(), frame)
            else:
                self.schema.check(RESULTS[method], frame["result"])
            self.checked += 1
            return frame

    def result(self, method: str, params: dict | None = None) -> dict:
        frame = self.request(method, params)
        assert "result" in frame, (method, params, frame)
        return frame["result"]

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
