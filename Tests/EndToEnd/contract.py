"""The contract in Schemas/openrpc.json, applied to what the server actually says: results and
notifications validated against their schemas, error codes against the ones each method declares.
conftest.py's harness calls it for every frame any test receives, and the example clients' suites
for every frame their clients read, so a reply that drifts from the schemas fails wherever it
shows up.

It runs on jsonschema-rs (compiled Rust): each schema is compiled once and kept, so a feed page
costs microseconds to check instead of the tens of milliseconds the pure-Python `jsonschema` takes
for its `oneOf` over card kinds.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Set, Tuple

import jsonschema_rs

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Schemas")
DOCUMENT_PATH = os.path.join(SCHEMAS, "openrpc.json")


class ContractViolation(AssertionError):
    """A reply or notification that breaks the contract."""


# The document is registered under this URI; local refs are rebased onto it.
BASE_URI = "urn:inbox-rpc"
# Codes the transport can answer for any request, whatever the method declares.
TRANSPORT_CODES = {-32700, -32600, -32601, -32603}


class Contract:
    def __init__(self, document: Dict[str, Any]) -> None:
        self.document = document
        self.registry = jsonschema_rs.Registry([(BASE_URI, document)])
        self.methods = {m["name"]: m for m in document["methods"]}
        self.errors = document["components"]["errors"]
        # Keyed by the schema object's identity (the object is kept, so the id stays its own):
        # the schemas come from self.document, which lives as long as the contract.
        self._validators: Dict[int, Tuple[Any, Any]] = {}
        self.checked = 0

    @classmethod
    def from_file(cls, path: str) -> "Contract":
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f))

    def validator(self, schema: Any) -> Any:
        """The compiled validator of a schema of the document (compiled on first use, then kept)."""
        entry = self._validators.get(id(schema))
        if entry is None or entry[0] is not schema:
            entry = (schema, jsonschema_rs.Draft202012Validator(self.rebase(schema), registry=self.registry))
            self._validators[id(schema)] = entry
        return entry[1]

    def rebase(self, node: Any) -> Any:
        """Local refs (#/components/...) point into the registered document."""
        if isinstance(node, dict):
            return {k: (BASE_URI + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else self.rebase(v))
                    for k, v in node.items()}
        if isinstance(node, list):
            return [self.rebase(item) for item in node]
        return node

    def schema(self, name: str) -> Dict[str, str]:
        return {"$ref": f"#/components/schemas/{name}"}

    def errors_of(self, value: Any, schema: Any) -> list:
        validator = self.validator(schema)
        if validator.is_valid(value):
            return []
        return sorted(f"{'/'.join(map(str, e.instance_path)) or '<root>'}: {e.message}"
                      for e in validator.iter_errors(value))

    def declared_codes(self, method: str) -> Set[int]:
        codes = set(TRANSPORT_CODES)
        for ref in self.methods.get(method, {}).get("errors", []):
            codes.add(self.errors[ref["$ref"].rsplit("/", 1)[1]]["code"])
        return codes

    def check_reply(self, method: str, reply: Dict[str, Any]) -> None:
        """A reply to `method`: the result fits its schema, or the error is one it declares."""
        spec = self.methods.get(method)
        if spec is None or spec.get("x-notification"):
            return  # test-only methods (--test-methods) are outside the contract
        self.checked += 1
        if "result" in reply:
            problems = self.errors_of(reply["result"], spec["result"]["schema"])
            if problems:
                raise ContractViolation(f"{method} result breaks its schema: {problems[:3]}\nresult: {json.dumps(reply['result'])[:600]}")
        else:
            code = reply["error"]["code"]
            if code == -32800 and method:
                return  # any request can be cancelled
            if code not in self.declared_codes(method):
                raise ContractViolation(f"{method} answered error {code}, which its errors do not declare: {reply['error']}")
            data = reply["error"].get("data")
            if data is not None and not isinstance(data, dict):
                raise ContractViolation(f"{method} error data is not an object: {reply['error']}")

    def check_notification(self, message: Dict[str, Any]) -> None:
        spec = self.methods.get(message["method"])
        if spec is None or spec.get("x-direction") != "server-to-host":
            raise ContractViolation(f"the server sent an undocumented notification: {message}")
        self.checked += 1
        params = message.get("params", {})
        for descriptor in spec["params"]:
            name = descriptor["name"]
            if name not in params:
                if descriptor.get("required"):
                    raise ContractViolation(f"{message['method']} lacks {name}: {message}")
                continue
            problems = self.errors_of(params[name], descriptor["schema"])
            if problems:
                raise ContractViolation(f"{message['method']}.{name} breaks its schema: {problems[:3]}")
        extra = set(params) - {d["name"] for d in spec["params"]}
        if extra:
            raise ContractViolation(f"{message['method']} has undocumented params {extra}")


CONTRACT = Contract.from_file(DOCUMENT_PATH)
