#!/usr/bin/env python3
"""Records the OpenRPC example pairings from a real run of the server.

Runs inbox-rpc on a fresh store seeded with the sample feed, with the clock pinned, through one
scenario that calls every method, and writes each call and its real result to
examples/<method>.json ("x-step" keeps the scenario order). Then run build.py. The end-to-end
suite replays the same steps against the same set-up and compares every result (examples as
tests), so the examples stay true.

Usage: record_examples.py [path/to/inbox-rpc]
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Tests", "EndToEnd"))
import fake_backend  # noqa: E402  (the loopback backend the sync examples talk to)
import pass_server  # noqa: E402  (the https server the sample feed's wallet pass comes from)
import tls_support  # noqa: E402  (a throwaway CA for it)
from connect_proxy import ConnectProxy  # noqa: E402  (which routes passes.example.com to it)

CLOCK = 1_790_000_000
# Stands for a cursor a server made, in a recorded result and in the params that send one back.
CURSOR = "<cursor>"

# (method, example name, params): run in this order against one server.
SCENARIO = [
    ("initialize", "an iOS host", {"client": {"name": "example-host", "version": "1.0"}, "platform": "ios"}),
    ("rpc.ping", "ping", {}),
    ("config.get", "the attributes in force", {}),
    ("feed.counts", "the sample feed", {}),
    ("feed.changes", "take a cursor before listing", {}),
    ("feed.list", "first page of the sample feed", {"limit": 3}),
    ("feed.list", "only wallet and video cards", {"kinds": ["wallet", "video"]}),
    ("feed.list", "a tab: cards whose custom data has displayType carousel", {"limit": 3, "customData": {"displayType": "carousel"}}),
    ("feed.counts", "a tab's badge", {"customData": {"displayType": "captioned"}}),
    ("message.get", "a captioned card", {"id": "summer-sale"}),
    ("message.tap", "tap a message with a deep link", {"id": "plain-note"}),
    ("button.tap", "a custom button", {"id": "summer-sale", "button": 1}),
    ("button.tap", "a markRead button", {"id": "welcome", "button": 0}),
    ("slide.tap", "a slide with its own url", {"id": "new-arrivals", "slide": 0}),
    ("slide.tap", "a slide without a url: the row tap", {"id": "new-arrivals", "slide": 2}),
    ("feed.seen", "a scroll stop: two rows left the screen", {"appeared": ["summer-sale"], "disappeared": ["captioned-no-image", "unknown-kind"]}),
    ("video.play", "play the reveal", {"id": "the-reveal"}),
    ("wallet.download", "add the loyalty card's pass", {"id": "loyalty-card"}),
    ("wallet.report", "the pass is in the Wallet", {"id": "loyalty-card", "outcome": "added"}),
    ("message.dismiss", "dismiss the banner", {"id": "hero-banner"}),
    ("message.dismiss", "a row swiped away (swipeToDelete on)", {"id": "unknown-kind", "swipe": True}),
    ("message.markRead", "one known, one unknown id", {"ids": ["the-reveal", "no-such-message"]}),
    ("feed.changes", "what changed since that cursor: the first five", {"since": CURSOR, "limit": 5}),
    ("feed.markAllSeen", "the inbox opened: clear the badge", {}),
    ("feed.markAllRead", "mark one tab read", {"customData": {"campaign": "q4"}}),
    ("feed.markAllRead", "mark the rest read", {}),
    ("feed.dismissRead", "clear the read captioned cards", {"customData": {"displayType": "captioned"}}),
    ("feed.dismissAll", "clear a campaign's tab", {"customData": {"campaign": "q4"}}),
    ("message.ingest", "a push payload", {"payload": {"pw_inbox": "push-1", "aps": {"alert": {"title": "Flash sale", "body": "Two hours only"}}, "inbox_params": {"rt": str(CLOCK + 7200), "image": "https://cdn.example.com/inbox/flash.png"}, "u": "{\"displayType\": \"captioned\"}", "p": "HASH1"}}),
    ("feed.sync", "pull from the backend", {"force": True}),
    ("feed.sync", "a pull to refresh (pullToRefresh on) right after: throttled", {"pull": True}),
    ("message.resolve", "the seed's video example", {"id": "preview-video", "now": CLOCK, "payload": {"send_date": "now", "ios_title": "Watch the reveal", "content": "Tap to play", "inbox_days": 7, "data": {"displayType": "video", "video": {"url": "https://cdn.example.com/inbox/clip.mp4", "poster": "https://cdn.example.com/inbox/poster.jpg"}}}}),
    ("message.render", "a stored carousel card", {"id": "new-arrivals"}),
    ("config.set", "force classic cards", {"attributes": {"forceCellKind": "classic"}}),
    ("config.set", "no swipe to delete, no pull to refresh", {"attributes": {"swipeToDelete": False, "pullToRefresh": False}}),
    ("feed.list", "the page says which gestures the server honours", {"limit": 1}),
    ("message.explain", "a captioned card asked for while the attributes force classic", {"payload": {"title": "Flash sale", "content": "40% off shoes until midnight", "inbox_days": 7, "link": "https://example.com/sale", "data": {"displayType": "captioned", "buttons": [{"title": "Shop now", "url": "https://example.com/shoes"}]}}}),
    ("rpc.discover", "the document (abridged here: methods and components cut)", {}),
    ("shutdown", "shut down", {}),
]


def server_command(binary: str, store: str, setup) -> list[str]:
    return [binary, "--store", store, "--sample-feed", "--test-clock", str(CLOCK), "--framing", "ndjson",
            "--application", fake_backend.APP, "--user-id", fake_backend.USER, "--hwid", "example-hwid",
            "--backend-url", setup.url, "--backend-ca-file", setup.ca_file, "--pass-dir", setup.pass_dir]


def server_environment(setup) -> dict[str, str]:
    """The token, and the proxy that takes the sample feed's pass host to the local pass server."""
    return {"INBOX_RPC_API_TOKEN": fake_backend.TOKEN, "https_proxy": setup.proxy_url}


