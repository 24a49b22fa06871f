"""Gives every shape in Schemas/shapes/ an absolute root $id and bundles the shapes it refers to.

A validator resolves "$ref": "Card.schema.json" against the root $id. With a relative id it
resolves against the working directory, so `check-jsonschema --schemafile Schemas/shapes/X.schema.json`
only worked from shapes/ itself; with an absolute id and nothing bundled it would fetch the id's
URL. So each shape carries, under "definitions", a copy of every shape it reaches, each with its own
absolute $id: the references resolve inside the file, offline, from any directory. The copies are
generated (build.py writes them, build.py --check fails when they are stale): edit only the
members above "definitions".
"""

from __future__ import annotations

import json
import os

BASE_ID = "https://schemas.inbox-rpc.example/shapes/"
REF_SUFFIX = ".schema.json"


def references(node) -> set[str]:
    """The shape files a schema refers to: "X.schema.json"."""
    if isinstance(node, dict):
        found = {node["$ref"]} if isinstance(node.get("$ref"), str) and node["$ref"].endswith(REF_SUFFIX) else set()
        for key, value in node.items():
            if key != "definitions":
                found |= references(value)
        return found
    if isinstance(node, list):
        return set().union(*(references(item) for item in node)) if node else set()
    return set()


def own_part(schema: dict) -> dict:
    """The shape without its generated members."""
    return {k: v for k, v in schema.items() if k not in ("$schema", "$id", "definitions")}


def bundled(shapes_dir: str) -> dict[str, str]:
    """The text each shape file should have: absolute $id, own members, then the bundle."""
    shapes = {}
    for file in sorted(os.listdir(shapes_dir)):
        if file.endswith(REF_SUFFIX):
            with open(os.path.join(shapes_dir, file), encoding="utf-8") as f:
                shapes[file] = json.load(f)
    texts = {}
    for file, schema in shapes.items():
        reached, pending = set(), references(schema)
        while pending:
            ref = pending.pop()
            if ref in reached or ref == file or ref not in shapes:
                continue
            reached.add(ref)
            pending |= references(shapes[ref])
        out = {"$schema": schema.get("$schema", "http://json-schema.org/draft-07/schema#"), "$id": BASE_ID + file}
        out.update(own_part(schema))
        if reached:
            out["definitions"] = {
                ref[: -len(REF_SUFFIX)]: {"$id": BASE_ID + ref, **own_part(shapes[ref])} for ref in sorted(reached)
            }
        texts[file] = json.dumps(out, indent=2, ensure_ascii=False) + "\n"
    return texts
