"""Sync with the Pushwoosh inbox backend, end to end: the real binary over stdio against a loopback
fake of the backend (fake_backend.py) that checks the wire contract and injects faults."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from fake_backend import APP, TOKEN, USER, FakeBackend
from sync_support import (  # noqa: F401  (fixtures)
    BIN,
    T0,
    SyncServer,
    backend,
    backend_args,
    push_payload,
    servers,
    start_server as start,
    store_path,
    token_env,
)

ZERO = {"total": 0, "unread": 0, "unactioned": 0, "pinned": 0, "unseen": 0}  # feed.changed's counts of an empty feed
COMMON = {"application": APP, "hwid": "hw-test", "userId": USER, "v": "0.1.0", "device_type": 3}


# --------------------------------------------------------------------------------------------
# The round trip: changes made offline reach the backend exactly as the contract says
# --------------------------------------------------------------------------------------------


def test_offline_changes_survive_a_restart_and_reach_the_backend_as_the_contract_says(servers, store_path, backend):
    for name in ("m1", "m2", "m3", "m4"):
        backend.add_message(name)
    first = start(servers, store_path, backend)
    assert first.sync()["added"] == 4

    # Offline: read, open, dismiss synced messages; receive two pushes, read one, dismiss the other.
    backend.down()
    assert first.call("message.markRead", {"ids": ["m1"]})["changed"] == 1
    first.call("message.tap", {"id": "m2"})
    assert first.call("message.dismiss", {"id": "m3"}) == {"dismissed": True}
    first.call("message.ingest", {"payload": push_payload("p1")})
    first.call("message.ingest", {"payload": push_payload("p2")})
    first.call("message.markRead", {"ids": ["p1"]})
    first.call("message.dismiss", {"id": "p2"})

    error = first.error_of("feed.sync", {"force": True})
    assert error["code"] == -32030, error
    assert error["data"]["pending"] == 6 and error["data"]["pushed"] == 0, error
    # The local feed keeps working.
    assert first.feed_statuses() == {"m1": 2, "m2": 3, "m4": 1, "p1": 2}
    assert first.call("feed.counts") == {"total": 4, "unread": 1, "unactioned": 3, "pinned": 0, "unseen": 1}

    first.kill()  # SIGKILL: whatever was replied is already on disk
    second = start(servers, store_path, backend)
    assert second.call("config.get")["backend"]["pending"] == 6

    # The backend comes back, and now lists the two pushes it had sent.
    order_p1 = backend.add_message("p1", hash="P-p1").order
    order_p2 = backend.add_message("p2", hash="P-p2").order
    backend.up()
    backend.reset_records()
    result = second.sync()
    assert result["pushed"] == 6 and result["pending"] == 0 and result["failed"] == 0, result

    inbox = backend.inbox()
    expected = {
        (inbox["m1"].order, 2, "H-m1"),
        (inbox["m2"].order, 2, "H-m2"),
        (inbox["m2"].order, 3, "H-m2"),
        (inbox["m3"].order, 4, "H-m3"),
        (order_p1, 2, "P-p1"),
        (order_p2, 4, "P-p2"),
    }
    sent = backend.calls("inboxStatus")
    assert {(r.request["inbox_code"], r.request["status"], r.request["hash"]) for r in sent} == expected
    assert len(sent) == len(expected), "each change is sent exactly once"
    for record in sent:
        assert record.path == "/json/1.3/inboxStatus"
        assert record.headers["authorization"] == f"Token {TOKEN}"
        assert record.headers["content-type"].startswith("application/json")
        assert list(record.body) == ["request"]
        assert set(record.request) == set(COMMON) | {"inbox_code", "status", "hash"}
        assert {k: record.request[k] for k in COMMON} == COMMON
        assert isinstance(record.request["inbox_code"], str) and record.request["inbox_code"].isdigit()
    fetch = backend.calls("getInboxMessages")
    assert len(fetch) == 1 and fetch[0].body == {"request": COMMON}

    assert backend.statuses() == {"m1": 2, "m2": 3, "m3": 4, "m4": 1, "p1": 2, "p2": 4}
    assert second.feed_statuses() == backend.visible() == {"m1": 2, "m2": 3, "m4": 1, "p1": 2}
    assert second.call("config.get")["backend"]["pending"] == 0
    assert second.close() == 0


def test_progress_notifications_and_feed_changed(servers, store_path, backend):
    backend.add_message("a")
    server = start(servers, store_path, backend)
    server.call("message.ingest", {"payload": push_payload("p")})
    server.call("message.markRead", {"ids": ["p"]})
    backend.add_message("p")
    server.notifications.clear()
    result = server.sync()
    assert result == {
        "added": 1, "updated": 1, "removed": 0, "expired": 0, "pushed": 1, "pending": 0, "failed": 0,
        "throttled": False,
    }
    stages = [n["params"]["stage"] for n in server.notifications_of("sync.progress")]
    assert stages[0] == "push" and stages[-1] == "done"
    assert stages.index("fetch") < stages.index("merge") < stages.index("done")
    changed = server.notifications_of("feed.changed")
    assert changed == [
        {"jsonrpc": "2.0", "method": "feed.changed", "params": {"reason": "sync", "added": ["a"], "updated": ["p"],
                                                               "counts": {**ZERO, "total": 2, "unread": 1, "unactioned": 2, "unseen": 1}}}
    ]


def test_a_dismissed_message_never_comes_back(servers, store_path, backend):
    backend.add_message("a")
    server = start(servers, store_path, backend)
    server.sync()
    server.call("message.dismiss", {"id": "a"})
    server.sync()
    assert backend.status_of("a") == 4
    # The service forgets the dismissal and lists it as new again: it stays dismissed, and is re-sent.
    backend.inbox()["a"].status = 1
    backend.reset_records()
    result = server.sync()
    assert result["added"] == 0 and result["pushed"] == 1
    assert "a" not in server.feed()
    assert backend.status_of("a") == 4


def test_server_side_changes_deleted_and_expired(servers, store_path, backend):
    for name in ("keep", "gone", "deleted", "soon", "read-elsewhere"):
        backend.add_message(name, rt=T0 + 100 if name == "soon" else 4_102_444_800)
    server = start(servers, store_path, backend)
    assert server.sync()["added"] == 5
    del backend.inbox()["gone"]
    backend.delete_by_service("deleted")
    backend.set_status("read-elsewhere", 3)
    server.call("test.clock", {"now": T0 + 200})
    result = server.sync()
    assert (result["removed"], result["expired"], result["updated"]) == (2, 1, 1), result
    assert server.feed_statuses() == {"keep": 1, "read-elsewhere": 3}


def test_quirks_of_the_wire_are_tolerated(servers, store_path, backend):
    backend.add_message("string-params", params={"u": json.dumps({"pinned": True})})
    backend.add_message("object-params", params={"l": "https://example.com/x"})
    backend.add_raw({"order": "1", "text": "no inbox_id"})
    backend.add_raw({"inbox_id": "no-text", "order": "2", "rt": "4102444800"})
    backend.add_raw({"inbox_id": "no-order", "text": "t", "rt": "4102444800", "status": 1})
    backend.add_raw("not even an object")
    server = start(servers, store_path, backend)
    result = server.sync()
    assert result["added"] == 2, result
    feed = server.feed()
    assert set(feed) == {"string-params", "object-params"}
    assert feed["string-params"]["pinned"] is True
    warnings = [n["params"] for n in server.notifications_of("log")]
    skipped = [w for w in warnings if w["data"]["code"] == "messageSkipped"]
    assert len(skipped) == 4, warnings
    # The order code keeps every digit (beyond 2^53) on its way back.
    server.call("message.markRead", {"ids": ["object-params"]})
    backend.reset_records()
    server.sync()
    [sent] = backend.calls("inboxStatus")
    assert sent.request["inbox_code"] == backend.inbox()["object-params"].order
    assert int(sent.request["inbox_code"]) > 2**53


def test_a_large_reply_reads_as_a_small_one(servers, store_path, backend):
    """A list long enough to be read on both cores (512 items or more) gives every message, skip and
    warning of one read alone, in order, and the copies it stored compare equal on the next sync."""
    for index in range(2000):
        params = {"l": f"https://example.com/{index}", "u": json.dumps({"pinned": index == 1500, "note": "x" * 120})}
        backend.add_message(f"m{index:04d}", params=params, title=f"Title [{index}], \"quoted\" {{braced}}")
    backend.add_raw("not even an object")  # listed last: in the second half
    backend.add_raw({"inbox_id": "no-text", "order": "2", "rt": "4102444800"})
    server = start(servers, store_path, backend)
    result = server.sync()
    assert result["added"] == 2000, result
    skipped = [n for n in server.notifications_of("log") if n["params"]["data"]["code"] == "messageSkipped"]
    assert len(skipped) == 2, skipped
    feed = server.feed()
    assert len(feed) == 2000
    assert [i for i, card in feed.items() if card["pinned"]] == ["m1500"]
    assert feed["m1999"]["title"] == 'Title [1999], "quoted" {braced}'
    backend.set_status("m1999", 3)
    backend.set_status("m0000", 2)
    result = server.sync()
    assert (result["added"], result["updated"], result["removed"]) == (0, 2, 0), result
    assert server.feed_statuses()["m1999"] == 3


def test_fetches_are_throttled_unless_forced(servers, store_path, backend):
    server = start(servers, store_path, backend)
    assert server.sync(force=False)["throttled"] is False
    assert server.sync(force=False)["throttled"] is True
    assert server.sync(force=True)["throttled"] is False
    server.call("test.clock", {"now": T0 + 10})
    assert server.sync(force=False)["throttled"] is False
    assert len(backend.calls("getInboxMessages")) == 3


# --------------------------------------------------------------------------------------------
# Errors: distinct codes with data, and the local feed keeps working
# --------------------------------------------------------------------------------------------

FAULT_CODES = [
    ("timeout", -32030, {"method": "getInboxMessages"}),
    ("close_mid_body", -32030, {"method": "getInboxMessages"}),
    ("drop", -32030, {"method": "getInboxMessages"}),
    ("http500", -32031, {"httpStatus": 500, "statusCode": 500, "statusMessage": "Internal Server Error"}),
    ("http503", -32031, {"httpStatus": 503, "statusCode": None}),
    ("status210", -32031, {"httpStatus": 200, "statusCode": 210, "statusMessage": "Argument error"}),
    ("redirect", -32031, {"httpStatus": 302}),
    ("invalid_json", -32032, {"path": "$"}),
    ("empty", -32032, {"path": "$"}),
    ("wrong_shape", -32032, {"path": "response.messages"}),
]


@pytest.mark.parametrize("fault,code,data", FAULT_CODES, ids=[f[0] for f in FAULT_CODES])
def test_each_fault_has_its_error_and_the_feed_keeps_working(servers, store_path, backend, fault, code, data):
    backend.add_message("a")
    server = start(servers, store_path, backend, "--backend-timeout", "0.5")
    server.sync()
    server.call("message.markRead", {"ids": ["a"]})
    backend.fail(fault, method="getInboxMessages", delay=2)
    error = server.error_of("feed.sync", {"force": True})
    assert error["code"] == code, error
    for key, value in data.items():
        assert error["data"][key] == value, error
    assert error["data"]["pushed"] == 1 and error["data"]["pending"] == 0, error
    if fault == "redirect":
        assert error["data"]["location"].endswith("/elsewhere/json/1.3/")
        assert not any(r.path.startswith("/elsewhere") for r in backend.requests), "redirects are not followed"
    assert server.feed_statuses() == {"a": 2}
    assert server.sync()["added"] == 0


def test_a_confirmed_change_is_on_the_backend_though_its_message_expires_before_the_next_fetch(
    servers, store_path, backend
):
    """HTTP 200 with status_code 200 confirms an inboxStatus whatever its `response` holds, as every
    SDK reads it (docs/sync.md): the change leaves the outbox, and once its message has expired no
    later merge sends it again. The sequence of a fault campaign's loss (seed 1024144605): a tap,
    its sends answered with an unexpected response, the next fetch refused, then the expiry."""
    backend.add_message("m", rt=T0 + 100)
    server = start(servers, store_path, backend)
    server.sync()
    server.call("message.markRead", {"ids": ["m"]})
    server.sync()
    server.call("message.tap", {"id": "m"})
    backend.fail("wrong_shape", method="inboxStatus", times=2)
    result = server.sync()
    assert result["pending"] == 0 and result["failed"] == 0 and result["pushed"] >= 1, result
    backend.clear_faults()
    backend.fail("http500", method="getInboxMessages")
    assert server.error_of("feed.sync", {"force": True})["code"] == -32031
    server.call("test.clock", {"now": T0 + 100})
    result = server.sync()
    assert result["expired"] == 1 and result["pending"] == 0, result
    assert backend.status_of("m") == 3


def test_a_push_only_message_deleted_before_it_was_ever_listed_leaves_nothing_pending(
    servers, store_path, backend
):
    """A push read offline queues its read without an `order`; if the service deletes the message
    before any fetch lists it, the read can never be sent: it is dropped rather than pending forever."""
    server = start(servers, store_path, backend)
    server.call("message.ingest", {"payload": push_payload("p")})
    server.call("message.markRead", {"ids": ["p"]})
    backend.add_message("p", hash="P-p")
    backend.delete_by_service("p")
    result = server.sync()
    assert result["pending"] == 0 and result["removed"] == 1, result
    assert server.call("config.get")["backend"]["pending"] == 0
    assert "p" not in server.feed() and backend.status_of("p") == 5


def test_backend_down_is_unavailable(servers, store_path, backend):
    server = start(servers, store_path, backend)
    backend.down()
    error = server.error_of("feed.sync", {"force": True}, timeout=120)
    assert error["code"] == -32030 and error["data"]["method"] == "getInboxMessages", error
    assert error["data"]["reason"], error


def test_wrong_token_is_refused(servers, store_path, backend):
    server = start(servers, store_path, backend, env=token_env("not-the-token"))
    error = server.error_of("feed.sync", {"force": True})
    assert error["code"] == -32031 and error["data"]["httpStatus"] == 401, error


def test_not_configured(servers, store_path):
    server = SyncServer(store_path)
    servers.append(server)
    error = server.error_of("feed.sync")
    assert error["code"] == -32033 and error["data"]["missing"] == ["application"], error
    backend = server.call("config.get")["backend"]
    assert backend["application"] is None and backend["tokenSet"] is False and len(backend["hwid"]) == 32


def test_a_sync_is_cancellable_mid_transfer(servers, store_path, backend):
    backend.add_message("a")
    server = start(servers, store_path, backend, "--backend-timeout", "30")
    # The backend holds the call past the deadline below: only an aborted transfer answers in time.
    backend.fail("timeout", method="getInboxMessages", delay=600)
    id = server.send("feed.sync", {"force": True})
    time.sleep(0.3)
    server.notify("$/cancelRequest", {"id": id})
    reply = server.reply(id, timeout=120)
    assert reply["error"]["code"] == -32800, reply
    assert server.feed() == {}
    assert server.sync()["added"] == 1


def test_a_sync_against_a_backend_that_never_answers_ends_after_one_timeout_not_one_per_call(
    servers, store_path, backend
):
    """--backend-timeout bounds a whole sync (docs/sync.md): a push that used it all up leaves the
    fetch none, so the fetch is not sent and the sync says unavailable, rather than waiting one
    timeout more on the same host."""
    backend.add_message("a")
    server = start(servers, store_path, backend, "--backend-timeout", "2")
    server.sync()
    server.call("message.markRead", {"ids": ["a"]})
    backend.reset_records()
    backend.fail("timeout", delay=600, times=10)
    error = server.error_of("feed.sync", {"force": True}, timeout=120)
    assert error["code"] == -32030 and error["data"]["method"] == "getInboxMessages", error
    assert "ran out" in error["data"]["reason"], error
    assert len(backend.calls("inboxStatus")) == 1
    assert backend.calls("getInboxMessages") == [], "the fetch was sent with no time left"


# --------------------------------------------------------------------------------------------
# Configuration: base_url, accounts, token, https
# --------------------------------------------------------------------------------------------


def test_base_url_in_a_reply_moves_later_calls_and_is_kept(servers, store_path, backend):
    backend.add_message("a")
    backend.base_url_reply = backend.url_with("/moved/json/1.3/")
    server = start(servers, store_path, backend)
    server.sync()
    backend.base_url_reply = None
    assert server.call("config.get")["backend"]["effectiveBaseUrl"] == backend.url_with("/moved/json/1.3/")
    server.call("message.markRead", {"ids": ["a"]})
    backend.reset_records()
    server.sync()
    assert {r.path for r in backend.requests} == {"/moved/json/1.3/inboxStatus", "/moved/json/1.3/getInboxMessages"}
    server.close()

    again = start(servers, store_path, backend)
    backend.reset_records()
    again.sync()
    assert backend.requests[0].path == "/moved/json/1.3/getInboxMessages"

    # An insecure base_url is ignored.
    backend.base_url_reply = "http://example.com/json/1.3/"
    again.sync()
    assert again.call("config.get")["backend"]["effectiveBaseUrl"] == backend.url_with("/moved/json/1.3/")


def test_a_new_user_id_clears_the_inbox_and_the_old_change_is_still_sent(servers, store_path, backend):
    backend.add_message("mine")
    backend.add_message("theirs", user="user-2")
    server = start(servers, store_path, backend)
    server.sync()
    backend.down()
    server.call("message.markRead", {"ids": ["mine"]})
    server.notifications.clear()
    result = server.call("config.set", {"backend": {"userId": "user-2"}})
    assert result["backend"]["userId"] == "user-2" and result["backend"]["pending"] == 1
    assert server.notifications_of("feed.changed")[-1]["params"] == {"reason": "config", "removed": ["mine"], "counts": ZERO}
    assert server.feed() == {}
    backend.up()
    result = server.sync()
    assert result["pushed"] == 1 and result["added"] == 1, result
    assert set(server.feed()) == {"theirs"}
    assert backend.status_of("mine") == 2, "sent as the user who made it"
    [sent] = backend.calls("inboxStatus")
    assert sent.request["userId"] == USER
    assert backend.calls("getInboxMessages")[-1].request["userId"] == "user-2"


def test_start_up_flags_changing_the_user_clear_the_inbox(servers, store_path, backend):
    backend.add_message("mine")
    first = start(servers, store_path, backend)
    first.sync()
    first.close()
    second = SyncServer(store_path, backend_args(backend, user="user-2"), env=token_env())
    servers.append(second)
    assert second.feed() == {}
    assert second.call("config.get")["backend"]["userId"] == "user-2"


def test_config_set_validates_the_backend(servers, store_path, backend):
    server = start(servers, store_path, backend)
    for url in ("http://example.com/", "http://10.1.2.3/json/", "ftp://127.0.0.1/"):
        error = server.error_of("config.set", {"backend": {"baseUrl": url}})
        assert error["code"] == -32602 and error["data"]["param"] == "backend.baseUrl", error
    error = server.error_of("config.set", {"backend": {"token": "x"}})
    assert error["code"] == -32602 and error["data"]["param"] == "backend.token", error
    for url in ("https://example.com/json/1.3", "https://[::1]:1/", backend.url):
        assert server.call("config.set", {"backend": {"baseUrl": url}})["backend"]["baseUrl"].endswith("/")
    # Clear text only to the URL the command line gave: a saved setting is read back from the store.
    for url in ("http://localhost:1/", "http://[::1]:1/", "http://127.9.9.9/"):
        error = server.error_of("config.set", {"backend": {"baseUrl": url}})
        assert error["code"] == -32602 and error["data"]["param"] == "backend.baseUrl", error
        assert "--backend-url" in error["data"]["reason"], error
    reset = server.call("config.set", {"backend": {"baseUrl": None}})["backend"]
    assert reset["baseUrl"] is None and reset["effectiveBaseUrl"] == f"https://{APP}.api.pushwoosh.com/json/1.3/"


def test_initialize_can_configure_the_backend(servers, store_path, backend):
    server = SyncServer(store_path, env={**token_env(), "INBOX_RPC_BACKEND_URL": backend.url})
    servers.append(server)
    server.call(
        "initialize", {"backend": {"baseUrl": backend.url, "application": APP, "userId": USER, "hwid": "hw-test"}}
    )
    config = server.call("config.get")["backend"]
    assert config["application"] == APP and config["tokenSet"] is True
    backend.add_message("a")
    assert server.sync()["added"] == 1


def test_plain_http_to_a_remote_host_is_refused_at_start(store_path):
    run = subprocess.run(
        [BIN, "--store", store_path, "--backend-url", "http://api.example.com/json/1.3/"],
        input=b"", capture_output=True, timeout=10,
    )
    assert run.returncode == 2
    assert b"https" in run.stderr and b"loopback" in run.stderr


# --------------------------------------------------------------------------------------------
# The token: from the environment or a file, never the command line, never in output
# --------------------------------------------------------------------------------------------

SECRET = "s3cret-T0ken-do-not-print"


@pytest.mark.parametrize("argv", [["--token", SECRET], [f"--token={SECRET}"], [f"--api-token={SECRET}"],
                                  [f"--tokn={SECRET}"], [SECRET], [f"TOKEN{SECRET}"], [f"my-TOKEN-{SECRET}"],
                                  [f"--TOKEN{SECRET}"], [f"-x={SECRET}"]])
def test_the_token_is_never_taken_from_the_command_line(store_path, argv):
    run = subprocess.run([BIN, "--store", store_path, *argv], input=b"", capture_output=True, timeout=10)
    assert run.returncode == 2
    assert SECRET.encode() not in run.stdout + run.stderr


def test_the_token_never_reaches_logs_errors_or_replies(servers, store_path, tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text(SECRET + "\n")
    fake = FakeBackend(token=SECRET)
    try:
        fake.add_message("a")
        server = start(servers, store_path, fake, "--token-file", str(token_file), "--log-level", "debug",
                       "--backend-timeout", "0.5", env={"INBOX_RPC_LOG_LEVEL": "debug"})
        assert server.call("config.get")["backend"]["tokenSource"] == "file"
        assert server.sync()["added"] == 1
        assert fake.requests[0].headers["authorization"] == f"Token {SECRET}"
        server.call("message.markRead", {"ids": ["a"]})
        for fault in ("http500", "status210", "timeout", "invalid_json", "redirect", "close_mid_body"):
            fake.fail(fault, delay=1)
            server.call_raw("feed.sync", {"force": True})
        fake.token = "another"
        server.call_raw("feed.sync", {"force": True})
        fake.down()
        server.call_raw("feed.sync", {"force": True})
        server.call_raw("config.set", {"backend": {"baseUrl": f"http://example.com/?t={SECRET}"}})
        assert server.close() == 0
        assert SECRET not in server.output_text()
        assert SECRET not in open(store_path, "rb").read().decode("latin-1")
    finally:
        fake.close()


def test_an_unreadable_token_file_is_a_usage_error(store_path, tmp_path):
    run = subprocess.run([BIN, "--store", store_path, "--token-file", str(tmp_path / "missing")],
                         input=b"", capture_output=True, timeout=10)
    assert run.returncode == 2 and b"--token-file" in run.stderr


# --------------------------------------------------------------------------------------------
# The background sync
# --------------------------------------------------------------------------------------------


def test_background_sync_notifies_and_backs_off(servers, store_path, backend):
    backend.add_message("a")
    server = start(servers, store_path, backend, "--sync-interval", "1", "--sync-min-interval", "0")
    deadline = time.monotonic() + 5
    while not server.notifications_of("feed.changed") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.notifications_of("feed.changed")[0]["params"] == {"reason": "sync", "added": ["a"],
                                                                 "counts": {**ZERO, "total": 1, "unread": 1, "unactioned": 1, "unseen": 1}}
    assert not server.notifications_of("sync.progress"), "progress belongs to feed.sync requests"

    # A refused change waits for its retry time: the clock is pinned, so it is not tried again.
    backend.fail("http500", method="inboxStatus", times=100)
    server.call("message.markRead", {"ids": ["a"]})
    time.sleep(2.5)
    assert len(backend.calls("inboxStatus")) == 1
    backend.clear_faults()
    server.call("test.clock", {"now": T0 + 3600})
    deadline = time.monotonic() + 5
    while backend.status_of("a") != 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert backend.status_of("a") == 2
    assert server.close() == 0
