"""The JSON Schema keywords the server's validator implements (Sources/JSONSchema/Resources/keywords.json,
the one allow-list the Swift validator's tests also read), and a walk that names every keyword of a
schema outside it, with its place."""

from __future__ import annotations

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ALLOW_LIST = os.path.join(HERE, "..", "Sources", "JSONSchema", "Resources", "keywords.json")


def load_allow_list(path: str = ALLOW_LIST) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def pointer_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def unsupported(schema, allow: dict, pointer: str = "") -> list[tuple[str, str]]:
    """(keyword, JSON pointer of the schema holding it) for each keyword the validator would skip,
    and for each $ref that leaves the document."""
    if not isinstance(schema, dict):
        return []
    known = set(allow["validation"]) | set(allow["annotations"])
    sub = allow["subschemas"]
    found: list[tuple[str, str]] = []
    for keyword, value in schema.items():
        here = f"{pointer}/{pointer_token(keyword)}"
        if any(keyword.startswith(prefix) for prefix in allow["annotationPrefixes"]):
            continue
        if keyword not in known:
            found.append((keyword, pointer))
            continue
        if keyword == "$ref" and not (isinstance(value, str) and value.startswith("#")):
            found.append((f"$ref to {value}", pointer))
        if keyword in sub["schema"]:
            found += unsupported(value, allow, here)
        if keyword in sub["list"] and isinstance(value, list):
            for index, item in enumerate(value):
                found += unsupported(item, allow, f"{here}/{index}")
        if keyword in sub["map"] and isinstance(value, dict):
            for name, item in value.items():
                found += unsupported(item, allow, f"{here}/{pointer_token(name)}")
    return found
