"""The contract in Schemas/openrpc.json, applied to what the server actually says: the Python
client's opt-in check (`inbox_rpc_client.contract`, on jsonschema-rs) loaded with the repo's
document. conftest.py's harness calls it for every frame any test receives, so a reply that
drifts from the schemas fails the suite wherever it shows up."""

from __future__ import annotations

import os
import sys

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Schemas")
DOCUMENT_PATH = os.path.join(SCHEMAS, "openrpc.json")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))

from inbox_rpc_client.contract import BASE_URI, TRANSPORT_CODES, Contract, ContractViolation  # noqa: E402

__all__ = ["BASE_URI", "CONTRACT", "DOCUMENT_PATH", "SCHEMAS", "TRANSPORT_CODES", "ContractViolation"]

CONTRACT = Contract.from_file(DOCUMENT_PATH)
