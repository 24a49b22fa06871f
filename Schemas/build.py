#!/usr/bin/env python3
"""Composes Schemas/openrpc.json from its sources, or checks that it is up to date.

Sources:
  shapes/*.schema.json   one JSON Schema per public shape (draft-07, in the keyword subset that
                         2020-12 reads the same way), cross-referenced as "X.schema.json";
  methods.json           methods, notifications and application errors;
  examples/<method>.json example pairings recorded from a real run (record_examples.py);
  ../VERSION             the release number, the document's info.version (the binary embeds the same file).

The composed document inlines every shape under components/schemas (references rewritten to
"#/components/schemas/X"), lists notifications as result-less methods marked "x-notification"
with their "x-direction", and attaches the examples. It also enforces that every property of
every schema has a description: the schemas are the API reference a host developer reads.

Each shape file also gets an absolute root $id and a generated bundle of the shapes it refers to
(bundle.py), so any validator resolves its references offline from any directory.

It refuses any keyword the server's validator does not implement (keywords.py, reading the
allow-list Sources/JSONSchema reads), naming the keyword, the file and the place in it.

Usage: build.py            write openrpc.json (and the shapes' ids and bundles)
       build.py --check    exit 1 if openrpc.json is stale, a description is missing or a keyword unknown
"""

from __future__ import annotations

import json
import os
import sys

from bundle import BASE_ID, bundled
from keywords import load_allow_list, unsupported

HERE = os.path.dirname(os.path.abspath(__file__))
REF_SUFFIX = ".schema.json"


def load(path: str):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def rewrite_refs(node):
    """"X.schema.json" -> "#/components/schemas/X", everywhere in a schema."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.endswith(REF_SUFFIX):
                out[key] = "#/components/schemas/" + value[: -len(REF_SUFFIX)]
            else:
                out[key] = rewrite_refs(value)
        return out
    if isinstance(node, list):
        return [rewrite_refs(item) for item in node]
    return node


def missing_descriptions(node, path: str, problems: list[str]) -> None:
    """Every member of every `properties` needs a description (a bare $ref needs one beside it)."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict) and "description" not in schema:
                problems.append(f"{path}.properties.{name}")
        for key, value in node.items():
            missing_descriptions(value, f"{path}.{key}", problems)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            missing_descriptions(item, f"{path}[{index}]", problems)


def nullable(schema: dict) -> dict:
    """An optional param's schema with null allowed: both faces read a null optional as absent, and
    say so where a client checks arguments (an MCP tool's inputSchema is built from these)."""
    schema = dict(schema)
    kind = schema.get("type")
    if isinstance(kind, str):
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list):
        schema["type"] = kind if "null" in kind else kind + ["null"]
    else:
        description = schema.pop("description", None)
        wrapped = {"anyOf": [schema, {"type": "null"}]}
        return {"description": description, **wrapped} if description else wrapped
    if "enum" in schema and None not in schema["enum"]:
        schema["enum"] = schema["enum"] + [None]
    return schema


def content_descriptor(param: dict, notification: bool = False) -> dict:
    schema = rewrite_refs(param["schema"])
    if not param.get("required") and not notification:
        schema = nullable(schema)
    out = {"name": param["name"], "description": param["description"], "schema": schema}
    if param.get("required"):
        out["required"] = True
    return out


TOOL_MEMBERS = {"name", "title", "description", "summary", "hints", "params", "output"}
HINTS = ("readOnly", "destructive", "idempotent", "openWorld")


def tool_problems(method: dict, shapes: set) -> list[str]:
    """An MCP tool of `x-mcp-tools` (inbox-rpc mcp's catalog: the Swift face, its instructions, its help
    text and docs/mcp.md's table are made from these) with every member it needs, and only those."""
    problems = []
    params = {p["name"] for p in method["params"]}
    for tool in method["x-mcp-tools"]:
        where = f"{method['name']}.x-mcp-tools.{tool.get('name', '?')}"
        for member in ("name", "title", "description", "summary"):
            if not isinstance(tool.get(member), str) or not tool[member]:
                problems.append(f"{where}: {member} must be a non-empty string")
        problems += [f"{where}: unknown member {member}" for member in sorted(set(tool) - TOOL_MEMBERS)]
        hints = tool.get("hints", {})
        if sorted(hints) != sorted(HINTS) or not all(isinstance(v, bool) for v in hints.values()):
            problems.append(f"{where}: hints must give {', '.join(HINTS)}, each true or false")
        problems += [f"{where}: params names {p}, which {method['name']} does not take"
                     for p in tool.get("params", []) if p not in params]
        if "output" in tool and tool["output"] not in shapes:
            problems.append(f"{where}: output names {tool['output']}, which is not a shape")
    return problems


def release_version() -> str:
    with open(os.path.join(HERE, "..", "VERSION"), encoding="utf-8") as f:
        return f.read().strip()


