"""The contract in Schemas/openrpc.json, applied to what the server actually says.

`Contract.check_reply(method, reply)` validates a result against the method's result schema and
an error against the codes the method declares (plus the transport's own); `check_notification`
validates a notification's params. The harness in conftest.py calls both for every frame any
test receives, so a reply that drifts from the schemas fails the suite wherever it shows up.
"""

from __future__ import annotations

import json
import os
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Schemas")
DOCUMENT_PATH = os.path.join(SCHEMAS, "openrpc.json")
# Codes the transport can answer for any request, whatever the method declares.
TRANSPORT_CODES = {-32700, -32600, -32601, -32603}


class ContractViolation(AssertionError):
    pass


class Contract:
    def __init__(self, path: str = DOCUMENT_PATH):
        with open(path, encoding="utf-8") as f:
            self.document = json.load(f)
        resource = Resource(contents=self.document, specification=DRAFT202012)
        self.registry = Registry().with_resource("urn:inbox-rpc", resource)
        self.methods = {m["name"]: m for m in self.document["methods"]}
        self.errors = self.document["components"]["errors"]
        self._validators: dict[str, Draft202012Validator] = {}
        self.checked = 0

    def validator(self, schema: Any) -> Draft202012Validator:
        key = json.dumps(schema, sort_keys=True)
        if key not in self._validators:
            self._validators[key] = Draft202012Validator(self._rebase(schema), registry=self.registry)
        return self._validators[key]

    def _rebase(self, node: Any) -> Any:
        """Local refs (#/components/...) point into the registered document."""
        if isinstance(node, dict):
            return {k: ("urn:inbox-rpc" + v if k == "$ref" and isinstance(v, str) and v.startswith("#") else self._rebase(v))
                    for k, v in node.items()}
        if isinstance(node, list):
            return [self._rebase(item) for item in node]
        return node

    def schema(self, name: str) -> dict:
        return {"$ref": f"#/components/schemas/{name}"}

    def errors_of(self, value: Any, schema: Any) -> list[str]:
        return [f"{'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
                for e in sorted(self.validator(schema).iter_errors(value), key=str)]

    def declared_codes(self, method: str) -> set[int]:
        codes = set(TRANSPORT_CODES)
        for ref in self.methods.get(method, {}).get("errors", []):
            codes.add(self.errors[ref["$ref"].rsplit("/", 1)[1]]["code"])
        return codes

    def check_reply(self, method: str, reply: dict) -> None:
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

    def check_notification(self, message: dict) -> None:
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


CONTRACT = Contract()