PASS_PATH = "/v1/passes/pass.com.example.loyalty/abc123"
#: The sample feed's pass URL (loyalty-card).
PASS_URL = "https://passes.example.com" + PASS_PATH


@contextlib.contextmanager
def example_backend():
    """What the examples talk to, the same every run: the loopback backend with two messages, and
    the sample feed's pass host (passes.example.com, reached through a CONNECT proxy that routes it
    to a local https server with a certificate from a throwaway CA)."""
    backend = fake_backend.FakeBackend()
    backend.now = CLOCK
    backend.add_message("welcome-back", title="Welcome back", text="Your inbox, synced", send_date=CLOCK - 300,
                        rt=CLOCK + 86400 * 30)
    backend.add_message("weekly-digest", title="Weekly digest", text="Five things you missed", send_date=CLOCK - 60,
                        rt=CLOCK + 86400 * 30, params={"l": "https://example.com/digest"})
    directory = tempfile.mkdtemp(prefix="inbox-example-")
    tls_support.make_ca(directory)
    tls_support._issue(directory, "passes", "DNS:passes.example.com")
    passes = pass_server.PassServer(tls_support.server_context(directory, "passes"),
                                    {PASS_PATH: pass_server.Reply(body=pass_server.make_pass())})
    proxy = ConnectProxy(routes={"passes.example.com:443": passes.port})
    try:
        yield SimpleNamespace(url=backend.url, backend=backend, ca_file=os.path.join(directory, "ca.pem"),
                              pass_dir=os.path.join(directory, "passes"), proxy_url=proxy.url)
    finally:
        proxy.close()
        passes.close()
        backend.close()
        shutil.rmtree(directory, ignore_errors=True)


LOOPBACK_PORT = re.compile(r"http://127\.0\.0\.1:\d+/")
PASS_DIRECTORY = re.compile(r"^/\S*/inbox-example-[^/]+/passes/")


def normalise(value):
    """What differs run to run: cursors (the store's random id), the loopback backend's port and the
    directory passes are kept in."""
    if isinstance(value, dict):
        return {k: (CURSOR if k in ("nextCursor", "cursor") and isinstance(v, str) else normalise(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if isinstance(value, str):
        return PASS_DIRECTORY.sub("<passes>/", LOOPBACK_PORT.sub("http://127.0.0.1:<port>/", value))
    return value


def with_cursor(params: dict, results: list) -> dict:
    """`params` with CURSOR replaced by the first changes cursor a step before answered."""
    cursor = next((r["cursor"] for r in results if isinstance(r, dict) and isinstance(r.get("cursor"), str)), None)
    return {k: (cursor if v == CURSOR else v) for k, v in params.items()}


def run(binary: str) -> list[tuple[str, str, dict, object]]:
    """Runs the scenario; returns (method, name, params, result) per step."""
    with tempfile.TemporaryDirectory() as directory, example_backend() as setup:
        process = subprocess.Popen(
            server_command(binary, os.path.join(directory, "inbox.sqlite"), setup),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, **server_environment(setup)})
        steps = []
        for index, (method, name, params) in enumerate(SCENARIO):
            sent = with_cursor(params, [step[3] for step in steps])
            process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": index, "method": method, "params": sent}) + "\n")
            process.stdin.flush()
            while True:
                message = json.loads(process.stdout.readline())
                if message.get("id") == index:
                    break
            if "error" in message:
                raise SystemExit(f"{method} ({name}) failed: {message['error']}")
            steps.append((method, name, params, message["result"]))
        process.stdin.close()
        process.wait(5)
        return steps


def abridge(method: str, result):
    """rpc.discover's real result contains these examples: keep its head only."""
    if method == "rpc.discover":
        return {"openrpc": result["openrpc"], "info": result["info"], "methods": result["methods"][:1] and [{"name": result["methods"][0]["name"], "params": []}]}
    return result


def main() -> None:
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", ".build", "debug", "inbox-rpc")
    examples: dict[str, list] = {}
    for step, (method, name, params, result) in enumerate(run(binary)):
        examples.setdefault(method, []).append(
            {"name": name, "x-step": step, "params": params, "result": normalise(abridge(method, result))})
    for method, items in examples.items():
        with open(os.path.join(HERE, "examples", method + ".json"), "w", encoding="utf-8") as f:
            json.dump(items, f, indent=2, ensure_ascii=False)
            f.write("\n")
    print(f"recorded {sum(len(v) for v in examples.values())} examples for {len(examples)} methods")


if __name__ == "__main__":
    main()
