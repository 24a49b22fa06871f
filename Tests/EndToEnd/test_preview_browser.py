"""The preview page in a real headless Chromium at 390×844: every layout and each degradation of the
sample feed and the seed's example payloads, checked from the live page (geometry, scrolling, the
accessibility tree), and hostile payloads that must run nothing. Screenshots per layout are kept in
test-artifacts/preview/ (gitignored)."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import sync_playwright

from preview_browser import (CLOCK, DATA, PHONE, ax_nodes, chromium_path, cli, facts, feed_cards, make_pages,
                             open_page, sample_store, screenshot, temporary_directory)

LAYOUTS = {"banner", "captioned", "classic", "carousel", "video", "wallet"}
CARD_PAGES = ("sample-ios", "sample", "sample-dark", "seed-ios", "hostile", "lint")


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def workdir():
    directory = temporary_directory()
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def pages(workdir):
    return make_pages(workdir)


@pytest.fixture
def opened(browser):
    pages_open = []

    def _open(path, **kw):
        page, events = open_page(browser, path, **kw)
        pages_open.append(page)
        return page, events

    yield _open
    for page in pages_open:
        page.close()


def test_every_layout_is_drawn_and_kept_as_a_screenshot(pages, opened):
    page, events = opened(pages["sample-ios"])
    entries = facts(page)
    assert {entry["kind"] for entry in entries} == LAYOUTS
    for kind in sorted(LAYOUTS):
        assert screenshot(page, f"section.ik-entry[data-kind={kind}]", kind).stat().st_size > 1000
    for entry in entries:
        if entry["requested"] != entry["kind"]:
            screenshot(page, f"section.ik-entry[data-id='{entry['id']}']", f"degraded-{entry['id']}")
    seed, _ = opened(pages["seed-ios"])
    assert {entry["kind"] for entry in facts(seed)} == {"carousel", "video", "wallet", "captioned"}
    assert events.errors == [] and events.dialogs == []


@pytest.mark.parametrize("name", CARD_PAGES)
def test_nothing_overflows_the_phone_width(pages, opened, name):
    page, events = opened(pages[name])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    widest = page.evaluate("""() => Math.max(...[...document.querySelectorAll('main *')]
        .filter(e => !e.closest('.ik-strip')).map(e => e.getBoundingClientRect().right))""")
    assert widest <= PHONE["width"] + 0.5
    assert events.dialogs == [] and events.errors == []


@pytest.mark.parametrize("name", ("sample-ios", "seed-ios", "sample-dark"))
def test_banner_and_captioned_geometry(pages, opened, name):
    page, _ = opened(pages[name])
    for entry in facts(page):
        if entry["kind"] == "banner":
            (image,) = entry["images"]
            assert abs(image["x"] - entry["card"]["x"]) < 1 and abs(image["w"] - entry["card"]["w"]) < 1
            assert image["h"] > 100 and entry["text"] == "", entry
        if entry["kind"] == "captioned":
            image = entry["images"][0]
            assert image["y"] + image["h"] <= entry["title"]["y"], entry
            assert abs(image["w"] - entry["card"]["w"]) < 1


@pytest.mark.parametrize("name", CARD_PAGES)
def test_at_most_three_buttons_all_inside_their_card(pages, opened, name):
    page, _ = opened(pages[name])
    for entry in facts(page):
        assert len(entry["buttons"]) <= 3, entry
        if entry["buttons"]:
            assert entry["kind"] in ("captioned", "classic")
        card = entry["card"]
        for button in entry["buttons"]:
            assert card["x"] <= button["x"] and button["x"] + button["w"] <= card["x"] + card["w"] + 0.5
            assert card["y"] <= button["y"] and button["y"] + button["h"] <= card["y"] + card["h"] + 0.5


def visible_slide(page, strip):
    return page.evaluate("""strip => {
        const view = strip.getBoundingClientRect();
        const inView = [...strip.querySelectorAll('.ik-slide')].filter(s => {
            const r = s.getBoundingClientRect(); return r.right > view.left + 1 && r.left < view.right - 1; });
        return inView.map(s => ({width: s.getBoundingClientRect().width, viewWidth: view.width,
            left: s.getBoundingClientRect().left - view.left,
            position: s.querySelector('.ik-position').textContent,
            label: s.querySelector('.ik-slide-tap').getAttribute('aria-label')}));
    }""", strip)


@pytest.mark.parametrize("name", ("sample-ios", "seed-ios"))
def test_carousel_shows_one_slide_scrolls_sideways_and_its_indicator_follows(pages, opened, name):
    page, _ = opened(pages[name])
    strip = page.locator("section[data-kind=carousel] .ik-strip").first.element_handle()
    count = page.evaluate("s => s.querySelectorAll('.ik-slide').length", strip)
    assert 2 <= count <= 5
    (first,) = visible_slide(page, strip)
    assert first["position"] == f"1 of {count}" and abs(first["width"] - first["viewWidth"]) < 1
    strip.scroll_into_view_if_needed()
    box = strip.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(box["width"] * 0.6, 0)
    page.wait_for_function("s => s.scrollLeft > 0 && Math.abs(s.scrollLeft - s.clientWidth) < 2", arg=strip,
                           timeout=5000)
    page.wait_for_timeout(300)
    (second,) = visible_slide(page, strip)
    assert second["position"] == f"2 of {count}" and abs(second["left"]) < 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_accessibility_tree_has_the_seed_names_and_identifiers(pages, opened):
    page, _ = opened(pages["sample-ios"])
    nodes = ax_nodes(page)
    named = lambda role, name: [n for n in nodes if n["role"] == role and n["name"] == name]  # noqa: E731
    (play,) = named("button", "Play video")
    assert play["testid"] == "inboxkit.video.play"
    (wallet,) = named("button", "Add to Apple Wallet")
    assert wallet["testid"] == "inboxkit.wallet.add"
    slides = [n["name"] for n in nodes if n["role"] == "button" and n["name"] in ("New in", "On sale", "Slide")]
    assert slides == ["New in", "On sale", "Slide"]
    texts = {n["name"] for n in nodes if n["role"] == "StaticText"}
    assert {"1 of 3", "2 of 3", "3 of 3"} <= texts
    for role, title in [("button", "Mark read"), ("button", "Dismiss"), ("link", "Docs"), ("link", "Claim"),
                        ("button", "Save"), ("link", "Open site")]:
        assert len(named(role, title)) == 1, (role, title)
    assert len(named("image", "Unread")) == 10 and len(named("image", "Pinned")) == 1
    # Each inline button says its action: as its description (the tooltip on hover) and in a caption.
    assert named("button", "Save")[0]["description"] == 'custom {"tag":"save_promo"}'
    assert named("link", "Docs")[0]["description"] == "openURL https://docs.pushwoosh.com/"
    assert named("button", "Mark read")[0]["description"] == "markRead"
    captions = page.eval_on_selector_all(".ik-cta-action", "nodes => nodes.map(n => n.textContent)")
    assert captions == ["mark read", "dismiss", "open URL", "open URL", "custom", "open URL"]
    page.get_by_role("button", name="Save").hover()
    assert page.get_by_role("button", name="Save").get_attribute("title") == 'custom {"tag":"save_promo"}'


def test_degraded_cards_show_what_they_became_and_the_resolvers_reason(pages, opened, workdir):
    cards = {card["id"]: card for card in feed_cards(sample_store(workdir))}
    page, _ = opened(pages["sample"])
    degraded = [entry for entry in facts(page) if entry["requested"] != entry["kind"]]
    assert {entry["id"] for entry in degraded} == {"loyalty-card", "broken-video", "captioned-no-image"}
    for entry in degraded:
        reason = cards[entry["id"]]["degraded"]["reason"]
        assert entry["kind"] == "classic"
        assert entry["degraded"] == f"degraded from {entry['requested']}: {reason}"
    unknown = next(entry for entry in facts(page) if entry["id"] == "unknown-kind")
    assert any(w.startswith("unknownDisplayType ") for w in unknown["warnings"])


def test_hostile_payloads_run_nothing_and_show_their_text(pages, opened):
    page, events = opened(pages["hostile"])
    entries = facts(page)
    titles = {entry["titleText"] for entry in entries}
    assert {"<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "<svg onload=alert(1)>"} <= titles
    assert any(entry["body"] == "\"><img src=x onerror=alert(1)>" for entry in entries)
    for button in page.locator(".ik-cta, .ik-slide-tap, .ik-poster").all():
        button.hover()
    injected = page.evaluate("""() => ({
        scripts: document.querySelectorAll('script, iframe, main svg[onload], [onerror], [onmouseover], [onfocus]').length,
        hrefs: [...document.querySelectorAll('[href]')].map(e => e.getAttribute('href')),
        sources: [...document.querySelectorAll('[src]')].map(e => e.getAttribute('src'))})""")
    assert injected["scripts"] == 0
    assert all(re.match(r"^(https?://|myapp://)", href) for href in injected["hrefs"]), injected["hrefs"]
    assert all(src.startswith("https://cdn.example.com/") for src in injected["sources"]), injected["sources"]
    assert events.dialogs == [] and events.errors == []
    screenshot(page, "main", "hostile")


def test_an_image_that_does_not_load_leaves_a_sized_placeholder_with_its_alt_text(pages, opened):
    page, _ = opened(pages["sample-ios"], images=False)
    images = page.evaluate("""() => [...document.querySelectorAll('article img')].map(i => ({
        loaded: i.naturalWidth, alt: i.alt, w: i.getBoundingClientRect().width, h: i.getBoundingClientRect().height,
        card: i.closest('article').getBoundingClientRect().width}))""")
    assert images
    for image in images:
        assert image["loaded"] == 0 and image["alt"] and image["h"] > 100 and abs(image["w"] - image["card"]) < 1
    screenshot(page, "section.ik-entry[data-kind=banner]", "banner-not-loaded")


def test_lint_html_shows_the_warnings_beside_each_card(pages, opened):
    page, _ = opened(pages["lint"])
    entries = page.evaluate("""() => [...document.querySelectorAll('section.ik-entry')].map(s => ({
        label: s.dataset.label, warnings: s.querySelectorAll('.ik-warnings li').length,
        refused: s.classList.contains('ik-refused')}))""")
    assert entries and all(entry["label"] for entry in entries)
    assert any(entry["warnings"] for entry in entries)


# As the product pages word them (the Russian page keeps "Play video" and "Slide" in English).
LABELS = {
    "en": ("Play video", "Slide", "1 of 2", "2 of 2"),
    "de-AT": ("Video abspielen", "Folie", "1 von 2", "2 von 2"),
    "es": ("Reproducir video", "Diapositiva", "1 de 2", "2 de 2"),
    "pt-BR": ("Reproduzir vídeo", "Slide", "1 de 2", "2 de 2"),
    "zh": ("播放视频", "幻灯片", "第 1 页，共 2 页", "第 2 页，共 2 页"),
    "ru": ("Play video", "Slide", "1 из 2", "2 из 2"),
    "fr": ("Play video", "Slide", "1 of 2", "2 of 2"),
}


@pytest.mark.parametrize("locale", sorted(LABELS))
def test_labels_in_the_locales_language(browser, workdir, locale):
    """The poster, a caption-less slide and the indicator in the language of --locale, as the
    product pages word them, read from Chromium's accessibility tree."""
    page_path = workdir / f"labels-{locale}.html"
    cli("preview", "--locale", locale, "--now", str(CLOCK), str(DATA / "preview" / "labels.json"),
        "-o", str(page_path))
    page, events = open_page(browser, page_path)
    try:
        nodes = ax_nodes(page)
        play, slide, first, second = LABELS[locale]
        (poster,) = [n for n in nodes if n["role"] == "button" and n["testid"] == "inboxkit.video.play"]
        assert poster["name"] == play
        slides = [n["name"] for n in nodes if n["role"] in ("button", "link") and n["name"] in ("New in", slide)]
        assert slides == ["New in", slide]
        texts = {n["name"] for n in nodes if n["role"] == "StaticText"}
        assert {first, second} <= texts
        # The title follows the locale too where the payload gives it by language.
        titles = page.eval_on_selector_all(".ik-title", "els => els.map(e => e.textContent)")
        assert titles[0] == ("Die Enthüllung ansehen" if locale == "de-AT" else "Watch the reveal")
        assert events.errors == [] and events.dialogs == []
    finally:
        page.close()


