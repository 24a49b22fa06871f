"""Schemas/ describes exactly what the server does: the document is valid OpenRPC, every schema
file is a valid schema in both dialects, rpc.discover serves the file, the method lists match,
and every recorded example replays to the same result."""

from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from conftest import BIN, REPO_ROOT, Server, assert_result
from contract import CONTRACT, DOCUMENT_PATH, SCHEMAS

META_SCHEMA = os.path.join(SCHEMAS, "meta", "openrpc-meta-schema.json")
sys.path.insert(0, SCHEMAS)
import record_examples  # noqa: E402  (the scenario the examples were recorded from)


def test_document_is_valid_openrpc():
    assert os.path.exists(META_SCHEMA), f"the OpenRPC meta-schema is expected at {META_SCHEMA}"
    meta = json.load(open(META_SCHEMA, encoding="utf-8"))
    errors = sorted(Draft7Validator(meta).iter_errors(CONTRACT.document), key=str)
    assert not errors, [e.message for e in errors[:5]]


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(SCHEMAS, "shapes", "*.schema.json"))), ids=os.path.basename)
def test_schema_file_is_valid_in_both_dialects(path):
    schema = json.load(open(path, encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://schemas.inbox-rpc.example/shapes/" + os.path.basename(path)
    assert schema.get("description"), "every shape says what it is"


def test_document_is_composed_from_its_sources():
    done = subprocess.run([sys.executable, os.path.join(SCHEMAS, "build.py"), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_rpc_discover_serves_the_file():
    server = Server()
    result = assert_result(server.call("rpc.discover"), server.next_id() - 1)
    assert result == json.load(open(DOCUMENT_PATH, encoding="utf-8"))


def test_methods_registered_are_the_methods_documented():
    server = Server(test_methods=False)
    registered = set(assert_result(server.call("initialize", {}), server.next_id() - 1)["methods"])
    documented = {m["name"] for m in CONTRACT.document["methods"] if m.get("x-direction") != "server-to-host"}
    assert registered == documented, f"only registered: {registered - documented}; only documented: {documented - registered}"
    for method in registered - {"exit", "$/cancelRequest"}:
        # Every documented method answers something other than "method not found".
        reply = server.call(method, {}) if method != "shutdown" else None
        if reply is not None:
            assert reply.get("error", {}).get("code") != -32601, method


def test_every_method_has_an_example_and_every_error_is_declared():
    for method in CONTRACT.document["methods"]:
        if method.get("x-notification"):
            continue
        assert method.get("examples"), f"{method['name']} has no example"
        assert method.get("errors") is not None


def test_recorded_examples_replay_to_the_same_results(monkeypatch):
    """Examples as tests: the scenario they came from, run again, gives every recorded result."""
    steps = []
    for path in glob.glob(os.path.join(SCHEMAS, "examples", "*.json")):
        method = os.path.basename(path)[: -len(".json")]
        for example in json.load(open(path, encoding="utf-8")):
            steps.append((example["x-step"], method, example))
    steps.sort(key=lambda step: step[0])
    assert [(m, e["name"]) for _, m, e in steps] == [(m, n) for m, n, _ in record_examples.SCENARIO]
    with tempfile.TemporaryDirectory() as directory, record_examples.example_backend() as setup:
        for name, value in record_examples.server_environment(setup).items():
            monkeypatch.setenv(name, value)
        command = record_examples.server_command(BIN, os.path.join(directory, "inbox.sqlite"), setup)
        server = Server(command[1:], store=False, test_methods=False)
        results = []
        for _, method, example in steps:
            params = record_examples.with_cursor(example["params"], results)
            result = assert_result(server.call(method, params), server.next_id() - 1)
            results.append(result)
            assert record_examples.normalise(record_examples.abridge(method, result)) == example["result"], (
                f"{method} ({example['name']}) no longer gives its recorded result")


CHECK_JSONSCHEMA = os.path.join(os.path.dirname(sys.executable), "check-jsonschema")


@pytest.mark.parametrize("cwd", ["elsewhere", "root"])
def test_check_jsonschema_resolves_the_shapes_from_any_directory(tmp_path, cwd):
    # The shapes' absolute $ids and bundles let any validator resolve "Card.schema.json" offline.
    gestures = {"swipeToDelete": True, "pullToRefresh": True, "automaticReadOnDisappear": True}
    valid = {"items": [], "nextCursor": None, "counts": {"total": 0, "unread": 0, "unactioned": 0, "pinned": 0, "unseen": 0},
             "gestures": gestures}
    invalid = {"items": [{"kind": "nonsense"}], "nextCursor": None,
               "counts": {"total": 0, "unread": 0, "unactioned": 0, "pinned": 0, "unseen": 0}, "gestures": gestures}
    (tmp_path / "valid.json").write_text(json.dumps(valid))
    (tmp_path / "invalid.json").write_text(json.dumps(invalid))
    schema = os.path.join(SCHEMAS, "shapes", "FeedPage.schema.json")
    where = str(tmp_path) if cwd == "elsewhere" else os.path.dirname(SCHEMAS)
    if cwd == "root":
        schema = os.path.relpath(schema, where)
    run = lambda name: subprocess.run([CHECK_JSONSCHEMA, "--no-cache", "--schemafile", schema, str(tmp_path / name)],
                                      cwd=where, capture_output=True, text=True, timeout=60)
    ok = run("valid.json")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = run("invalid.json")
    assert bad.returncode == 1 and "kind" in bad.stdout + bad.stderr, bad.stdout + bad.stderr


ERROR_DATA = CONTRACT.document["components"]["schemas"]["ErrorData"]["properties"]


@pytest.mark.parametrize(
    "method, params, rule",
    [
        ("button.tap", {"id": "summer-sale", "button": 3}, "maximum"),
        ("feed.list", {"limit": "ten"}, "type"),
        ("message.get", {"id": ""}, "minLength"),
        ("message.get", {}, None),  # a missing param breaks no keyword of its schema
        ("feed.list", {"limt": 10}, None),  # nor does an unknown one
        ("feed.list", {"kinds": ["poster"]}, "enum"),
        ("button.tap", {"id": "summer-sale", "button": 2}, None),  # the schema allows 2; the card has 2 buttons
    ],
)
def test_every_member_of_invalid_params_data_is_documented_in_error_data(method, params, rule):
    server = Server(["--sample-feed"])
    reply = server.call(method, params)
    assert reply["error"]["code"] == -32602, reply
    data = reply["error"]["data"]
    assert set(data) <= set(ERROR_DATA), f"undocumented: {set(data) - set(ERROR_DATA)}"
    assert data.get("rule") == rule, data
    server.close_stdin()
    server.wait_exit()


# --- The repository carries its own rules -----------------------------------------------------
# Comments, schemas and pages cite the repository's own pages (`docs/engine.md#buttons`), never
# notes kept elsewhere, and every cited section exists.

# Notes the repository does not carry, cited by page name or by a numbered section (`SPEC`, or
# `research` and `§`, then the number).
OUTSIDE_NOTES = re.compile(r"\b(?:SPEC|API)\.md\b|\bresearch\s+§|\bSPEC\s+§?\d")
DOC_CITATION = re.compile(r"\bdocs/([A-Za-z0-9_.-]+\.md)#([A-Za-z0-9_-]+)")
RELATIVE_LINK = re.compile(r"\]\(([A-Za-z0-9_./-]+\.md)#([A-Za-z0-9_-]+)\)")


def tracked_texts() -> list[tuple[str, list[str]]]:
    """Each tracked text file of the repository, by its path, with its lines."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    texts = []
    for name in names.decode().split("\0"):
        path = os.path.join(REPO_ROOT, name)
        if not name or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as file:
                texts.append((name, file.read().splitlines()))
        except UnicodeDecodeError:
            continue
    return texts


def github_anchors(page: str) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown page: lower case, punctuation dropped,
    spaces as hyphens, a repeated one numbered (`-1`, `-2`); lines inside code fences are no headings.
    An explicit `<a id="...">` is an anchor too."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    fence = None
    with open(page, encoding="utf-8") as file:
        for line in file:
            stripped = line.strip()
            marker = re.match(r"(`{3,}|~{3,})", stripped)
            if marker:
                if fence is None:
                    fence = marker.group(1)[0]
                elif stripped.startswith(fence * 3):
                    fence = None
                continue
            if fence is None:
                anchors.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
            heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line) if fence is None else None
            if not heading:
                continue
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def test_no_tracked_file_cites_notes_the_repository_does_not_carry():
    found = [f"{name}:{number}: {line.strip()}" for name, lines in tracked_texts()
             for number, line in enumerate(lines, 1) if OUTSIDE_NOTES.search(line)]
    assert not found, "cite the repository's own pages (docs/engine.md#...) instead:\n" + "\n".join(found)


def test_every_cited_section_of_a_page_exists():
    anchors: dict[str, set[str]] = {}
    broken = []
    for name, lines in tracked_texts():
        for number, line in enumerate(lines, 1):
            cited = [(os.path.join(REPO_ROOT, "docs", page), anchor) for page, anchor in DOC_CITATION.findall(line)]
            if name.endswith(".md"):
                cited += [(os.path.normpath(os.path.join(REPO_ROOT, os.path.dirname(name), target)), anchor)
                          for target, anchor in RELATIVE_LINK.findall(line) if not target.startswith("docs/")]
            for page, anchor in cited:
                if not os.path.isfile(page):
                    broken.append(f"{name}:{number}: {os.path.relpath(page, REPO_ROOT)} does not exist")
                    continue
                if page not in anchors:
                    anchors[page] = github_anchors(page)
                if anchor not in anchors[page]:
                    broken.append(f"{name}:{number}: {os.path.relpath(page, REPO_ROOT)} has no heading #{anchor}")
    assert not broken, "\n".join(broken)
