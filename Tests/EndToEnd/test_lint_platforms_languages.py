"""Lint and resolve read a createMessage request as the Messages API does: a verdict per platform of
its `platforms`, texts written as language objects picked by a locale, the accessibility labels in
the product pages' six languages, and files of thousands of payloads placed right."""

from __future__ import annotations

import json
import os
import random
import subprocess

import pytest

from conftest import BIN
from contract import CONTRACT

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "data", "seed-requests")
LINT = os.path.join(HERE, "data", "lint")
TWO = os.path.join(LINT, "two-platforms.json")
LANGUAGES = os.path.join(LINT, "languages.json")
NOW = "1790000000"


def lint(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([BIN, "lint", "--now", NOW, *args], input=stdin, capture_output=True, timeout=120)


def rpc(*requests: dict, store: str = ":memory:") -> dict:
    """Each request's reply by id, from one server."""
    frames = b"".join(json.dumps({"jsonrpc": "2.0", **r}).encode() + b"\n" for r in requests)
    done = subprocess.run([BIN, "--store", store, "--test-clock", NOW], input=frames, capture_output=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    return {reply["id"]: reply for reply in replies if "id" in reply}


def notification(path: str) -> dict:
    with open(path, encoding="utf-8") as file:
        return json.load(file)["request"]["notifications"][0]


# Platforms


def test_every_request_of_the_product_pages_lints_clean_with_no_flags():
    files = sorted(os.listdir(SEEDS))
    assert len(files) == 25  # five requests on each of the five pages
    done = lint(SEEDS)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    verdicts = [line for line in done.stdout.decode().splitlines() if not line.startswith("  ")]
    assert len(verdicts) == 25 and all(" on ios: " in line for line in verdicts)
    assert done.stdout.decode().count("\n  ok\n") + done.stdout.decode().endswith("  ok\n") >= 25
    assert "warning" not in done.stdout.decode() and "error" not in done.stdout.decode()


def test_a_request_to_ios_and_android_gets_two_verdicts_in_text():
    done = lint(TWO)
    assert done.returncode == 1
    text = done.stdout.decode()
    assert 'request.notifications[0] on ios: wallet card "Your loyalty card is ready"\n  ok\n' in text
    assert 'request.notifications[0] on android: classic card "Your loyalty card is ready" (asked for wallet)' in text
    assert 'warning [degraded] on android: the host cannot add wallet passes (platform "android"' in text


def test_a_request_to_ios_and_android_gets_two_verdicts_in_sarif():
    done = lint("--format", "sarif", TWO)
    run = json.loads(done.stdout)["runs"][0]
    verdicts = run["properties"]["verdicts"]
    assert [(v["subject"], v["verdict"], v["findings"]) for v in verdicts] == [
        ("request.notifications[0] on ios", 'wallet card "Your loyalty card is ready"', 0),
        ("request.notifications[0] on android", 'classic card "Your loyalty card is ready" (asked for wallet)', 1),
    ]
    assert [(r["ruleId"], r["message"]["text"].split(":")[0]) for r in run["results"]] == [("degraded", "on android")]
    # The finding sits at the field the wallet card needs, the pass.
    assert run["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 11


def test_two_verdicts_in_json_junit_and_github():
    report = json.loads(lint("--json", TWO).stdout)
    assert [(p["platform"], p["card"]["kind"]) for p in report["payloads"]] == [("ios", "wallet"), ("android", "classic")]
    assert not CONTRACT.errors_of(report, CONTRACT.schema("LintReport"))
    junit = lint("--format", "junit", TWO).stdout.decode()
    assert 'tests="2" failures="1"' in junit and 'name="request.notifications[0] on android"' in junit
    github = lint("--format", "github", TWO).stdout.decode()
    assert github.startswith("::warning file=") and "::on android: the host cannot add wallet passes" in github


def test_platform_flag_narrows_the_verdicts():
    for flag, name, code in (("ios", "ios", 0), ("1", "ios", 0), ("android", "android", 1)):
        done = lint("--platform", flag, TWO)
        assert done.returncode == code
        verdicts = [line for line in done.stdout.decode().splitlines() if not line.startswith("  ")]
        assert len(verdicts) == 1 and f" on {name}: " in verdicts[0]


def test_without_platforms_lint_keeps_its_one_verdict_for_the_host():
    payload = notification(TWO)
    del payload["platforms"]
    done = lint("-", stdin=json.dumps(payload).encode())
    assert done.returncode == 1 and done.stdout.decode().startswith("- payload: classic card")
    assert b"no platform declared" in done.stdout
    assert lint("--platform", "ios", "-", stdin=json.dumps(payload).encode()).returncode == 0


def test_message_resolve_gives_the_card_per_platform_when_asked():
    payload = notification(TWO)
    replies = rpc({"id": 1, "method": "message.resolve", "params": {"payload": payload, "perPlatform": True}},
                  {"id": 2, "method": "message.resolve", "params": {"payload": payload}})
    result = replies[1]["result"]
    CONTRACT.check_reply("message.resolve", replies[1])
    assert [(v["platform"], v["card"]["kind"]) for v in result["platforms"]] == [("ios", "wallet"), ("android", "classic")]
    assert "android" in result["platforms"][1]["card"]["degraded"]["reason"]
    assert "platforms" not in replies[2]["result"]


# Languages


def test_language_objects_are_no_schema_error_and_pick_by_locale():
    for locale, title, body in (("de", "30% Rabatt", "Nur heute"), ("de-AT", "30% Rabatt", "Nur heute"),
                                ("fr", "30% off", "Today only"), ("es-MX", "30% de descuento", "Today only")):
        report = json.loads(lint("--json", "--locale", locale, LANGUAGES).stdout)
        payload = report["payloads"][0]
        assert payload["schemaProblems"] == [] and payload["locale"] == locale
        assert (payload["card"]["title"], payload["card"]["body"]) == (title, body), locale


def test_a_language_missing_a_body_warns():
    done = lint(LANGUAGES)
    assert done.returncode == 1
    text = done.stdout.decode()
    assert 'warning [missingLanguage] content has no "es" text while ios_title has one' in text
    finding = next(f for f in json.loads(lint("--json", LANGUAGES).stdout)["findings"] if f["ruleId"] == "missingLanguage")
    assert finding["pointer"] == "/request/notifications/0/content" and finding["line"] == 6


def test_every_locale_gives_a_verdict_per_language():
    done = lint("--every-locale", LANGUAGES)
    verdicts = [line for line in done.stdout.decode().splitlines() if not line.startswith("  ")]
    assert [v.split(": ", 1)[1] for v in verdicts] == [
        'classic card "30% off"', 'classic card "30% Rabatt"', 'classic card "30% de descuento"']
    assert [v.split(" ", 1)[1].split(":")[0] for v in verdicts] == [
        "request.notifications[0] on ios [en]", "request.notifications[0] on ios [de]",
        "request.notifications[0] on ios [es]"]


def test_locale_attribute_in_resolve_the_feed_and_config(tmp_path):
    payload = notification(LANGUAGES)
    store = str(tmp_path / "inbox.sqlite")
    replies = rpc(
        {"id": 1, "method": "message.resolve", "params": {"payload": payload, "attributes": {"locale": "de-AT"}}},
        {"id": 2, "method": "message.resolve", "params": {"payload": payload, "attributes": {"locale": "fr"}}},
        {"id": 3, "method": "message.ingest", "params": {"payload": payload, "id": "sale"}},
        {"id": 4, "method": "config.set", "params": {"attributes": {"locale": "de"}}},
        {"id": 5, "method": "feed.list"},
        {"id": 6, "method": "config.get"},
        {"id": 7, "method": "config.set", "params": {"attributes": {"locale": "no tag!"}}},
        store=store)
    assert replies[1]["result"]["title"] == "30% Rabatt"
    assert replies[2]["result"]["title"] == "30% off"
    assert [(c["title"], c["body"]) for c in replies[5]["result"]["items"]] == [("30% Rabatt", "Nur heute")]
    assert replies[6]["result"]["attributes"]["locale"] == "de"
    assert replies[7]["error"]["code"] == -32602


VIDEO = {"ios_title": "Watch", "content": "Tap to play", "inbox_days": 7,
         "data": {"displayType": "video", "video": {"url": "https://cdn.example.com/clip.mp4"}}}
CAROUSEL = {"ios_title": "New", "content": "Swipe", "inbox_days": 7,
            "data": {"displayType": "carousel", "carousel": [{"image": "https://cdn.example.com/1.jpg"},
                                                             {"image": "https://cdn.example.com/2.jpg"}]}}
# As the product pages word them; the Russian page keeps the English labels.
LABELS = {"en": ("Play video", "Slide", "1 of 2"), "de": ("Video abspielen", "Folie", "1 von 2"),
          "es": ("Reproducir video", "Diapositiva", "1 de 2"), "pt": ("Reproduzir vídeo", "Slide", "1 de 2"),
          "zh": ("播放视频", "幻灯片", "第 1 页，共 2 页"), "ru": ("Play video", "Slide", "1 из 2"),
          "fr": ("Play video", "Slide", "1 of 2")}


@pytest.mark.parametrize("locale", sorted(LABELS))
def test_cards_carry_the_labels_of_the_locales_language(locale):
    replies = rpc(*[{"id": i, "method": "message.resolve", "params": {"payload": p, "attributes": {"locale": locale}}}
                    for i, p in ((1, VIDEO), (2, CAROUSEL))])
    play, slide, position = LABELS[locale]
    assert replies[1]["result"]["video"]["accessibilityLabel"] == play
    assert replies[2]["result"]["carousel"][0]["accessibilityLabel"] == slide
    assert replies[2]["result"]["carousel"][0]["position"] == position
    for reply in replies.values():
        assert not CONTRACT.errors_of(reply["result"], CONTRACT.schema("Card"))


def test_mcp_tools_take_the_locale(tmp_path):
    frames = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "resolve_payload", "arguments": {
            "payload": notification(LANGUAGES), "attributes": {"locale": "de-AT"}}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "lint_payload", "arguments": {
            "payload": notification(TWO), "attributes": {"locale": "de"}}}},
    ]
    done = subprocess.run([BIN, "mcp", "--store", str(tmp_path / "m.sqlite")],
                          input=b"".join(json.dumps(f).encode() + b"\n" for f in frames), capture_output=True, timeout=60)
    replies = {r["id"]: r for r in map(json.loads, done.stdout.splitlines()) if "id" in r}
    assert replies[2]["result"]["structuredContent"]["title"] == "30% Rabatt"
    lint_report = replies[3]["result"]["structuredContent"]
    assert [p["platform"] for p in lint_report["payloads"]] == ["ios", "android"]


# Scale: an array file is placed from each payload's start


@pytest.mark.parametrize("indent", [None, 2])
def test_a_file_of_thousands_of_payloads_places_each_finding(tmp_path, indent):
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    count = 3000
    broken = sorted(rng.sample(range(count), 20))
    items = []
    for index in range(count):
        item = {"ios_title": f"Card {index}", "content": "é😀 body", "inbox_days": 7,
                "data": {"displayType": "captioned" if index in broken else "classic"}}
        items.append(item)
    path = tmp_path / "many.json"
    text = json.dumps(items, indent=indent, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    report = json.loads(lint("--json", str(path)).stdout)
    assert len(report["payloads"]) == count, seed
    degraded = [f for f in report["findings"] if f["ruleId"] == "degraded"]
    assert [int(f["pointer"].split("/")[1]) for f in degraded] == broken, seed
    lines = text.split("\n")
    for finding in degraded:
        line = lines[finding["line"] - 1]
        # The column counts UTF-16 units: the text before it, so encoded, ends just before "displayType".
        before = line.encode("utf-16-le")[: (finding["column"] - 1) * 2].decode("utf-16-le")
        assert line[len(before):].startswith('"displayType"') or line[len(before):].startswith('"captioned"'), seed
