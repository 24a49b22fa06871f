"""Every break of the input schema of a payload at once, each over its value, in words, with the
schema keyword it broke: `inbox-rpc lint` and the language server say the same list."""

from __future__ import annotations

import json
import subprocess

import test_lsp as lsp
from conftest import BIN

# Three mistakes: a display type misspelt, a button title that is a number, an action misspelt.
PAYLOAD = """{
  "inbox_days": 7,
  "content": "Sale",
  "data": {
    "displayType": "bannr",
    "buttons": [{"title": 5}, {"title": "Go", "action": "dismis"}]
  }
}
"""

EXPECTED = [
    # (line, column, endLine, endColumn, message, schemaPath's tail)
    (5, 20, 5, 27, 'payload.data.displayType: must be one of banner, captioned, classic, carousel, video or wallet'
     ' (any case), got "bannr"', "MarketerData/properties/displayType/pattern"),
    (6, 27, 6, 28, "payload.data.buttons[0].title: expected string, got integer",
     "MarketerData/properties/buttons/items/properties/title/type"),
    (6, 57, 6, 65, 'payload.data.buttons[1].action: must be one of dismiss, markRead or custom (any case), got "dismis"',
     "MarketerData/properties/buttons/items/properties/action/pattern"),
]


def schema_findings(path, format="json"):
    done = subprocess.run([BIN, "lint", "--format", format, "--now", "1790000000", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    return done, json.loads(done.stdout.splitlines()[0]) if format != "text" else None


def test_three_violations_are_three_findings_each_with_its_words_and_its_range(tmp_path):
    path = tmp_path / "payload.json"
    path.write_text(PAYLOAD)
    _, report = schema_findings(path)
    found = [f for f in report["findings"] if f["ruleId"] == "schema"]
    assert [(f["line"], f["column"], f["endLine"], f["endColumn"], f["message"]) for f in found] == \
        [row[:5] for row in EXPECTED]
    for finding, row in zip(found, EXPECTED):
        assert finding["schemaPath"] == "#/components/schemas/" + row[5]
    # Each range covers the value as written.
    lines = PAYLOAD.splitlines()
    assert [lines[f["line"] - 1][f["column"] - 1:f["endColumn"] - 1] for f in found] == ['"bannr"', "5", '"dismis"']
    text = subprocess.run([BIN, "lint", "--now", "1790000000", str(path)], capture_output=True, text=True,
                          timeout=60).stdout
    assert text.count("error [schema]") == 3 and "must match" not in text


def test_sarif_regions_end_where_the_value_ends(tmp_path):
    path = tmp_path / "payload.json"
    path.write_text(PAYLOAD)
    _, sarif = schema_findings(path, "sarif")
    results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "schema"]
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in results]
    assert [(g["startLine"], g["startColumn"], g["endLine"], g["endColumn"]) for g in regions] == \
        [row[:4] for row in EXPECTED]
    assert results[0]["properties"]["schemaPath"].endswith("displayType/pattern")


def test_the_language_server_shows_the_same_list(tmp_path):
    path = tmp_path / "payload.json"
    path.write_text(PAYLOAD)
    uri = "file://" + str(path)

    async def body():
        async with lsp.Session() as s:
            s.open(uri, PAYLOAD)
            published = await s.diagnostics_for(uri, 1)
            # Each break is a diagnostic of its own, or said in the engine's warning at the same
            # value (`unknownButtonAction`: "...; payload.data.buttons[1].action: must be one of ...").
            breaks = sorted((d for d in published.diagnostics if (d.data or {}).get("schemaPath")),
                            key=lambda d: (d.range.start.line, d.range.start.character))
            assert [(d.range.start.line + 1, d.range.start.character + 1, d.range.end.line + 1,
                     d.range.end.character + 1) for d in breaks] == [row[:4] for row in EXPECTED]
            for d, row in zip(breaks, EXPECTED):
                assert d.message == row[4] or d.message.endswith("; " + row[4]), d.message
                assert d.data["schemaPath"] == "#/components/schemas/" + row[5]
            lsp.same_as_lint(published.diagnostics, lsp.lint_json(str(path), "--now", "1790000000"))
    lsp.run(body)
