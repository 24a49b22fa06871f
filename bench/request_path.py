#!/usr/bin/env python3
"""bench/request_path.py: the types and source files one request passes through, from stdin to the
reply, counted in a running server (the "request path" figures the design notes quote).

The server runs under `valgrind --tool=callgrind`; after a warm-up the counters are zeroed, one
request is made (`button.tap` of the sample feed's `summer-sale`, its first button, by default), and
the dump lists every function that ran. Their Swift symbols, demangled, name the module and type of
each; the files are those under Sources/ that declare the type or extend it with the function. The
standard library, Foundation, Dispatch and the C libraries are left out: what is counted is this
repository's code.

  bench/request_path.py [--binary PATH] [--method M --params JSON]   print the figures
  bench/request_path.py --face mcp                                    the same call as an MCP tool
  bench/request_path.py --before PATH                                 this build beside PATH
Needs valgrind and swift-demangle (the toolchain's).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
from instructions import Counted, without_debug_info  # noqa: E402
from mcp import INITIALIZE  # noqa: E402
from preview import CLOCK  # noqa: E402
from store import build  # noqa: E402

# Where a demangled name (a member, a closure in one, a specialization of one) names this
# repository's code: `Module.Type` or `Module.function`.
OWNER = re.compile(r"(?<![\w.])(?P<module>[A-Z]\w*)\.(?P<owner>\w+)")


def modules(root: Path) -> set[str]:
    return {path.name for path in (root / "Sources").iterdir() if path.is_dir() and not path.name.startswith("C")}


def source_root(binary: str) -> Path:
    """The checkout a build was made in (its `.build/<config>/inbox-rpc`), whose Sources name its files."""
    for root in Path(os.path.abspath(binary)).parents:
        if (root / "Package.swift").is_file() and (root / "Sources").is_dir():
            return root
    return REPO


# The MCP tool of each method the path is measured for (`--face mcp`).
TOOLS = {"button.tap": "tap_button", "message.tap": "tap_message", "message.get": "get_message",
         "message.dismiss": "dismiss_message", "feed.list": "list_feed"}


def functions_run(binary: str, directory: str, method: str, params: dict, ours: set[str], face: str) -> list[str]:
    """The demangled names of this repository's functions that ran for one `method` request, on
    `face` (`mcp`: as a `tools/call` of the method's tool)."""
    store = os.path.join(directory, "sample.sqlite")
    subprocess.run([binary, "--store", store, "--sample-feed", "--test-clock", str(CLOCK)], input=b"", check=True,
                   stderr=subprocess.DEVNULL)
    out = os.path.join(directory, "callgrind.path")
    argv = [binary, *(["mcp"] if face == "mcp" else []), "--store", store, "--test-clock", str(CLOCK)]
    server = Counted(argv, out)
    warm = ("feed.counts", None)
    if face == "mcp":
        server.call("initialize", INITIALIZE)
        method, params = "tools/call", {"name": TOOLS[method], "arguments": params}
        warm = ("tools/call", {"name": "inbox_counts", "arguments": {}})
    for _ in range(3):  # statements prepared, the store's pages read, the first threads started
        server.call(*warm)
        server.call(method, params)
    server.counted([(method, params)])
    dumps = [path for path in glob.glob(out + ".*") if "Trigger: dump counted" in Path(path).read_text()]
    symbols: set[str] = set()
    names: dict[str, str] = {}
    for path in dumps:
        current = None
        for line in Path(path).read_text().splitlines():
            if line.startswith(("fn=", "cfn=")):
                match = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
                if not match:
                    continue
                if match.group(2):
                    names[match.group(1)] = match.group(2)
                if line.startswith("fn="):
                    current = names.get(match.group(1))
            elif current and line[:1] in "0123456789+-*" and current.startswith("$s"):
                symbols.add(current)
    demangled = subprocess.run(["swift-demangle", "--compact"], input="\n".join(sorted(symbols)),
                               capture_output=True, text=True, check=True).stdout.splitlines()
    return [name for name in demangled if owner(name, ours)]


def owner(name: str, ours: set[str]) -> tuple[str, str] | None:
    """(module, type or function) a demangled name belongs to: what a closure or specialization is
    `in`, else the first of this repository's names in it."""
    matches = [match for match in OWNER.finditer(name) if match["module"] in ours]
    context = [match for match in matches if name[: match.start()].endswith(" in ")]
    first = (context or matches or [None])[0]
    return (first["module"], first["owner"]) if first else None


MEMBER = re.compile(r"^(?:\.[A-Z]\w*)*\.(?P<member>`?\w+`?)")


def files_of(names: list[str], ours: set[str], root: Path) -> set[str]:
    """The files under Sources/ that hold the functions run: for a member, the file of its type or
    of an extension of it that defines a member of that name (the type's own file when none does, as
    for what the compiler makes); for a free function, the file defining it."""
    found = set()
    sources: dict[str, list[tuple[Path, str]]] = {}
    for name in names:
        module, owner_name = owner(name, ours)
        if module not in sources:
            sources[module] = [(path, path.read_text()) for path in (root / "Sources" / module).rglob("*.swift")]
        start = name.index(f"{module}.{owner_name}") + len(module) + 1
        if owner_name[:1].isupper():
            member = MEMBER.match(name[start + len(owner_name):])
            holders = [(path, text) for path, text in sources[module]
                       if re.search(rf"^\s*(?:[\w@()]+ )*(?:class|struct|enum|protocol|actor|extension) "
                                    rf"{re.escape(owner_name)}\b", text, re.MULTILINE)]
        else:
            member, holders = None, sources[module]
        wanted = member["member"].strip("`") if member else owner_name
        defining = [path for path, text in holders
                    if re.search(rf"\b(?:func|var|let|case|init|subscript) ?`?{re.escape(wanted)}\b", text)
                    or (wanted in ("init", "deinit", "subscript") and re.search(rf"\b{wanted}\b", text))]
        for path in defining or [path for path, _ in holders[:1]]:
            found.add(str(path.relative_to(root)))
    return found


def figures(binary: str, method: str, params: dict, face: str = "jsonrpc") -> dict:
    root = source_root(binary)
    with tempfile.TemporaryDirectory(prefix="inbox-path-") as directory:
        ours = modules(root)
        names = functions_run(without_debug_info(binary, directory), directory, method, params, ours, face)
    types = {found for found in (owner(name, ours) for name in names) if found and found[1][:1].isupper()}
    files = files_of(names, ours, root)
    return {"functions": len(names), "types": sorted(f"{m}.{t}" for m, t in types), "files": sorted(files),
            "modules": sorted({m for m, _ in types})}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="the server measured (default: build this one, release)")
    parser.add_argument("--before", help="a previous build, measured the same way beside this one")
    parser.add_argument("--method", default="button.tap")
    parser.add_argument("--params", default=json.dumps({"id": "summer-sale", "button": 0}))
    parser.add_argument("--face", choices=["jsonrpc", "mcp"], default="jsonrpc",
                        help="the face the call is made on (mcp: `tools/call` of the method's tool)")
    parser.add_argument("--list", action="store_true", help="print the types and files too")
    args = parser.parse_args()
    params = json.loads(args.params)
    builds = [("this build", args.binary or build(args))] + ([("previous build", args.before)] if args.before else [])
    for label, binary in builds:
        found = figures(binary, args.method, params, args.face)
        print(f"{label}: {args.method} ({args.face}) ran {found['functions']} functions of {len(found['types'])} types "
              f"in {len(found['files'])} files, {len(found['modules'])} modules")
        if args.list:
            print("  types: " + ", ".join(found["types"]))
            print("  files: " + ", ".join(found["files"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
