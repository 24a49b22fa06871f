"""The docs stay true to the code: README.md's tables are the contract's, the commands the pages
show are run, their links lead somewhere and the flags they name exist.

A page's ```` ```sh tour ```` blocks run as README.md's tour does (test_readme_tour.py), each page
in a fresh directory holding `clients/` (a link to this checkout's), with a fresh HOME and the
server under test first on PATH as `inbox-rpc`. A ```` ```sh packages ```` block is run by
Tests/Packages, which installs the packages; no other shell block may stand unrun.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

from shell_support import REPO_ROOT
from shell_support import server_bin, watchdog  # noqa: F401  (fixtures)
from test_readme_tour import BLOCK, normalise, parse, run_tour

README = REPO_ROOT / "README.md"
DOCS = sorted((REPO_ROOT / "docs").glob("*.md"))
TABLES = REPO_ROOT / "script" / "readme-tables"
FENCE = re.compile(r"^ *```(\w*)([^\n]*)\n", re.MULTILINE)


def test_the_readme_tables_are_the_contract_s() -> None:
    done = subprocess.run([str(TABLES), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_table_check_fails_on_a_changed_contract(tmp_path: Path) -> None:
    contract = json.loads((REPO_ROOT / "Schemas" / "openrpc.json").read_text())
    contract["components"]["errors"]["FrobnicationRefused"] = {"code": -32099, "message": "Frobnication refused"}
    contract["methods"].append(
        {"name": "inbox.frobnicate", "summary": "Frobnicates.", "params": [{"name": "x", "required": True, "schema": {}}],
         "errors": [{"$ref": "#/components/errors/FrobnicationRefused"}]}
    )
    changed = tmp_path / "openrpc.json"
    changed.write_text(json.dumps(contract))
    readme = tmp_path / "README.md"
    readme.write_text(README.read_text())
    done = subprocess.run([str(TABLES), "--check", "--contract", str(changed), "--readme", str(readme)], capture_output=True, text=True)
    assert done.returncode == 1
    assert "+| `inbox.frobnicate` | `x`\\* | FrobnicationRefused | Frobnicates. |" in done.stderr
    assert "+| `FrobnicationRefused` | -32099 | Frobnication refused | 199 |" in done.stderr
    assert readme.read_text() == README.read_text()  # --check writes nothing
    subprocess.run([str(TABLES), "--contract", str(changed), "--readme", str(readme)], check=True)
    assert "`inbox.frobnicate`" in readme.read_text()


def test_every_shell_block_of_the_docs_is_run() -> None:
    for page in DOCS:
        for language, info in FENCE.findall(page.read_text()):
            if language in ("sh", "bash", "shell", "console"):
                tag = info.strip()
                assert tag == "tour" or (tag == "packages" and page.name == "packages.md"), f"{page.name}: ```{language}{info}"


@pytest.mark.parametrize("page", [page for page in DOCS if BLOCK.search(page.read_text())], ids=lambda page: page.name)
def test_a_page_s_commands_print_what_it_shows(page: Path, server_bin: str, tmp_path: Path) -> None:
    steps = [step for block in BLOCK.findall(page.read_text()) for step in parse(block)]
    work, home, bin_dir = tmp_path / "work", tmp_path / "home", tmp_path / "bin"
    for directory in (work, home, bin_dir):
        directory.mkdir()
    (work / "clients").symlink_to(REPO_ROOT / "clients")
    (bin_dir / "inbox-rpc").symlink_to(server_bin)
    env = {name: value for name, value in os.environ.items() if not name.startswith(("INBOX", "XDG_"))}
    env.update(HOME=str(home), TMPDIR=str(tmp_path), TERM="dumb", PATH=f"{bin_dir}{os.pathsep}{env['PATH']}")
    for step, (output, status) in zip(steps, run_tour(steps, env, cwd=work)):
        assert status == 0, f"{page.name}: $ {step.command}\nexited {status}:\n" + "\n".join(output)
        assert normalise(output) == normalise(step.shown), f"{page.name}: $ {step.command}"


LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda page: page.name)
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    for target, _anchor in LINK.findall(page.read_text()):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.name} links to {target}, which is not there"


HELP: Dict[str, List[str]] = {"": ["--help"], "mcp": ["mcp", "--help"], "lint": ["lint", "--help"],
                              "preview": ["preview", "--help"], "check-trace": ["check-trace", "--help"],
                              "replay": ["replay", "--help"], "backend": ["backend", "--help"]}
COMMAND = re.compile(r"inbox-rpc(?: (mcp|lint|preview|check-trace|replay|backend))?((?: +[^\s`|;)]+)*)")


def help_text(server_bin: str, command: str) -> str:
    done = subprocess.run([server_bin, *HELP[command]], capture_output=True, text=True)
    text = done.stdout + done.stderr
    if command in ("mcp", "replay"):  # they take every flag of the server too
        text += help_text(server_bin, "")
    return text


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda page: page.name)
def test_the_flags_shown_with_inbox_rpc_exist(page: Path, server_bin: str) -> None:
    helps: Dict[str, str] = {}
    for command, rest in COMMAND.findall(page.read_text()):
        for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", rest):
            text = helps.setdefault(command, help_text(server_bin, command))
            assert flag in text, f"{page.name}: `inbox-rpc {command}` has no {flag} in its --help"


def test_nothing_refers_to_a_readme_section_that_moved() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO_ROOT, capture_output=True, text=True, check=True).stdout
    for name in tracked.splitlines():
        path = REPO_ROOT / name
        if path.suffix in (".png", ".sqlite") or not path.is_file() or path.is_symlink() or path == Path(__file__):
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        assert not re.search(r"README \"|see README\)|\(see README", text), f"{name} points at a README section"


JSON_BLOCK = re.compile(r"^```json\n(.*?)^```", re.DOTALL | re.MULTILINE)


@pytest.mark.parametrize("page", [page for page in DOCS if "mcpServers" in page.read_text()], ids=lambda page: page.name)
def test_the_host_configurations_shown_parse_and_use_real_flags(page: Path, server_bin: str) -> None:
    """Each MCP host configuration is JSON, starts `inbox-rpc mcp` (the binary, or the package
    through uvx), and passes only flags the server has."""
    configs = [json.loads(block) for block in JSON_BLOCK.findall(page.read_text()) if "mcpServers" in block]
    assert configs
    known = help_text(server_bin, "mcp")
    for config in configs:
        for server in config["mcpServers"].values():
            args = server["args"]
            assert "mcp" in args and (server["command"].endswith("inbox-rpc") or args[0] == "inbox-rpc"), server
            for flag in (arg for arg in args if arg.startswith("--")):
                assert flag in known, f"{page.name}: {flag} is no flag of inbox-rpc mcp"
