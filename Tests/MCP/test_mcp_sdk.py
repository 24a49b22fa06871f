"""`inbox-rpc mcp` driven by the official MCP Python SDK: both handshakes, every tool, every
resource, change notifications, progress and cancellation, tool errors, and a clean end of session.
Run once per SDK (script/test: .venv-mcp2 with 2.x, .venv-mcp1 with the last 1.x; the 1.9.x of
.venv-mcp19 and the 1.5.x of .venv-mcp15 have test_mcp_sdk_pinned.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess

import anyio
import pytest

import harness
from harness import BIN, MAJOR, REPO, SDK, ProtocolError, attr, code_of, method_of

if SDK.startswith(("1.9.", "1.5.")):
    pytest.skip("1.9.x and 1.5.x speak one older revision each: test_mcp_sdk_pinned.py drives them",
                allow_module_level=True)

# 2.x speaks both eras (auto probes server/discover; legacy sends initialize at its newest handshake
# revision, legacy-2025-06-18 at that one, as a host pinned to it does); 1.x only initialize.
MODES = ["auto", "legacy", "legacy-2025-06-18"] if MAJOR >= 2 else ["legacy", "legacy-2025-06-18"]
MODERN = "2026-07-28"
CHANGES = "inbox://changes{?since,limit}"

TOOLS = {
    "list_feed", "get_message", "inbox_counts", "tap_message", "tap_button", "tap_slide", "mark_read",
    "mark_all_read", "dismiss_message", "ingest_payload", "resolve_payload", "lint_payload", "sync_inbox",
    "clear_read", "report_seen", "play_video", "add_wallet_pass", "report_wallet_pass", "list_changes",
    "explain_card", "mark_all_seen",
}
READ_ONLY = {"list_feed", "get_message", "inbox_counts", "resolve_payload", "lint_payload", "list_changes",
             "explain_card"}
DESTRUCTIVE = {"tap_button", "dismiss_message", "sync_inbox", "clear_read"}
# Tools that reach hosts outside the inbox: the backend, a pass's host.
OPEN_WORLD = {"sync_inbox", "add_wallet_pass"}

with open(os.path.join(REPO, "clients", "examples", "flash-sale-push.json"), encoding="utf-8") as _file:
    PUSH = json.load(_file)


def sc(result):
    return attr(result, "structured_content")


def failed(result) -> bool:
    return attr(result, "is_error")


def run(main):
    anyio.run(main)


def expected_version(mode: str) -> str:
    return {"auto": MODERN, "legacy": "2025-11-25"}.get(mode, mode.removeprefix("legacy-"))


def session(store: str, *args: str, mode: str):
    """harness.session, with `mode` naming the revision asked for after "legacy-"."""
    if mode.startswith("legacy-"):
        return harness.session(store, *args, mode="legacy", revision=mode.removeprefix("legacy-"))
    return harness.session(store, *args, mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_handshake_names_the_server_and_its_revision(store, mode):
    async def main():
        async with session(store, "--sample-feed", mode=mode) as peer:
            assert peer.version == expected_version(mode)
            if peer.version != MODERN:  # the stateless revision has no ping
                await peer.client.send_ping()
            if MAJOR >= 2:
                assert peer.client.server_info.name == "inbox-rpc"
                assert "list_feed" in peer.client.instructions
                assert peer.client.server_capabilities.resources.subscribe is True

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_every_tool_is_listed_with_true_annotations_and_called(store, mode):
    async def main():
        async with session(store, "--sample-feed", mode=mode) as peer:
            tools = {tool.name: tool for tool in await peer.tools()}
            assert set(tools) == TOOLS
            for name, tool in tools.items():
                hints = tool.annotations
                assert attr(hints, "read_only_hint") is (name in READ_ONLY), name
                assert attr(hints, "destructive_hint") is (name in DESTRUCTIVE), name
                assert attr(hints, "open_world_hint") is (name in OPEN_WORLD), name
                assert attr(hints, "idempotent_hint") is (name != "sync_inbox"), name
                assert attr(tool, "input_schema")["type"] == "object" and attr(tool, "output_schema")["type"] == "object"

            page = sc(await peer.call("list_feed", {"limit": 3, "unreadOnly": True}))
            assert len(page["items"]) == 3 and page["nextCursor"] and page["counts"]["total"] == 10
            rest = sc(await peer.call("list_feed", {"cursor": page["nextCursor"], "kinds": ["classic"]}))
            assert rest["items"] and {card["kind"] for card in rest["items"]} == {"classic"}
            card = await peer.call("get_message", {"id": "welcome"})
            assert sc(card)["pinned"] is True and "title: Welcome to your inbox" in card.content[0].text
            counts = await peer.call("inbox_counts")
            assert counts.content[0].text == "total 10, unread 10, unactioned 10, pinned 1, unseen 10"
            tap = sc(await peer.call("tap_message", {"id": "plain-note"}))
            assert tap["message"]["read"] is True and tap["action"]["type"] == "deeplink"
            button = sc(await peer.call("tap_button", {"id": "welcome", "button": 1}))
            assert button == {"action": {"type": "dismiss"}, "performed": True, "message": None}
            slide = sc(await peer.call("tap_slide", {"id": "new-arrivals", "slide": 0}))
            assert slide["action"]["type"] in ("openURL", "deeplink") and slide["message"]["read"] is True
            played = sc(await peer.call("play_video", {"id": "the-reveal"}))
            assert played["video"]["url"].startswith("https://") and played["message"]["read"] is True
            assert sc(await peer.call("report_seen", {"disappeared": ["loyalty-card"]})) == {
                "seen": [], "read": ["loyalty-card"], "unknown": []}
            since = sc(await peer.call("list_changes"))["cursor"]
            assert sc(await peer.call("list_changes", {"since": since}))["changes"] == []
            assert sc(await peer.call("mark_read", {"ids": ["broken-video", "nope"]})) == {
                "changed": 1, "unchanged": ["nope"]}
            assert sc(await peer.call("dismiss_message", {"id": "hero-banner"})) == {"dismissed": True}
            assert sc(await peer.call("mark_all_read"))["changed"] == 3
            ingested = sc(await peer.call("ingest_payload", {"payload": PUSH}))
            assert ingested["outcome"] == "added" and ingested["message"]["id"] == "flash-sale-42"
            resolved = (await peer.call("resolve_payload", {"payload": PUSH, "attributes": {"platform": "ios"}}))
            assert sc(resolved)["kind"] == "captioned"
            lint = (await peer.call("lint_payload", {"payload": {"pw_inbox": "x", "u": {"displayType": "video"}}}))
            entry = sc(lint)["payloads"][0]
            assert entry["card"]["kind"] == "classic" and entry["warnings"], entry
            assert "warning [" in lint.content[0].text
            assert sc(await peer.call("inbox_counts")) == {
                "total": 9, "unread": 1, "unactioned": 8, "pinned": 0, "unseen": 1}
            # A tab: the cards whose custom data has displayType captioned; then clear the read ones.
            tab = {"customData": {"displayType": "captioned"}}
            listed = sc(await peer.call("list_feed", tab))
            assert [card["id"] for card in listed["items"]] == ["flash-sale-42", "summer-sale"]
            assert sc(await peer.call("inbox_counts", tab)) == {"total": 2, "unread": 1, "unactioned": 2, "pinned": 0, "unseen": 1}
            cleared = await peer.call("clear_read", tab)
            assert sc(cleared) == {"dismissed": 1} and cleared.content[0].text == "dismissed 1"
            assert [card["id"] for card in sc(await peer.call("list_feed", tab))["items"]] == ["flash-sale-42"]
            # The inbox opened: the badge cleared, nothing read.
            seen = await peer.call("mark_all_seen")
            assert sc(seen) == {"changed": 1} and seen.content[0].text == "marked seen: changed 1"
            assert sc(await peer.call("inbox_counts")) == {
                "total": 8, "unread": 1, "unactioned": 7, "pinned": 0, "unseen": 0}

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_every_resource_reads(store, mode):
    async def main():
        async with session(store, "--sample-feed", mode=mode) as peer:
            listed = (await peer.client.list_resources()).resources
            uris = [str(resource.uri) for resource in listed]
            assert uris[:3] == ["inbox://feed", "inbox://counts", "inbox://schemas/openrpc.json"]
            assert "inbox://message/welcome" in uris and len(uris) == 13
            templates = attr(await peer.client.list_resource_templates(), "resource_templates")
            assert [attr(t, "uri_template") for t in templates] == ["inbox://message/{id}", CHANGES]
            feed = await peer.read("inbox://feed")
            assert feed["items"][0]["id"] == "welcome" and feed["counts"]["total"] == 10
            assert await peer.read("inbox://counts") == {"total": 10, "unread": 10, "unactioned": 10, "pinned": 1, "unseen": 10}
            assert (await peer.read("inbox://message/summer-sale"))["kind"] == "captioned"
            contract = await peer.read("inbox://schemas/openrpc.json")
            assert contract["openrpc"].startswith("1.") and "LintReport" in contract["components"]["schemas"]
            with pytest.raises(ProtocolError) as missing:
                await peer.client.read_resource("inbox://message/nope")
            assert code_of(missing.value) == -32002

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_the_change_journal_reads_as_a_resource_template(store, mode):
    async def main():
        foreign = await harness.changes_cursor_of_another_store(store)
        async with session(store, "--sample-feed", mode=mode) as peer:
            start = await peer.read("inbox://changes")  # no since: the cursor of now, no changes
            assert start["changes"] == [] and start["more"] is False
            await peer.call("dismiss_message", {"id": "hero-banner"})
            await peer.call("mark_read", {"ids": ["welcome"]})
            since = f"inbox://changes?since={start['cursor']}"
            after = await peer.read(since)
            assert [(c["change"], c["id"], c.get("fields")) for c in after["changes"]] == [
                ("removed", "hero-banner", None), ("updated", "welcome", ["status"])]
            assert after == sc(await peer.call("list_changes", {"since": start["cursor"]}))  # the tool's JSON
            first = await peer.read(since + "&limit=1")
            assert first["changes"] == after["changes"][:1] and first["more"] is True
            rest = await peer.read(f"inbox://changes?limit=5&since={first['cursor']}")
            assert rest["changes"] == after["changes"][1:] and rest["cursor"] == after["cursor"]

            with pytest.raises(ProtocolError) as refused:
                await peer.client.read_resource(f"inbox://changes?since={foreign}")
            error = refused.value.error
            assert error.code == -32021 and "list the feed again" in error.message, error
            assert error.data == {"reason": "the cursor is another store's", "uri": f"inbox://changes?since={foreign}"}
            for uri, param in [(since + "&limit=0", "limit"), (since + "&limit=ten", "limit"),
                               ("inbox://changes?since=nonsense", "since"), (since + "&until=now", "until")]:
                with pytest.raises(ProtocolError) as refused:
                    await peer.client.read_resource(uri)
                assert code_of(refused.value) == -32602 and refused.value.error.data["param"] == param, uri
            for uri in ("inbox://changes/x", "inbox://changes?since"):
                with pytest.raises(ProtocolError) as refused:
                    await peer.client.read_resource(uri)
                assert code_of(refused.value) == -32002, uri

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_a_dismiss_is_announced_to_subscribers(store, mode):
    async def main():
        async with session(store, "--sample-feed", mode=mode) as peer:
            if peer.version == MODERN:
                async with peer.client.listen(
                    resources_list_changed=True, resource_subscriptions=["inbox://counts", "inbox://message/welcome"]
                ) as stream:
                    await peer.call("dismiss_message", {"id": "welcome"})
                    seen = set()
                    with anyio.fail_after(5):
                        async for event in stream:
                            seen.add(getattr(event, "uri", type(event).__name__))
                            if {"inbox://counts", "inbox://message/welcome", "ResourcesListChanged"} <= seen:
                                break
            else:
                await peer.client.subscribe_resource("inbox://counts")
                await peer.client.subscribe_resource("inbox://message/welcome")
                await peer.call("dismiss_message", {"id": "welcome"})
                updated = await peer.wait_for(lambda n: method_of(n) == "notifications/resources/updated")
                await peer.wait_for(lambda n: method_of(n) == "notifications/resources/list_changed")
                await peer.wait_for(lambda n: str(getattr(n.params, "uri", "")) == "inbox://message/welcome")
                assert all(str(n.params.uri) != "inbox://feed" for n in updated), "only subscribed URIs"
            assert (await peer.read("inbox://counts"))["total"] == 9

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_engine_warnings_arrive_as_log_messages(store, mode):
    async def main():
        async with session(store, mode=mode) as peer:
            await peer.call("ingest_payload", {"payload": {"pw_inbox": "v1", "u": {"displayType": "video"}}})
            with anyio.fail_after(5):
                while not peer.logs:
                    await anyio.sleep(0.02)
            assert peer.logs[0].level == "warning" and peer.logs[0].data["warning"]["messageId"] == "v1"

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_engine_errors_are_tool_results_and_bad_calls_are_protocol_errors(store, mode):
    async def main():
        async with session(store, "--sample-feed", mode=mode) as peer:
            missing = await peer.call("dismiss_message", {"id": "nope"})
            assert failed(missing) and "list_feed" in missing.content[0].text
            no_button = await peer.call("tap_button", {"id": "plain-note", "button": 2})
            assert failed(no_button) and "no button 2" in no_button.content[0].text
            unsynced = await peer.call("sync_inbox")
            assert failed(unsynced) and "--application" in unsynced.content[0].text
            with pytest.raises(ProtocolError) as refused:
                await peer.client.call_tool("no_such_tool", {})
            assert code_of(refused.value) == -32602
            # Schema-breaking arguments: a result the model can read from 2025-11-25 on, -32602 before.
            for name, arguments, param in [("dismiss_message", {"id": 7}, "id"), ("tap_button", {"id": "welcome"}, "button"),
                                           ("list_feed", {"limit": 0}, "limit"), ("inbox_counts", {"extra": True}, "extra")]:
                if peer.version in ("2025-11-25", MODERN):
                    result = await peer.client.call_tool(name, arguments)
                    text = result.content[0].text
                    assert failed(result) and f"Invalid params: {param}: " in text, (name, text)
                else:
                    with pytest.raises(ProtocolError) as refused:
                        await peer.client.call_tool(name, arguments)
                    assert code_of(refused.value) == -32602, (name, arguments)
                    assert refused.value.error.data["param"] == param
            assert sc(await peer.call("inbox_counts"))["total"] == 10

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_sync_reports_progress_and_merges(store, backend, backend_args, mode):
    backend.add_message("remote-1")
    backend.add_message("remote-2")

    async def main():
        progress = []

        async def on_progress(value, total, message):
            progress.append((value, message))

        async with session(store, *backend_args, mode=mode) as peer:
            report = await peer.call("sync_inbox", {"force": True}, progress_callback=on_progress)
            assert not failed(report), report.content
            assert sc(report)["added"] == 2 and "added 2" in report.content[0].text
            assert progress and [value for value, _ in progress] == sorted(value for value, _ in progress)
            assert any("fetch" in (message or "") for _, message in progress), progress
            assert sc(await peer.call("inbox_counts"))["total"] == 2

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_a_sync_is_cancelled_mid_transfer(store, backend, backend_args, mode):
    backend.add_message("remote-1")
    backend.fail("timeout", method="getInboxMessages", delay=20)

    async def main():
        async with session(store, *backend_args, "--backend-timeout", "60", "--log-level", "debug", mode=mode) as peer:
            await peer.tools()
            async with anyio.create_task_group() as group:
                group.start_soon(peer.client.call_tool, "sync_inbox", {"force": True})
                with anyio.fail_after(5):
                    while not backend.calls("getInboxMessages"):
                        await anyio.sleep(0.02)
                if MAJOR < 2:  # 1.x does not say so itself when a call is abandoned
                    await cancel_1x(peer.client)
                group.cancel_scope.cancel()  # 2.x sends notifications/cancelled for the abandoned call
            with anyio.fail_after(5):
                while not re.search(r"cancel \S+: cancelled", peer.stderr()):  # the server read the cancel
                    await anyio.sleep(0.02)
            assert sc(await peer.call("inbox_counts"))["total"] == 0
            report = await peer.call("sync_inbox", {"force": True})
            assert sc(report)["added"] == 1

    run(main)


async def cancel_1x(client):
    from mcp import types

    request_id = client._request_id - 1
    await client.send_notification(types.ClientNotification(types.CancelledNotification(
        params=types.CancelledNotificationParams(requestId=request_id, reason="test"))))


@pytest.mark.parametrize("mode", MODES)
def test_closing_the_session_ends_the_server_with_every_change_stored(store, mode):
    async def main():
        async with session(store, "--sample-feed", "--log-level", "info", mode=mode) as peer:
            await peer.call("dismiss_message", {"id": "welcome"})
            await peer.call("mark_read", {"ids": ["plain-note"]})
            await peer.call("ingest_payload", {"payload": PUSH})
        return peer

    peer = anyio.run(main)
    # The server's last line says it left by itself; one the SDK had to signal never writes it.
    assert "every reply written; exiting with status 0" in peer.stderr(), peer.stderr()[-800:]
    reply = subprocess.run(
        [BIN, "--store", store], input=b'{"jsonrpc":"2.0","id":1,"method":"feed.list","params":{"limit":50}}\n',
        capture_output=True, timeout=10)
    frames = [json.loads(line) for line in reply.stdout.splitlines()]
    page = next(frame["result"] for frame in frames if frame.get("id") == 1)
    ids = {card["id"]: card for card in page["items"]}
    assert "welcome" not in ids and ids["plain-note"]["read"] is True and "flash-sale-42" in ids


@pytest.mark.parametrize("mode", MODES)
def test_prompts_embed_the_inbox_state(store, mode):
    async def main():
        async with session(store, "--sample-feed", mode=mode) as peer:
            prompts = {p.name: p for p in (await peer.client.list_prompts()).prompts}
            assert set(prompts) == {"summarize_unread", "check_payload"}
            assert [a.name for a in prompts["check_payload"].arguments] == ["payload"]
            summary = await peer.client.get_prompt("summarize_unread")
            feed = json.loads(summary.messages[1].content.resource.text)
            assert len(feed["items"]) == 10 and all(not card["read"] for card in feed["items"])
            check = await peer.client.get_prompt("check_payload", {"payload": json.dumps(PUSH)})
            report = json.loads(check.messages[1].content.resource.text)
            assert report["payloads"][0]["card"]["id"] == "flash-sale-42"
            with pytest.raises(ProtocolError) as refused:
                await peer.client.get_prompt("check_payload", {"payload": "{not json"})
            assert code_of(refused.value) == -32602

    run(main)


@pytest.mark.parametrize("mode", MODES)
def test_the_plain_server_tells_an_mcp_host_to_start_inbox_rpc_mcp(store, mode):
    """The `mcp` word forgotten in a host's configuration: the SDK's error names the command to run."""
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=BIN, args=["--store", store])

    async def main():
        with open(os.devnull, "w") as errlog:
            if MAJOR >= 2:
                from mcp import Client

                async with Client(stdio_client(params, errlog=errlog), mode=mode.split("-")[0], cache=None):
                    pass
            else:
                from mcp import ClientSession

                async with stdio_client(params, errlog=errlog) as (read, write):
                    async with ClientSession(read, write) as client:
                        await client.initialize()

    def protocol_error(error: BaseException) -> ProtocolError | None:
        if isinstance(error, ProtocolError):
            return error
        for inner in getattr(error, "exceptions", ()):  # the SDK's task groups wrap it
            if (found := protocol_error(inner)) is not None:
                return found
        return None

    with pytest.raises(BaseException) as raised:
        run(main)
    error = protocol_error(raised.value)
    assert error is not None, repr(raised.value)
    assert code_of(error) == -32040
    assert "inbox-rpc mcp" in str(error), str(error)
