"""server.json, the MCP registry's entry for the PyPI package, stays true: its shape (the registry
schema's required members and limits), its versions (VERSION), its package (the wheel's name and the
README marker PyPI ownership is checked by), and its launch: the package arguments start the MCP face."""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib

import jsonschema_rs

from conftest import BIN, REPO_ROOT

ENTRY = json.load(open(os.path.join(REPO_ROOT, "server.json"), encoding="utf-8"))
VERSION = open(os.path.join(REPO_ROOT, "VERSION"), encoding="utf-8").read().strip()
PYPROJECT = tomllib.load(open(os.path.join(REPO_ROOT, "packaging", "python", "pyproject.toml"), "rb"))

# The part of the registry's server.schema.json (2025-09-29) this entry uses.
SHAPE = {
    "type": "object",
    "required": ["name", "description", "version", "packages"],
    "properties": {
        "$schema": {"type": "string", "pattern": r"^https://static\.modelcontextprotocol\.io/schemas/\d{4}-\d\d-\d\d/server\.schema\.json$"},
        "name": {"type": "string", "pattern": r"^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$", "minLength": 3, "maxLength": 200},
        "title": {"type": "string", "maxLength": 100},
        "description": {"type": "string", "minLength": 1, "maxLength": 100},
        "version": {"type": "string", "maxLength": 255},
        "packages": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["registryType", "identifier", "version", "transport"],
                "properties": {
                    "registryType": {"enum": ["npm", "pypi", "oci", "nuget", "mcpb"]},
                    "identifier": {"type": "string"},
                    "version": {"type": "string"},
                    "runtimeHint": {"type": "string"},
                    "transport": {
                        "type": "object", "required": ["type"],
                        "properties": {"type": {"enum": ["stdio", "streamable-http", "sse"]}},
                    },
                    "packageArguments": {
                        "type": "array",
                        "items": {
                            "type": "object", "required": ["type"],
                            "properties": {"type": {"enum": ["positional", "named"]}, "value": {"type": "string"}},
                        },
                    },
                    "environmentVariables": {
                        "type": "array",
                        "items": {"type": "object", "required": ["name"],
                                  "properties": {"name": {"type": "string"}, "description": {"type": "string"},
                                                 "isRequired": {"type": "boolean"}, "isSecret": {"type": "boolean"}}},
                    },
                },
            },
        },
    },
}


def test_the_entry_has_the_registry_shape() -> None:
    errors = [e.message for e in jsonschema_rs.validator_for(SHAPE).iter_errors(ENTRY)]
    assert not errors, errors


def test_the_entry_names_this_release_of_the_pypi_package() -> None:
    [package] = ENTRY["packages"]
    assert ENTRY["version"] == VERSION and package["version"] == VERSION
    assert package["registryType"] == "pypi" and package["transport"] == {"type": "stdio"}
    assert package["identifier"] == PYPROJECT["project"]["name"]
    assert "inbox-rpc" in PYPROJECT["project"]["scripts"], "uvx runs the command named after the package"
    readme = open(os.path.join(REPO_ROOT, "packaging", "python", PYPROJECT["project"]["readme"]), encoding="utf-8").read()
    assert re.search(r"mcp-name: (\S+)", readme).group(1) == ENTRY["name"], "PyPI ownership marker"


def launch_arguments() -> list:
    [package] = ENTRY["packages"]
    return [argument["value"] for argument in package["packageArguments"] if argument["type"] == "positional"]


def test_the_launch_arguments_start_the_mcp_face() -> None:
    assert launch_arguments() == ["mcp"]
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "registry", "version": "1"}}}
    done = subprocess.run([BIN, *launch_arguments(), "--store", ":memory:"], input=json.dumps(request) + "\n",
                          capture_output=True, text=True, timeout=10)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[0])["result"]
    assert result["serverInfo"]["name"] == "inbox-rpc" and result["serverInfo"]["version"] == VERSION
    assert "tools" in result["capabilities"], "an MCP initialize result, not the JSON-RPC face's"
    for variable in ENTRY["packages"][0]["environmentVariables"]:
        assert variable["name"] in open(os.path.join(REPO_ROOT, "Sources", "inbox-rpc", "Options.swift")).read()