def compose() -> tuple[dict, list[str]]:
    source = load(os.path.join(HERE, "methods.json"))
    problems: list[str] = []
    shapes = {}
    for file in sorted(os.listdir(os.path.join(HERE, "shapes"))):
        if not file.endswith(REF_SUFFIX):
            continue
        schema = load(os.path.join(HERE, "shapes", file))
        name = file[: -len(REF_SUFFIX)]
        if schema.get("$id") != BASE_ID + file:
            problems.append(f"shapes/{file}: $id must be {BASE_ID + file}")
        missing_descriptions(schema, f"shapes/{file}", problems)
        shapes[name] = rewrite_refs({k: v for k, v in schema.items() if k not in ("$schema", "$id", "definitions")})

    errors = source["errors"]
    methods = []
    for method in source["methods"]:
        out = {"name": method["name"], "summary": method["summary"]}
        if "description" in method:
            out["description"] = method["description"]
        out["paramStructure"] = "by-name"
        out["params"] = [content_descriptor(p) for p in method["params"]]
        for p in method["params"]:
            missing_descriptions({"properties": {p["name"]: p["schema"]}}, f"{method['name']}.params", problems)
        result = method["result"]
        out["result"] = {"name": result["name"], "description": result["description"], "schema": rewrite_refs(result["schema"])}
        out["errors"] = [{"$ref": f"#/components/errors/{name}"} for name in method["errors"]]
        if method.get("x-additional-params"):
            out["x-additional-params"] = True
        if "x-mcp-tools" in method:
            problems += tool_problems(method, set(shapes))
            out["x-mcp-tools"] = method["x-mcp-tools"]
        examples_path = os.path.join(HERE, "examples", method["name"] + ".json")
        if os.path.exists(examples_path):
            out["examples"] = [
                {
                    "name": example["name"],
                    "params": [{"name": key, "value": value} for key, value in example["params"].items()],
                    "result": {"name": method["result"]["name"], "value": example["result"]},
                }
                for example in load(examples_path)
            ]
        else:
            problems.append(f"{method['name']}: no examples (run Schemas/record_examples.py)")
        methods.append(out)
    for note in source["notifications"]:
        methods.append({
            "name": note["name"], "summary": note["summary"], "paramStructure": "by-name",
            "params": [content_descriptor(p, notification=True) for p in note["params"]],
            "x-notification": True, "x-direction": note["x-direction"],
        })
    document = {
        "openrpc": "1.3.2",
        "info": {"title": source["info"]["title"], "version": release_version(),
                 **{k: v for k, v in source["info"].items() if k != "title"}},
        "methods": methods,
        "components": {
            "schemas": shapes,
            "errors": {name: {"code": e["code"], "message": e["message"], "data": e["description"]} for name, e in errors.items()},
        },
    }
    return document, problems


def unknown_keywords() -> list[str]:
    """Each keyword of shapes/ and methods.json the server's validator would skip, with its place.
    (A shape's root $schema, $id and generated definitions bundle are not composed into openrpc.json.)"""
    allow = load_allow_list()
    found = []
    for file in sorted(os.listdir(os.path.join(HERE, "shapes"))):
        if file.endswith(REF_SUFFIX):
            schema = load(os.path.join(HERE, "shapes", file))
            composed = rewrite_refs({k: v for k, v in schema.items() if k not in ("$schema", "$id", "definitions")})
            found += [(f"shapes/{file}", keyword, place) for keyword, place in unsupported(composed, allow)]
    source = load(os.path.join(HERE, "methods.json"))
    for kind in ("methods", "notifications"):
        for index, method in enumerate(source[kind]):
            schemas = [(f"params/{i}/schema", p["schema"]) for i, p in enumerate(method["params"])]
            if "result" in method:
                schemas.append(("result/schema", method["result"]["schema"]))
            for where, schema in schemas:
                found += [(f"methods.json", keyword, f"/{kind}/{index}/{where}{place}")
                          for keyword, place in unsupported(rewrite_refs(schema), allow)]
    return [f"{file}: keyword {keyword} at {place or '/'} is not one the server's validator implements"
            f" (Sources/JSONSchema/Resources/keywords.json)" for file, keyword, place in found]


def render(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    refused = unknown_keywords()
    for problem in refused:
        print(f"build.py: {problem}", file=sys.stderr)
    shapes_dir = os.path.join(HERE, "shapes")
    stale = {file: text for file, text in bundled(shapes_dir).items()
             if open(os.path.join(shapes_dir, file), encoding="utf-8").read() != text}
    if "--check" in sys.argv and stale:
        print(f"build.py: shapes/{', '.join(sorted(stale))}: $id or bundle stale: run python3 Schemas/build.py",
              file=sys.stderr)
        return 1
    for file, text in stale.items():
        with open(os.path.join(shapes_dir, file), "w", encoding="utf-8") as f:
            f.write(text)
    document, problems = compose()
    target = os.path.join(HERE, "openrpc.json")
    for problem in problems:
        print(f"build.py: missing description or example, or a malformed MCP tool: {problem}", file=sys.stderr)
    problems = problems + refused
    if "--check" in sys.argv:
        current = open(target, encoding="utf-8").read() if os.path.exists(target) else ""
        if current != render(document):
            print("build.py: Schemas/openrpc.json is stale: run python3 Schemas/build.py", file=sys.stderr)
            return 1
        return 1 if problems else 0
    with open(target, "w", encoding="utf-8") as f:
        f.write(render(document))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
