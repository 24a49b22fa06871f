"""`Schemas/build.py --check` refuses any keyword the server's validator does not implement, from the
allow-list Sources/JSONSchema reads (Resources/keywords.json), naming the keyword and its place."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import REPO_ROOT

ALLOW_LIST = os.path.join("Sources", "JSONSchema", "Resources", "keywords.json")


def copy_of_schemas(tmp_path) -> str:
    """Schemas/, the allow-list and VERSION (the contract's `info.version`), laid out as in the repository."""
    shutil.copytree(os.path.join(REPO_ROOT, "Schemas"), tmp_path / "Schemas",
                    ignore=shutil.ignore_patterns("__pycache__"))
    os.makedirs(tmp_path / os.path.dirname(ALLOW_LIST))
    shutil.copy(os.path.join(REPO_ROOT, ALLOW_LIST), tmp_path / ALLOW_LIST)
    shutil.copy(os.path.join(REPO_ROOT, "VERSION"), tmp_path / "VERSION")
    return str(tmp_path / "Schemas")


def check(schemas: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, os.path.join(schemas, "build.py"), "--check"],
                          capture_output=True, text=True, timeout=60)


def edit(path: str, change) -> None:
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    change(document)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2, ensure_ascii=False)


def test_the_copy_passes_as_it_is(tmp_path):
    done = check(copy_of_schemas(tmp_path))
    assert done.returncode == 0, done.stderr


REFUSED = [
    ("shapes/Button.schema.json", lambda s: s["properties"]["title"].update({"unevaluatedProperties": False}),
     "shapes/Button.schema.json: keyword unevaluatedProperties at /properties/title is not one the server's validator"
     " implements"),
    ("methods.json", lambda s: s["methods"][0]["params"][0]["schema"].update({"allOf": [{"$anchor": "x"}]}),
     "methods.json: keyword $anchor at /methods/0/params/0/schema/allOf/0 is not one"),
    ("shapes/Button.schema.json", lambda s: s["properties"]["title"].update({"$ref": "https://example.com/o.json"}),
     "shapes/Button.schema.json: keyword $ref to https://example.com/o.json at /properties/title"),
]


@pytest.mark.parametrize("file, change, said", REFUSED, ids=["shape", "method", "remote-ref"])
def test_a_keyword_outside_the_allow_list_is_refused_with_its_place(tmp_path, file, change, said):
    schemas = copy_of_schemas(tmp_path)
    edit(os.path.join(schemas, file), change)
    done = check(schemas)
    assert done.returncode == 1
    assert said in done.stderr, done.stderr


def test_annotations_and_x_members_are_read_past(tmp_path):
    schemas = copy_of_schemas(tmp_path)
    edit(os.path.join(schemas, "shapes", "Button.schema.json"),
         lambda s: s["properties"]["title"].update({"x-note": 1, "$comment": "why", "examples": ["OK"]}))
    done = check(schemas)
    assert "keyword" not in done.stderr, done.stderr
