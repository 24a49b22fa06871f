"""`inbox-rpc lint --format ...`: what CI systems read, checked by their own readers, and every
finding at the line and column it is about in hand-made files."""

from __future__ import annotations

import json
import os
import re
import subprocess

import jsonschema
import junitparser
import pytest

from conftest import BIN
from contract import CONTRACT

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "lint")
POSITIONS = os.path.join(DATA, "positions")
SARIF_SCHEMA = os.path.join(HERE, "data", "sarif", "sarif-schema-2.1.0.json")


def lint(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, "lint", "--now", "1790000000", *args], input=stdin, capture_output=True, timeout=20)


# Each file breaks the schema with "inbox_days": "seven"; the value's place was counted by hand
# (columns in UTF-16 code units: "👋" is two, the byte order mark none).
KNOWN = {
    "minified.json": (1, 97, "/1/inbox_days"),
    "pretty.json": (7, 23, "/request/notifications/0/inbox_days"),
    "crlf.json": (7, 23, "/request/notifications/0/inbox_days"),
    "bom.json": (1, 54, "/inbox_days"),
    "non-ascii.json": (1, 61, "/inbox_days"),
}


def schema_findings(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["ruleId"] == "schema"]


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_a_schema_problem_sits_at_its_value_in_every_layout(name):
    line, column, pointer = KNOWN[name]
    done = lint("--format", "json", os.path.join(POSITIONS, name))
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert not CONTRACT.errors_of(report, CONTRACT.schema("LintReport"))
    [found] = schema_findings(report)
    assert (found["line"], found["column"], found["pointer"]) == (line, column, pointer)
    assert found["severity"] == "error" and "inbox_days: expected integer, got string" in found["message"]
    # The same place in every other format.
    text = lint(os.path.join(POSITIONS, name)).stdout.decode()
    assert f"{name}:{line}:{column}: error [schema]" in text
    github = lint("--format", "github", os.path.join(POSITIONS, name)).stdout.decode()
    assert f"line={line},col={column},title=schema::" in github
    sarif = json.loads(lint("--format", "sarif", os.path.join(POSITIONS, name)).stdout)
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "schema"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (line, column)


def test_a_warning_about_a_notifications_own_member_sits_at_its_value():
    done = lint("--format", "json", os.path.join(POSITIONS, "pretty.json"))
    [warning] = [f for f in json.loads(done.stdout)["findings"] if f["ruleId"] == "invalidField"]
    assert (warning["line"], warning["column"], warning["severity"]) == (7, 23, "warning")
    assert warning["pointer"] == "/request/notifications/0/inbox_days"
    # The schema's finding about the same value sits at the same place.
    [schema] = [f for f in json.loads(done.stdout)["findings"] if f["ruleId"] == "schema"]
    assert (schema["line"], schema["column"]) == (7, 23)


def findings_of(payload: bytes) -> dict[str, tuple[int, int, str]]:
    report = json.loads(lint("--format", "json", "-", stdin=payload).stdout)
    return {f["ruleId"]: (f["line"], f["column"], f.get("pointer")) for f in report["findings"]}


def test_warnings_sit_at_the_value_they_are_about():
    # Send request: the custom data is `data`.
    send = (b'{"ios_title": "Hi", "content": "Body", "inbox_days": 7,\n'
            b' "data": {"displayType": "carousel", "carousel": [],\n'
            b'  "buttons": [{"title": "A"}, {"title": "B"}, {"title": "C"}, {"title": "D"}]}}')
    found = findings_of(send)
    assert found["degraded"] == (2, 50, "/data/carousel")
    # A warning about one button sits at that button: the fourth, past the third.
    assert found["buttonDropped"] == (3, 63, "/data/buttons/3")
    # One slide: the one with no image, and the url of another that a host may not open.
    slides = (b'{"ios_title": "Hi", "content": "Body", "inbox_days": 7, "data": {"displayType": "carousel",\n'
              b' "carousel": [{"image": "https://x.example/1.png"}, {"title": "no image"},\n'
              b'  {"image": "https://x.example/3.png", "url": "javascript:alert(1)"}]}}')
    found = findings_of(slides)
    assert found["slideDropped"] == (2, 53, "/data/carousel/1")
    assert found["unsafeScheme"] == (3, 47, "/data/carousel/2/url")
    unknown = b'{"ios_title": "Hi", "content": "Body", "inbox_days": 7, "data": {"displayType": "poster"}}'
    assert findings_of(unknown)["unknownDisplayType"] == (1, 81, "/data/displayType")
    # Push payload: `u` as an object is walked into; as a JSON string, the string is as deep as it goes.
    push = b'{"pw_inbox": "1", "title": "T", "u": {"displayType": "poster"}}'
    assert findings_of(push)["unknownDisplayType"] == (1, 54, "/u/displayType")
    encoded = b'{"pw_inbox": "1", "title": "T", "u": "{\\"displayType\\": \\"poster\\"}"}'
    assert findings_of(encoded)["unknownDisplayType"] == (1, 38, "/u")


