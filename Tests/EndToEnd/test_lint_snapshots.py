"""`inbox-rpc lint --snapshot DIR [--check]`: each payload's cards kept as a file named by its
derived id, compared on later runs as Jest's snapshots are (no new snapshot under CI=true)."""

from __future__ import annotations

import json
import os
import subprocess

from conftest import BIN


def notification(title: str, **more) -> dict:
    return {"title": title, "content": "40% off", "inbox_days": 7, "platforms": [1, 3],
            "data": {"displayType": "captioned", "image": "https://cdn.example.com/a.png"}, **more}


def write(path, *notifications) -> None:
    path.write_text(json.dumps({"request": {"notifications": list(notifications)}}, indent=2))


def lint(tmp_path, *args: str, ci: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([BIN, "lint", "--fail-on", "never", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)


def test_snapshot_then_check_passes_and_each_file_holds_one_payloads_cards(tmp_path):
    write(tmp_path / "sale.json", notification("Sale"), notification("Other"))
    wrote = lint(tmp_path, "--snapshot", "snaps", "sale.json")
    assert wrote.returncode == 0, wrote.stderr
    assert "2 written" in wrote.stderr
    files = sorted(os.listdir(tmp_path / "snaps"))
    assert len(files) == 2 and all(name.startswith("sr-") and name.endswith(".json") for name in files)
    snapshot = json.loads((tmp_path / "snaps" / files[0]).read_text())
    assert snapshot["id"] + ".json" == files[0]
    assert snapshot["source"]["file"] == "sale.json"
    # One card per platform the request names, at the fixed send time.
    assert [v["platform"] for v in snapshot["verdicts"]] == ["ios", "android"]
    assert snapshot["verdicts"][0]["card"]["sentAt"] == "2026-01-01T00:00:00Z"
    checked = lint(tmp_path, "--snapshot", "snaps", "--check", "sale.json", ci="true")
    assert checked.returncode == 0, checked.stderr
    assert "2 match, 0 fail, 0 written" in checked.stderr


def test_a_changed_title_fails_the_check_with_the_diff_and_the_file_to_update(tmp_path):
    write(tmp_path / "sale.json", notification("Summer sale"))
    assert lint(tmp_path, "--snapshot", "snaps", "sale.json").returncode == 0
    [before] = os.listdir(tmp_path / "snaps")
    write(tmp_path / "sale.json", notification("Winter sale"))
    checked = lint(tmp_path, "--json", "--snapshot", "snaps", "--check", "sale.json", ci="true")
    assert checked.returncode == 1
    json.loads(checked.stdout.splitlines()[0])  # stdout stays the report
    err = checked.stderr
    assert f"snapshot snaps/{before} no longer matches sale.json request.notifications[0]" in err
    assert '-        "title": "Summer sale",' in err and '+        "title": "Winter sale",' in err
    assert f"--- snaps/{before}" in err and "@@ -" in err
    assert "update it: inbox-rpc lint --fail-on never --json --snapshot snaps sale.json" in err
    # Updating replaces the file the payload's old id named.
    assert lint(tmp_path, "--snapshot", "snaps", "sale.json").returncode == 0
    [after] = os.listdir(tmp_path / "snaps")
    assert after != before
    assert lint(tmp_path, "--snapshot", "snaps", "--check", "sale.json", ci="true").returncode == 0


def test_a_new_payload_fails_under_ci_and_is_written_elsewhere(tmp_path):
    write(tmp_path / "sale.json", notification("Sale"))
    assert lint(tmp_path, "--snapshot", "snaps", "sale.json").returncode == 0
    write(tmp_path / "sale.json", notification("Sale"), notification("New one"))
    in_ci = lint(tmp_path, "--snapshot", "snaps", "--check", "sale.json", ci="true")
    assert in_ci.returncode == 1
    assert "for sale.json request.notifications[1], and CI=true writes none" in in_ci.stderr
    assert len(os.listdir(tmp_path / "snaps")) == 1
    local = lint(tmp_path, "--snapshot", "snaps", "--check", "sale.json")
    assert local.returncode == 0 and "wrote the new snapshot" in local.stderr
    assert len(os.listdir(tmp_path / "snaps")) == 2


def test_check_needs_a_snapshot_directory(tmp_path):
    write(tmp_path / "sale.json", notification("Sale"))
    done = lint(tmp_path, "--check", "sale.json")
    assert done.returncode == 2 and "--check needs --snapshot DIR" in done.stderr
    assert "--snapshot DIR" in lint(tmp_path, "--help").stdout


def test_explain_says_the_resolvers_rules_in_order_at_the_fields_they_read(tmp_path):
    write(tmp_path / "sale.json", {"title": "Sale", "content": "40% off", "inbox_days": 7,
                                   "data": {"displayType": "captioned"}})
    done = lint(tmp_path, "--explain", "sale.json")
    notes = [line for line in done.stdout.splitlines() if "note [explain]" in line]
    rules = [line.split("note [explain] ")[1].split(" (docs/engine.md")[0] for line in notes]
    assert rules == ["1. Images", "2. Card kinds", "3. Card kinds: required fields", "4. Buttons", "5. Row actions",
                     "6. The card"], notes
    kind = notes[1]
    # Placed at the value it read: displayType, in the payload's data.
    text = (tmp_path / "sale.json").read_text().splitlines()
    line, column = (int(n) for n in kind.split("sale.json:")[1].split(":")[:2])
    assert text[line - 1][column - 1:].startswith('"captioned"')
    assert 'read "captioned" from displayType in the custom data; asks for captioned' in kind
    assert "captioned cannot be drawn: captioned needs an image, a title and a body; missing: image" in notes[2]
    assert notes[-1].endswith("a classic card (asked for captioned), 0 button(s)")
