"""message.render over stdio: one card as an HTML fragment, from the store or from a payload, its
reply checked against the contract (conftest validates every reply), and the fragment drawn in
headless Chromium with the stylesheet it came with."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from playwright.sync_api import sync_playwright

from conftest import Server, assert_error, assert_result
from preview_browser import PHONE, ax_nodes, chromium_path

CLOCK = 1_790_000_000
HOSTILE = "<script>alert(1)</script>"


@pytest.fixture
def server():
    directory = tempfile.mkdtemp(prefix="inbox-render-")
    server = Server(["--store", os.path.join(directory, "inbox.sqlite"), "--sample-feed", "--test-clock", str(CLOCK)],
                    store=False)
    yield server
    server.shutdown_gracefully()
    shutil.rmtree(directory, ignore_errors=True)


def render(server: Server, params: dict) -> dict:
    reply = server.call("message.render", params)
    return assert_result(reply, reply["id"])


def test_a_stored_card_and_a_payload_render_as_fragments(server):
    stored = render(server, {"id": "broken-video", "theme": "dark"})
    assert stored["id"] == "broken-video" and stored["kind"] == "classic"
    assert stored["html"].startswith('<div class="ik-root" data-theme="dark"><section class="ik-entry"')
    assert '<p class="ik-degraded">degraded from video: data.video.url' in stored["html"]
    assert ".ik-card{" in stored["css"] and "<" not in stored["css"]

    payload = {"ios_title": HOSTILE, "content": "x", "inbox_days": 1, "data": {"buttons": [{"title": "Go", "url": "javascript:alert(1)"}]}}
    drawn = render(server, {"payload": payload, "id": "hostile", "now": CLOCK})
    assert drawn["id"] == "hostile" and HOSTILE not in drawn["html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in drawn["html"] and 'href="javascript' not in drawn["html"]


def test_render_errors(server):
    reply = server.call("message.render", {})
    assert_error(reply, reply["id"], -32602)
    reply = server.call("message.render", {"id": "no-such-message"})
    assert_error(reply, reply["id"], -32001)
    reply = server.call("message.render", {"id": "welcome", "theme": "sepia"})
    assert_error(reply, reply["id"], -32602)
    reply = server.call("message.render", {"payload": {"aps": {}}})
    assert_error(reply, reply["id"], -32010)
    assert render(server, {"id": "welcome"})["kind"] == "classic"


def test_the_fragment_draws_in_a_browser_with_its_stylesheet(server):
    parts = [render(server, {"id": card}) for card in ("new-arrivals", "the-reveal", "summer-sale")]
    document = "<!doctype html><meta charset=utf-8><style>%s</style>%s" % (
        parts[0]["css"], "".join(part["html"] for part in parts))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        page = browser.new_page(viewport=PHONE)
        page.route("**/*", lambda route: route.abort())
        page.set_content(document)
        nodes = ax_nodes(page)
        names = {(node["role"], node["name"], node["testid"]) for node in nodes}
        assert ("button", "Play video", "inboxkit.video.play") in names
        assert {("button", "New in", None), ("button", "On sale", None), ("button", "Slide", None)} <= names
        assert ("link", "Claim", None) in names and ("button", "Save", None) in names
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        browser.close()
