"""The preview page's accessibility labels in the six languages of the product pages, read from
headless Chromium's own accessibility tree: the video poster's button, a slide without a caption,
and the page indicator, as `--locale` asks (English for any other language)."""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import sync_playwright

from preview_browser import CLOCK, DATA, ax_nodes, chromium_path, cli, open_page, temporary_directory

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


@pytest.mark.parametrize("locale", sorted(LABELS))
def test_labels_in_the_locales_language(browser, workdir, locale):
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