# Every word the page draws, as each product page words it (the Russian page keeps the English
# for the poster, the slide and the Wallet button); "Unread" no page gives, so it stays English.
PAGE_WORDS = {
    "de": {"wallet": "Zu Apple Wallet hinzufügen", "play": "Video abspielen", "slides": "Folien",
           "delete": "Löschen", "refresh": "Aktualisieren", "hero": "Hero-Image"},
    "es": {"wallet": "Añadir a Apple Wallet", "play": "Reproducir video", "slides": "Diapositivas",
           "delete": "Eliminar", "refresh": "Actualizar", "hero": "Imagen principal"},
    "pt": {"wallet": "Adicionar à Carteira da Apple", "play": "Reproduzir vídeo", "slides": "Slides",
           "delete": "Excluir", "refresh": "Atualizar", "hero": "Imagem de herói"},
    "zh": {"wallet": "添加到 Apple Wallet", "play": "播放视频", "slides": "幻灯片",
           "delete": "删除", "refresh": "刷新", "hero": "主图"},
    "ru": {"wallet": "Add to Apple Wallet", "play": "Play video", "slides": "Слайды",
           "delete": "Delete", "refresh": "Refresh", "hero": "Изображение-герой"},
}


@pytest.mark.parametrize("locale", sorted(PAGE_WORDS))
def test_every_drawn_word_is_the_pages_own(browser, workdir, locale):
    """The Wallet button, the poster, the strip, the hero image, the delete action and the refresh
    control in the page's language, read from Chromium's accessibility tree, each card kept as a
    screenshot; with both gestures off, no delete action and no refresh control."""
    page_path = workdir / f"words-{locale}.html"
    cli("preview", "--platform", "ios", "--locale", locale, "--now", str(CLOCK),
        str(DATA / "preview" / "page-words.json"), "-o", str(page_path))
    words = PAGE_WORDS[locale]
    page, events = open_page(browser, page_path)
    try:
        nodes = ax_nodes(page)
        names = {(n["role"], n["name"]) for n in nodes}
        (wallet,) = [n for n in nodes if n["role"] == "button" and n["testid"] == "inboxkit.wallet.add"]
        assert wallet["name"] == words["wallet"]
        (poster,) = [n for n in nodes if n["role"] == "button" and n["testid"] == "inboxkit.video.play"]
        assert poster["name"] == words["play"]
        assert ("group", words["slides"]) in names and ("image", words["hero"]) in names
        assert ("button", words["refresh"]) in names
        assert sum(1 for n in nodes if n["role"] == "button" and n["name"] == words["delete"]) == 3
        assert ("image", "Unread") in names
        assert page.get_attribute("html", "lang") == locale
        for kind in ("video", "carousel", "wallet"):
            assert screenshot(page, f"section.ik-entry[data-kind={kind}]", f"words-{locale}-{kind}").stat().st_size > 1000
        assert events.errors == [] and events.dialogs == []
    finally:
        page.close()
    off_path = workdir / f"words-{locale}-off.html"
    cli("preview", "--platform", "ios", "--locale", locale, "--no-swipe-to-delete", "--no-pull-to-refresh",
        "--now", str(CLOCK), str(DATA / "preview" / "page-words.json"), "-o", str(off_path))
    page, _ = open_page(browser, off_path)
    try:
        names = {(n["role"], n["name"]) for n in ax_nodes(page)}
        assert ("button", words["delete"]) not in names and ("button", words["refresh"]) not in names
        assert page.locator(".ik-delete").count() == 0 and page.locator(".ik-refresh-control").count() == 0
    finally:
        page.close()
