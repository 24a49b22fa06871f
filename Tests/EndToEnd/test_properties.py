"""Property tests: params generated from each method's schema in Schemas/openrpc.json.

Valid params (drawn by hypothesis-jsonschema) must get a result that fits the method's result
schema or an error the method declares (both checked by the harness on every reply); params
mutated to break the schema (a wrong type, an unknown member, a missing required one) must get
-32602 naming the parameter. Whatever comes, the server keeps answering.
"""

from __future__ import annotations

import copy
import os
import shutil
import tempfile

import pytest

from hypothesis import HealthCheck, assume, given, settings, strategies as st
from hypothesis_jsonschema import from_schema

from conftest import Server
from contract import CONTRACT

# Methods whose effect would end the session under test.
SKIP = {"shutdown", "exit", "$/cancelRequest", "rpc.discover"}
METHODS = [m for m in CONTRACT.document["methods"] if not m.get("x-notification") and m["name"] not in SKIP]
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "40"))
RAN = {"valid": 0, "invalid": 0}
# The tests share one server: a test cut short by the per-test cap would leave its reply pending
# for the next test to read, failing the rest of the file. Forty examples of a method take a few
# seconds alone and several times that on a loaded machine, so the cap here is well above both.
pytestmark = pytest.mark.timeout(120)


def params_schema(method: dict) -> dict:
    """One object schema for a method's by-name params, with the document's components alongside."""
    return {
        "type": "object",
        "properties": {p["name"]: p["schema"] for p in method["params"]},
        "required": [p["name"] for p in method["params"] if p.get("required")],
        "additionalProperties": False,
        "components": CONTRACT.document["components"],
    }


@pytest.fixture(scope="module")
def server():
    directory = tempfile.mkdtemp(prefix="inbox-props-")
    server = Server(["--store", os.path.join(directory, "inbox.sqlite"), "--sample-feed"], store=False)
    yield server
    assert server.alive(), "the server died during the property tests"
    server.ping()
    server.close_stdin()
    server.wait_exit()
    shutil.rmtree(directory, ignore_errors=True)
    print(f"\nproperties: {RAN['valid']} valid and {RAN['invalid']} invalid generated calls")


def sendable(value) -> bool:
    """What the parser accepts (documented limits): no integer beyond 64 bits, no \\u0000 in a key.
    Anything else never reaches a method (-32700), so it is not a params case."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -(2**63) <= value < 2**63
    if isinstance(value, list):
        return all(sendable(item) for item in value)
    if isinstance(value, dict):
        return all("\0" not in key and sendable(item) for key, item in value.items())
    return True


def wrong_value(schema: dict):
    """A value of a JSON type the schema does not allow."""
    allowed = schema.get("type")
    allowed = set(allowed if isinstance(allowed, list) else [allowed] if allowed else [])
    for candidate in ({"unexpected": True}, ["unexpected"], "unexpected", 12345, True):
        kind = {dict: "object", list: "array", str: "string", int: "integer", bool: "boolean"}[type(candidate)]
        if allowed and kind not in allowed and not (kind == "integer" and "number" in allowed):
            return candidate
    return None


@pytest.mark.parametrize("method", METHODS, ids=[m["name"] for m in METHODS])
def test_valid_params_get_a_documented_answer(server, method):
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(from_schema(params_schema(method)))
    def check(params):
        params = {k: v for k, v in params.items() if k != "components"}
        assume(sendable(params))
        reply = server.call(method["name"], params)  # the harness validates it against the contract
        RAN["valid"] += 1
        if "error" in reply:
            assert reply["error"]["code"] != -32603, f"internal error for valid params {params}: {reply}"

    check()


@pytest.mark.parametrize("method", [m for m in METHODS if m["params"] and not m.get("x-additional-params")],
                         ids=lambda m: m["name"])
def test_invalid_params_get_invalid_params(server, method):
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(from_schema(params_schema(method)), st.data())
    def check(params, data):
        params = {k: v for k, v in params.items() if k != "components"}
        assume(sendable(params))
        descriptors = {p["name"]: p for p in method["params"]}
        mutations = ["unknown"]
        mutations += [f"drop:{n}" for n, p in descriptors.items() if p.get("required")]
        mutations += [f"type:{n}" for n, p in descriptors.items() if wrong_value(p["schema"]) is not None]
        mutation = data.draw(st.sampled_from(mutations))
        broken = copy.deepcopy(params)
        expected_param = None
        if mutation == "unknown":
            broken["noSuchParam"] = 1
            expected_param = "noSuchParam"
        elif mutation.startswith("drop:"):
            name = mutation[5:]
            broken.pop(name, None)
            expected_param = name
        else:
            name = mutation[5:]
            broken[name] = wrong_value(descriptors[name]["schema"])
            expected_param = name
        reply = server.call(method["name"], broken)
        RAN["invalid"] += 1
        assert "error" in reply and reply["error"]["code"] == -32602, f"{mutation} of {params} -> {reply}"
        assert reply["error"]["data"]["param"].startswith(expected_param), reply

    check()