def test_sarif_is_valid_sarif_2_1_0_with_rules_described_once():
    done = lint("--format", "sarif", DATA)
    assert done.returncode == 1
    log = json.loads(done.stdout)
    with open(SARIF_SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    [run] = log["runs"]
    assert run["columnKind"] == "utf16CodeUnits"
    rules = run["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert len(ids) == len(set(ids)) and {"schema", "degraded", "buttonDropped", "slideDropped"} <= set(ids)
    assert run["results"], "the data directory has findings"
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"].endswith(".json")
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1


def test_junit_has_a_test_case_per_payload_read_by_junitparser(tmp_path):
    done = lint("--format", "junit", os.path.join(DATA, "mixed-request.json"), os.path.join(DATA, "seed-carousel.json"))
    assert done.returncode == 1
    path = tmp_path / "report.xml"
    path.write_bytes(done.stdout)
    xml = junitparser.JUnitXml.fromfile(str(path))
    suites = {suite.name: suite for suite in xml}
    mixed = suites[os.path.join(DATA, "mixed-request.json")]
    cases = {case.name: case for case in mixed}
    assert sorted(cases) == [f"request.notifications[{i}]" for i in range(3)]
    first = [(r.type, r.message) for r in cases["request.notifications[0]"].result]
    assert ("slideDropped", next(m for t, m in first if t == "slideDropped")) in first
    assert all(isinstance(r, junitparser.Failure) for case in mixed for r in case.result)
    assert re.match(r"\d+:\d+: ", first[0][1])
    [clean] = list(suites[os.path.join(DATA, "seed-carousel.json")])
    assert clean.is_passed
    assert (mixed.tests, mixed.failures) == (3, 3)


def test_fail_on_sets_the_exit_code_and_what_junit_fails():
    warned = b'{"ios_title": "Hi", "content": "Body", "inbox_days": 7, "data": {"displayType": "carousel"}}'
    assert lint("-", stdin=warned).returncode == 1
    assert lint("--fail-on", "warning", "-", stdin=warned).returncode == 1
    assert lint("--fail-on", "error", "-", stdin=warned).returncode == 0
    assert lint("--fail-on", "never", os.path.join(DATA, "mixed-request.json")).returncode == 0
    assert lint("--fail-on", "error", os.path.join(DATA, "mixed-request.json")).returncode == 1
    lenient = lint("--format", "junit", "--fail-on", "error", "-", stdin=warned).stdout.decode()
    assert "<failure" not in lenient and "warning [degraded]" in lenient
    assert lint("--fail-on", "sometimes", "-", stdin=warned).returncode == 2
    assert lint("--format", "yaml", "-", stdin=warned).returncode == 2


def test_unreadable_files_are_findings_and_exit_3(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_bytes(b'{\n  "a": 1,\n  oops\n}\n')
    done = lint("--format", "github", "--fail-on", "never", str(broken), str(tmp_path / "missing.json"))
    assert done.returncode == 3
    lines = done.stdout.decode().splitlines()
    assert lines[0].startswith(f"::error file={broken},line=3,") and "title=notJSON::" in lines[0]
    assert "title=unreadable::" in lines[1]
    as_json = lint("--json", str(broken))
    assert as_json.returncode == 3
    report = json.loads(as_json.stdout)
    assert not CONTRACT.errors_of(report, CONTRACT.schema("LintReport"))
    assert report["payloads"] == [] and report["findings"][0]["ruleId"] == "notJSON"


def test_directories_are_walked_for_json_files_and_dash_reads_stdin(tmp_path):
    (tmp_path / "b" / "deeper").mkdir(parents=True)
    clean = b'{"ios_title": "Hi", "content": "Body", "inbox_days": 7}'
    (tmp_path / "a.json").write_bytes(clean)
    (tmp_path / "b" / "deeper" / "c.json").write_bytes(clean)
    (tmp_path / "b" / "notes.txt").write_bytes(b"not a payload")
    (tmp_path / ".hidden.json").write_bytes(b"not json")
    done = lint("--format", "json", str(tmp_path), "-", stdin=clean)
    assert done.returncode == 0, done.stdout + done.stderr
    files = [json.loads(line)["file"] for line in done.stdout.splitlines()]
    assert files == [str(tmp_path / "a.json"), str(tmp_path / "b" / "deeper" / "c.json"), "-"]


def test_workflow_commands_escape_what_would_break_them(tmp_path):
    # A file name with ':' and ',' and a message holding '%' cannot end a property or the command early.
    odd = tmp_path / "a:b,c.json"
    odd.write_bytes(b'{"ios_title": "Hi", "content": "Body", "inbox_days": "100%"}')
    lines = lint("--format", "github", str(odd)).stdout.decode().splitlines()
    assert lines[0].startswith("::error file=") and "a%3Ab%2Cc.json,line=1,col=54,title=schema::" in lines[0]
    [warning] = [line for line in lines if "title=invalidField::" in line]
    assert '"100%25"' in warning and not re.search(r"%(?![0-9A-F]{2})", warning)
