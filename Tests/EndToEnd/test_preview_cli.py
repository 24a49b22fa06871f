"""`inbox-rpc preview` and `lint --html` as commands: what they write, where, and their exit codes."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import run_cli
from preview_browser import CLOCK, DATA, sample_store

SEED = str(DATA / "preview" / "seed-examples.json")


@pytest.fixture
def workdir():
    directory = tempfile.mkdtemp(prefix="inbox-preview-cli-")
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def sections(html: str) -> list[str]:
    return [part.split('"', 1)[0] for part in html.split('<section class="ik-entry" data-id="')[1:]]


def test_a_store_is_drawn_in_feed_order_to_stdout(workdir):
    store = sample_store(Path(workdir))
    run = run_cli("preview", "--store", str(store), "--now", str(CLOCK))
    assert run.returncode == 0, run.stderr
    page = run.stdout.decode()
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert sections(page) == ["welcome", "summer-sale", "new-arrivals", "the-reveal", "loyalty-card", "hero-banner",
                              "plain-note", "broken-video", "captioned-no-image", "unknown-kind"]
    assert 'data-kind="classic" data-requested-kind="wallet"' in page
    ios = run_cli("preview", "--store", str(store), "--now", str(CLOCK), "--platform", "ios").stdout.decode()
    assert 'data-kind="wallet" data-requested-kind="wallet"' in ios


def test_payload_files_are_drawn_pinned_first_with_their_labels(workdir):
    pinned = os.path.join(workdir, "pinned.json")
    with open(pinned, "w") as f:
        json.dump({"ios_title": "Pinned", "content": "x", "inbox_days": 1, "send_date": "2020-01-01 00:00",
                   "data": {"pinned": True}}, f)
    out = os.path.join(workdir, "page.html")
    run = run_cli("preview", "--platform", "ios", "--now", str(CLOCK), "--theme", "dark", SEED, pinned, "-o", out)
    assert run.returncode == 0 and run.stdout == b"", run.stderr
    page = open(out, encoding="utf-8").read()
    assert '<html lang="en" data-theme="dark">' in page and "6 cards" in page
    assert page.index("Pinned</h2>") < page.index("New arrivals</h2>")
    assert f'data-label="{pinned} payload"' in page


@pytest.mark.parametrize("args, code, message", [
    (["--theme", "sepia"], 2, "--theme is light or dark"),
    (["--store", "x.sqlite", SEED], 2, "not both"),
    (["--bogus"], 2, "unknown option --bogus"),
    (["-o"], 2, "-o needs a value"),
    (["--store", "/nonexistent/inbox.sqlite"], 3, "no store at /nonexistent/inbox.sqlite"),
    (["/nonexistent/payload.json"], 3, "/nonexistent/payload.json"),
    (["-o", "/nonexistent/dir/page.html", SEED], 3, "/nonexistent/dir/page.html"),
])
def test_preview_exit_codes(args, code, message):
    run = run_cli("preview", *args)
    assert run.returncode == code and message in run.stderr.decode(), run.stderr
    assert run.stdout == b""


def test_lint_html_writes_the_page_and_keeps_its_exit_code(workdir):
    out = os.path.join(workdir, "lint.html")
    clean = run_cli("lint", "--html", out, "--platform", "ios", "--now", str(CLOCK), SEED)
    assert clean.returncode == 0, clean.stdout
    assert len(sections(open(out, encoding="utf-8").read())) == 5
    noisy = run_cli("lint", "--html", out, str(DATA / "lint" / "mixed-request.json"))
    assert noisy.returncode == 1 and "ik-refused" in open(out, encoding="utf-8").read()
    assert run_cli("lint", "--html").returncode == 2
