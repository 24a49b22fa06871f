"""File names in what `lint` and `check-trace` print: shown as payload text is (control characters
and bytes that are not UTF-8 escaped, by the one function that makes text visible), never able to
start a line of their own (a GitHub workflow command on stderr), and opened as given even when
they are not UTF-8."""

from __future__ import annotations

import json
import os

import pytest

from conftest import BIN, run_cli

PAYLOAD = b'{"inbox_id":"x","order":"1","status":1,"title":"hi","text":"t","send_date":1,"rt":2000000000}'
FORGED = b"x\n::error file=README.md,line=1::forged"


def run(*args: bytes | str, cwd: str) -> tuple[int, bytes, bytes]:
    import subprocess

    done = subprocess.run([BIN.encode(), *[a.encode() if isinstance(a, str) else a for a in args]], capture_output=True, cwd=cwd, timeout=60)
    return done.returncode, done.stdout, done.stderr


def lines_starting_a_command(output: bytes) -> list[bytes]:
    return [line for line in output.split(b"\n") if line.startswith(b"::")]


@pytest.mark.parametrize("command", ["lint", "check-trace"])
@pytest.mark.parametrize("fmt", ["text", "github", "junit", "json", "sarif"])
def test_a_file_name_cannot_forge_a_workflow_command(tmp_path, command, fmt):
    name = FORGED + (b".json" if command == "lint" else b".trace")
    code, out, err = run(command, "--format", fmt, name, cwd=str(tmp_path))
    assert code == 3
    assert lines_starting_a_command(err) == [] and b"x\\n::error" in err
    assert all(b"forged" not in line or line.startswith(b"::error file=x%0A") for line in lines_starting_a_command(out))


@pytest.mark.parametrize("fmt", ["text", "github", "junit"])
def test_a_name_that_is_not_utf8_is_opened_and_shown_escaped(tmp_path, fmt):
    name = b"caf\xe9.json"
    with open(os.path.join(os.fsencode(str(tmp_path)), name), "wb") as f:
        f.write(PAYLOAD.replace(b'"order":"1",', b""))  # a warning: every format names the file
    code, out, err = run("lint", "--format", fmt, name, cwd=str(tmp_path))
    assert code == 1, err
    assert b"caf\\xE9.json" in out and b"\xe9" not in out and b"\xef\xbf\xbd" not in out


def test_sarif_names_the_exact_bytes_and_json_shows_them_escaped(tmp_path):
    name = b"caf\xe9.json"
    with open(os.path.join(os.fsencode(str(tmp_path)), name), "wb") as f:
        f.write(b'{"inbox_id": 5}')
    code, out, _ = run("lint", "--format", "sarif", name, cwd=str(tmp_path))
    assert code == 1
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for result in json.loads(out)["runs"][0]["results"] for loc in result["locations"]}
    assert uris == {"caf%E9.json"}
    code, out, _ = run("lint", "--format", "json", name, cwd=str(tmp_path))
    assert json.loads(out.splitlines()[0])["file"] == "caf\\xE9.json"


def test_a_directory_of_names_that_are_not_utf8_is_walked(tmp_path):
    folder = os.path.join(os.fsencode(str(tmp_path)), b"d\xfcr")
    os.mkdir(folder)
    with open(os.path.join(folder, b"n\xe4me.json"), "wb") as f:
        f.write(PAYLOAD)
    code, out, err = run("lint", b"d\xfcr", cwd=str(tmp_path))
    assert code == 0, err
    assert b"d\\xFCr/n\\xE4me.json" in out


def test_check_trace_opens_a_trace_whose_name_is_not_utf8(tmp_path):
    name = b"s\xe9ssion.trace"
    record = {"t": 1, "dir": "in", "frame": {"jsonrpc": "2.0", "id": 1, "method": "feed.nuke"}}
    with open(os.path.join(os.fsencode(str(tmp_path)), name), "wb") as f:
        f.write(json.dumps(record).encode() + b"\n")
    code, out, err = run("check-trace", name, cwd=str(tmp_path))
    assert code == 1, err
    assert b"s\\xE9ssion.trace:1:" in out and b"unknown-method" in out


def test_a_page_that_cannot_be_written_names_its_path_escaped(tmp_path):
    with open(tmp_path / "p.json", "wb") as f:
        f.write(PAYLOAD)
    code, _, err = run("lint", "--html", b"no/such\n::error::forged/page.html", "p.json", cwd=str(tmp_path))
    assert code == 3
    assert lines_starting_a_command(err) == [] and b"no/such\\n::error" in err


def test_preview_names_a_payload_it_cannot_read_escaped(tmp_path):
    code, _, err = run("preview", FORGED + b".json", cwd=str(tmp_path))
    assert code != 0
    assert lines_starting_a_command(err) == [] and b"x\\n::error" in err
