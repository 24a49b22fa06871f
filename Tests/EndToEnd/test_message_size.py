"""One message cannot sink a feed: the per-message size limit on every way in (sync, ingest, push),
pages that never fail because of one card (a stored message from before the limit, cards that
together outgrow a reply), and MCP's `inbox://feed` reading the same pages."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time

from backend_double import either_backend  # noqa: F401  (the backend fixture: fake and double)
from sync_support import (  # noqa: F401  (fixtures)
    BIN,
    T0,
    SyncServer,
    push_payload,
    servers,
    start_server as start,
    store_path,
)

BIG = 17 * 1024 * 1024


def poison(backend, big_first: bool = True) -> None:
    """28 ordinary messages and one with a 17 MB text, which sorts first (the newest)."""
    for index in range(28):
        backend.add_message(f"m{index:02d}", send_date=T0 - 1000 + index)
    backend.add_message("huge", send_date=T0 - 10 if big_first else T0 - 5000, text="x" * BIG)


def codes(server, code: str) -> list[dict]:
    return [n["params"]["data"] for n in server.notifications_of("log") if n["params"]["data"]["code"] == code]


def every_page(server, limit: int) -> list[str]:
    ids, cursor = [], None
    while True:
        params = {"limit": limit} | ({"cursor": cursor} if cursor else {})
        page = server.call("feed.list", params, timeout=30)
        ids += [card["id"] for card in page["items"]]
        cursor = page["nextCursor"]
        if cursor is None:
            return ids


def test_a_poisoned_reply_loses_only_the_big_message(servers, store_path, backend):
    poison(backend)
    server = start(servers, store_path, backend)
    result = server.sync(timeout=60)
    assert result["added"] == 28, result
    [skipped] = codes(server, "messageSkipped")
    assert skipped["messageId"] == "huge" and "--max-message-bytes" in skipped["reason"], skipped
    deadline = time.monotonic() + 10  # the log line is written by the server's logger thread
    while "huge" not in server.stderr_text():
        assert time.monotonic() < deadline, server.stderr_text()
        time.sleep(0.05)
    assert every_page(server, 1) == [f"m{index:02d}" for index in reversed(range(28))]
    assert server.call("feed.counts")["total"] == 28


def test_a_stored_message_from_before_the_limit_is_left_out_of_pages(servers, store_path, backend):
    poison(backend)
    first = start(servers, store_path, backend, "--max-message-bytes", str(BIG + 4096))
    assert first.sync(timeout=60)["added"] == 29
    first.close()
    server = start(servers, store_path, backend)
    page = server.call("feed.list", {"limit": 1}, timeout=30)
    assert [card["id"] for card in page["items"]] == ["m27"], page["items"]
    [omitted] = codes(server, "messageOmitted")
    assert omitted["messageId"] == "huge" and "stays in the store" in omitted["reason"], omitted
    assert every_page(server, 5) == [f"m{index:02d}" for index in reversed(range(28))]
    assert every_page(server, 200) == [f"m{index:02d}" for index in reversed(range(28))]
    server.close()
    # The MCP face reads the same page.
    feed = mcp_read(store_path, "inbox://feed")
    assert [card["id"] for card in feed["items"]][:20] == [f"m{index:02d}" for index in reversed(range(8, 28))]


def test_cards_that_together_outgrow_a_reply_end_the_page_early(servers, store_path, backend):
    for index in range(24):
        backend.add_message(f"m{index:02d}", send_date=T0 - 1000 + index, text=f"{index}" + "y" * 100_000)
    server = start(servers, store_path, backend, "--max-reply-bytes", str(1024 * 1024))
    assert server.sync(timeout=60)["added"] == 24
    first = server.call("feed.list", {"limit": 200})
    assert 1 < len(first["items"]) < 24 and first["nextCursor"], len(first["items"])
    assert every_page(server, 200) == [f"m{index:02d}" for index in reversed(range(24))]
    assert codes(server, "messageOmitted") == []


def test_a_card_larger_than_a_page_is_left_out(servers, store_path, backend):
    backend.add_message("small", send_date=T0 - 100)
    backend.add_message("wide", send_date=T0 - 50, text="z" * 300_000)
    server = start(servers, store_path, backend, "--max-reply-bytes", "200000", "--max-message-bytes", "400000")
    assert server.sync(timeout=60)["added"] == 2
    assert every_page(server, 20) == ["small"]
    [omitted] = codes(server, "messageOmitted")
    assert omitted["messageId"] == "wide" and "more than a page may hold" in omitted["reason"], omitted


def test_ingest_refuses_a_message_past_the_limit(servers, store_path, backend):
    server = start(servers, store_path, backend)
    backend_message = {"inbox_id": "too-big", "order": "1", "rt": str(T0 + 10**6), "text": "w" * 300_000}
    error = server.error_of("message.ingest", {"payload": backend_message})
    assert error["code"] == -32010 and error["data"]["code"] == "messageTooLarge", error
    assert "262144" in error["data"]["reason"], error
    push = push_payload("push-big")
    push["title"] = "p" * 300_000
    assert server.error_of("message.ingest", {"payload": push})["data"]["code"] == "messageTooLarge"
    assert server.call("feed.counts")["total"] == 0
    server.close()
    roomy = start(servers, store_path, backend, "--max-message-bytes", "400000")
    assert roomy.call("message.ingest", {"payload": backend_message})["outcome"] == "added"


def test_the_flag_is_documented_and_checked():
    help_text = subprocess.run([BIN, "--help"], capture_output=True, text=True, check=True).stdout
    assert "--max-message-bytes N" in help_text and "262144" in help_text
    assert "--max-sync-reply-bytes N" in help_text and "33554432" in help_text
    bad = subprocess.run([BIN, "--max-message-bytes", "0"], capture_output=True, text=True, input="")
    assert bad.returncode == 2 and "--max-message-bytes" in bad.stderr


def mcp_read(store: str, uri: str) -> dict:
    """`resources/read {uri}` from `inbox-rpc mcp` on `store`, parsed from the text it returns."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": uri}},
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith("INBOX_RPC_")}
    proc = subprocess.Popen([BIN, "mcp", "--store", store], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    threading.Thread(target=proc.stderr.read, daemon=True).start()
    out, _ = proc.communicate("".join(json.dumps(line) + "\n" for line in lines).encode(), timeout=60)
    replies = {reply.get("id"): reply for reply in map(json.loads, out.splitlines()) if "id" in reply}
    assert "result" in replies[2], replies[2]
    return json.loads(replies[2]["result"]["contents"][0]["text"])
