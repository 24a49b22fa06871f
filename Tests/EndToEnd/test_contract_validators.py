"""The per-reply contract check runs on jsonschema-rs; this proves the switch changed its speed and
not its meaning. Real replies of the server (feed pages, cards of every resolver rule, counts,
taps, settings, the document) and deliberately broken copies of them get the same verdict from
jsonschema-rs and from the reference `jsonschema` package, and a broken reply still fails the
suite's harness wherever it shows up.

The broken copies are drawn from a seeded generator; INBOX_RPC_DIFF_SEED replays a run.
"""

from __future__ import annotations

import copy
import json
import os
import random
import sys
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import conftest
from conftest import REPO_ROOT, Server
from contract import BASE_URI, CONTRACT, ContractViolation

sys.path.insert(0, os.path.join(REPO_ROOT, "clients"))
from client_test_fixtures import stand_in_server  # noqa: E402
from test_resolve_cases import CASES

SEED_ENV = "INBOX_RPC_DIFF_SEED"
SEED = int(os.environ.get(SEED_ENV, str(random.randrange(1 << 30))))
BROKEN_PER_REPLY = 3

REFERENCE_REGISTRY = Registry().with_resource(BASE_URI, Resource(contents=CONTRACT.document, specification=DRAFT202012))


def reference_is_valid(value: Any, schema: Any) -> bool:
    return Draft202012Validator(CONTRACT.rebase(schema), registry=REFERENCE_REGISTRY).is_valid(value)


def result_schema(method: str) -> Any:
    return CONTRACT.methods[method]["result"]["schema"]


@pytest.fixture(scope="module")
def replies() -> list[tuple[str, Any]]:
    """(method, result) pairs from a server on the sample feed: a few hundred, every card kind."""
    server = Server(["--sample-feed"])
    out: list[tuple[str, Any]] = []

    def call(method: str, params: Any = conftest.MISSING) -> Any:
        reply = server.call(method, params)
        assert "result" in reply, reply
        out.append((method, reply["result"]))
        return reply["result"]

    try:
        for limit in (1, 2, 3, 5, 50):
            page = call("feed.list", {"limit": limit})
            while page["nextCursor"] is not None:
                page = call("feed.list", {"limit": limit, "cursor": page["nextCursor"]})
        call("feed.list", {"unreadOnly": True, "kinds": ["classic", "carousel"]})
        ids = [card["id"] for card in call("feed.list", {"limit": 50})["items"]]
        for id in ids:
            call("message.get", {"id": id})
        # Every resolver rule, as its table row has it and for an iOS host that adds wallet passes.
        for case in CASES:
            for attributes in (case.get("attributes"), {"platform": "ios", "walletPasses": True}):
                params = {"payload": case["payload"]}
                if attributes is not None:
                    params["attributes"] = attributes
                reply = server.call("message.resolve", params)
                if "result" in reply:
                    out.append(("message.resolve", reply["result"]))
        call("feed.counts")
        call("config.get")
        call("button.tap", {"id": "summer-sale", "button": 0})
        call("slide.tap", {"id": "new-arrivals", "slide": 0})
        call("message.tap", {"id": "plain-note"})
        call("message.markRead", {"ids": ids[:3]})
        call("message.dismiss", {"id": "hero-banner"})
        call("feed.markAllRead")
        call("rpc.discover")
    finally:
        server.close_stdin()
        server.wait_exit()
    return out


# -- deliberately broken copies ---------------------------------------------------------------

def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, prefix + (index,))


def node_at(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


OTHER_TYPES = [None, True, 7, 2.5, "", "not-a-kind", [], {}, [1, "x"], {"zz": 1}]


def broken(value: Any, rng: random.Random) -> tuple[str, Any]:
    """A copy of value with one thing changed: a member gone, added or of another type or value."""
    value = copy.deepcopy(value)
    path = rng.choice(list(paths(value)))
    node = node_at(value, path)
    moves = ["retype"]
    if isinstance(node, dict):
        moves += ["add"] + (["drop"] if node else [])
    if isinstance(node, list):
        moves += ["empty", "repeat"] if node else ["grow"]
    if isinstance(node, str):
        moves += ["empty-string", "unknown-word"]
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        moves += ["negative"]
    move = rng.choice(moves)
    parent, key = (node_at(value, path[:-1]), path[-1]) if path else (None, None)

    def put(new: Any) -> Any:
        if parent is None:
            return new
        parent[key] = new
        return value

    if move == "retype":
        return f"{path}: retyped", put(rng.choice([t for t in OTHER_TYPES if type(t) is not type(node)]))
    if move == "add":
        node["zzUnknownMember"] = 1
    elif move == "drop":
        del node[rng.choice(sorted(node))]
    elif move == "empty":
        node.clear()
    elif move == "repeat":
        node.extend(node[:1] * 5)
    elif move == "grow":
        node.append(rng.choice(OTHER_TYPES))
    elif move == "empty-string":
        return f"{path}: emptied", put("")
    elif move == "unknown-word":
        return f"{path}: unknown word", put(node + "-not-in-the-contract")
    elif move == "negative":
        return f"{path}: negative", put(-abs(node) - 1)
    return f"{path}: {move}", value


def test_both_validators_agree_on_real_and_broken_replies(replies):
    rng = random.Random(SEED)
    compared = invalid = 0
    disagreements = []
    for method, result in replies:
        schema = result_schema(method)
        samples = [("as served", result)] + [broken(result, rng) for _ in range(BROKEN_PER_REPLY)]
        for what, value in samples:
            fast = CONTRACT.validator(schema).is_valid(value)
            reference = reference_is_valid(value, schema)
            compared += 1
            invalid += not reference
            if fast != reference:
                disagreements.append(f"{method} {what}: jsonschema-rs {fast}, jsonschema {reference}")
            if what == "as served":
                assert reference, f"the server's own {method} reply breaks the contract"
    print(f"\n{compared} verdicts compared, {invalid} invalid (seed {SEED})", file=sys.stderr)
    assert compared >= 800, f"only {compared} verdicts compared"
    assert not disagreements, f"seed {SEED}: " + "; ".join(disagreements[:5])
    # The broken copies must really test something: most of them break the contract.
    assert invalid >= compared // 3, f"seed {SEED}: only {invalid} of {compared} copies were invalid"


# Answers every request with the same result.
BROKEN_SERVER = """
import json, sys
result = json.loads({result})
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({{"jsonrpc": "2.0", "id": request["id"], "result": result}}), flush=True)
"""


def test_the_harness_refuses_a_broken_reply(tmp_path, monkeypatch, replies):
    """A stand-in server that answers feed.list with a page whose card kind is unknown: the
    harness every end-to-end test goes through raises, so such a reply fails any test."""
    page = next(result for method, result in replies if method == "feed.list" and result["items"])
    bad = copy.deepcopy(page)
    bad["items"][0]["kind"] = "hologram"
    stand_in = stand_in_server(tmp_path, "broken-server", BROKEN_SERVER.format(result=json.dumps(json.dumps(bad))))
    monkeypatch.setattr(conftest, "BIN", str(stand_in))
    server = Server(framing="ndjson")
    try:
        with pytest.raises(ContractViolation, match="feed.list result breaks its schema"):
            server.call("feed.list", {"limit": 5})
        bad["items"][0]["kind"] = page["items"][0]["kind"]
        assert CONTRACT.errors_of(bad, result_schema("feed.list")) == []
    finally:
        server.kill()
