"""Headless Chromium (Debian's `chromium`, driven by Playwright through `executable_path`) for the
preview tests: pages made by the real binary, opened at phone size, facts read from the live page.

Remote images are answered by the test with a generated picture (nothing leaves the machine), or
refused, to see the placeholders. Every dialog, console error and page error is recorded.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page

from conftest import BIN

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
ARTIFACTS = REPO / "test-artifacts" / "preview"
PHONE = {"width": 390, "height": 844}
CLOCK = 1_790_000_000
PICTURE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><defs><linearGradient id="g">'
    '<stop offset="0" stop-color="#ff7e5f"/><stop offset="1" stop-color="#6a82fb"/></linearGradient></defs>'
    '<rect width="800" height="400" fill="url(#g)"/><circle cx="640" cy="110" r="60" fill="#ffd86b"/></svg>'
)


def chromium_path() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    assert os.path.exists(path), f"no Chromium at {path}: script/bootstrap installs Debian's chromium"
    return path


def cli(*args: str, ok=(0,)) -> subprocess.CompletedProcess:
    run = subprocess.run([BIN, *args], capture_output=True, timeout=60)
    assert run.returncode in ok, f"inbox-rpc {' '.join(args)} -> {run.returncode}: {run.stderr.decode()[-800:]}"
    return run


def sample_store(directory: Path) -> Path:
    """A store holding the sample feed, sent at the pinned clock."""
    store = directory / "sample.sqlite"
    ping = b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping"}\n'
    subprocess.run([BIN, "--store", str(store), "--sample-feed", "--test-clock", str(CLOCK)], input=ping,
                   capture_output=True, timeout=60, check=True)
    return store


def feed_cards(store: Path) -> list[dict]:
    """The store's feed as the server lists it (the resolver's cards, its reasons)."""
    request = b'{"jsonrpc":"2.0","id":1,"method":"feed.list","params":{"limit":200}}\n'
    run = subprocess.run([BIN, "--store", str(store), "--test-clock", str(CLOCK)], input=request,
                         capture_output=True, timeout=60, check=True)
    replies = [json.loads(line) for line in run.stdout.splitlines()]
    return next(reply["result"]["items"] for reply in replies if reply.get("id") == 1)


def make_pages(directory: Path) -> dict[str, Path]:
    """Every page the tests look at, made by the real binary."""
    store = sample_store(directory)
    pages = {name: directory / f"{name}.html" for name in
             ("sample-ios", "sample", "sample-dark", "seed-ios", "hostile", "lint")}
    cli("preview", "--store", str(store), "--platform", "ios", "--now", str(CLOCK), "-o", str(pages["sample-ios"]))
    cli("preview", "--store", str(store), "--now", str(CLOCK), "-o", str(pages["sample"]))
    cli("preview", "--store", str(store), "--platform", "ios", "--theme", "dark", "--now", str(CLOCK),
        "-o", str(pages["sample-dark"]))
    cli("preview", "--platform", "ios", "--now", str(CLOCK), str(DATA / "preview" / "seed-examples.json"),
        "-o", str(pages["seed-ios"]))
    cli("preview", "--now", str(CLOCK), str(DATA / "preview" / "hostile.json"), "-o", str(pages["hostile"]))
    cli("lint", "--html", str(pages["lint"]), "--now", str(CLOCK), str(DATA / "lint" / "seed-carousel.json"),
        str(DATA / "lint" / "mixed-request.json"), ok=(1,))
    return pages


class Events:
    def __init__(self) -> None:
        self.dialogs: list[str] = []
        self.errors: list[str] = []


def open_page(browser: Browser, path: Path, *, images: bool = True) -> tuple[Page, Events]:
    page = browser.new_page(viewport=PHONE)
    events = Events()
    page.on("dialog", lambda dialog: (events.dialogs.append(dialog.message), dialog.dismiss()))
    page.on("console", lambda message: message.type == "error" and events.errors.append(message.text))
    page.on("pageerror", lambda error: events.errors.append(str(error)))

    def route(route):
        url = route.request.url
        if url.startswith("file://"):
            route.continue_()
        elif images and url.startswith(("http://", "https://")):
            route.fulfill(status=200, content_type="image/svg+xml", body=PICTURE)
        else:
            route.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return page, events


# Geometry and text of every entry, read from the live page.
FACTS_JS = """() => [...document.querySelectorAll('section.ik-entry')].map(section => {
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const card = section.querySelector('article.ik-card');
  const title = card && card.querySelector('.ik-title');
  return {
    id: section.dataset.id, kind: section.dataset.kind, requested: section.dataset.requestedKind,
    card: card && box(card), text: card ? card.innerText.trim() : null,
    images: card ? [...card.querySelectorAll(':scope > img, :scope > .ik-media')].map(box) : [],
    title: title && box(title), titleText: title && title.textContent,
    body: card && card.querySelector('.ik-body') ? card.querySelector('.ik-body').textContent : null,
    buttons: card ? [...card.querySelectorAll('.ik-cta')].map(b => ({...box(b), name: b.textContent})) : [],
    degraded: section.querySelector('.ik-degraded') ? section.querySelector('.ik-degraded').textContent : null,
    warnings: [...section.querySelectorAll('.ik-warnings li')].map(li => li.textContent),
  };
})"""


def facts(page: Page) -> list[dict]:
    return page.evaluate(FACTS_JS)


def ax_nodes(page: Page) -> list[dict]:
    """Chromium's own accessibility tree (CDP), each node with role, name and its element's data-testid."""
    cdp = page.context.new_cdp_session(page)
    out = []
    for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
        if node.get("ignored"):
            continue
        entry = {"role": node.get("role", {}).get("value"), "name": node.get("name", {}).get("value"),
                 "description": node.get("description", {}).get("value"), "testid": None}
        if entry["role"] in ("button", "link") and "backendDOMNodeId" in node:
            remote = cdp.send("DOM.resolveNode", {"backendNodeId": node["backendDOMNodeId"]})["object"]
            entry["testid"] = cdp.send("Runtime.callFunctionOn", {
                "objectId": remote["objectId"], "returnByValue": True,
                "functionDeclaration": "function() { return this.getAttribute('data-testid'); }"})["result"].get("value")
        out.append(entry)
    cdp.detach()
    return out


def screenshot(page: Page, selector: str, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.locator(selector).first.screenshot(path=str(path))
    return path


def temporary_directory() -> Path:
    return Path(tempfile.mkdtemp(prefix="inbox-preview-"))
