"""`inbox-rpc backend` itself: the token and the application checked, statuses that only go up and a
deleted message gone from the list, each fault kind of --fault, https with a self-signed
certificate, the bounds (request size, fixture size, --for), createMessage notifications listed as
the service lists them, and a reply as the SDKs receive it served and synced. Requests go straight
to the double (http.client), or come from the real server's sync."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess

import pytest

from backend_double import BackendDouble
from fake_backend import APP, TOKEN, USER
from sync_support import BIN, SyncServer, backend_args, servers, start_server, store_path, token_env  # noqa: F401

HERE = os.path.dirname(__file__)


def post(double: BackendDouble, method: str, request: dict, *, token: str | None = TOKEN, raw: bytes | None = None,
         ) -> tuple[int, bytes]:
    _ = double.url  # started
    connection = http.client.HTTPConnection("127.0.0.1", double.port, timeout=30)
    headers = {"Content-Type": "application/json", "Connection": "close"}
    if token:
        headers["Authorization"] = f"Token {token}"
    body = raw if raw is not None else json.dumps({"request": {"application": APP, "userId": USER, **request}}).encode()
    connection.request("POST", f"/json/1.3/{method}", body, headers)
    reply = connection.getresponse()
    data = reply.read()
    connection.close()
    return reply.status, data


def listing(double: BackendDouble, **kwargs) -> dict:
    status, body = post(double, "getInboxMessages", {}, **kwargs)
    assert status == 200, body
    return json.loads(body)["response"]


@pytest.fixture
def doubles():
    started: list[BackendDouble] = []

    def make(**kwargs) -> BackendDouble:
        double = BackendDouble(BIN, **kwargs)
        started.append(double)
        return double

    yield make
    for double in started:
        double.close()


def test_a_wrong_or_missing_token_is_refused_and_logged_without_the_token(doubles):
    double = doubles()
    double.add_message("m1")
    assert post(double, "getInboxMessages", {}, token="wrong")[0] == 401
    assert post(double, "getInboxMessages", {}, token=None)[0] == 401
    assert post(double, "getInboxMessages", {})[0] == 200
    assert [r.reply["httpStatus"] for r in double.requests] == [401, 401, 200]
    with open(double.log_path) as log:
        text = log.read()
    assert TOKEN not in text and "wrong" not in text
    assert [json.loads(line)["token"] for line in text.splitlines()] == ["refused", "refused", "accepted"]


def test_another_application_is_refused_with_210_and_any_is_accepted_when_none_is_told(doubles):
    strict = doubles()
    status, body = post(strict, "getInboxMessages", {"application": "OTHER-00000"})
    assert status == 200 and json.loads(body)["status_code"] == 210
    relaxed = doubles(token=None, application=None)
    relaxed.add_message("m1")
    assert [m["inbox_id"] for m in listing(relaxed, token="any")["messages"]] == ["m1"]
    assert [m["inbox_id"] for m in listing(relaxed, token=None)["messages"]] == ["m1"]


def test_statuses_only_go_up_and_a_deleted_message_leaves_the_list(doubles):
    double = doubles()
    one, two = double.add_message("m1"), double.add_message("m2")
    for status in (3, 2):  # opened, then a stale read: it stays opened
        assert post(double, "inboxStatus", {"inbox_code": one.order, "status": status, "hash": one.hash})[0] == 200
    assert {m["inbox_id"]: int(m["status"]) for m in listing(double)["messages"]} == {"m1": 3, "m2": 1}
    post(double, "inboxStatus", {"inbox_code": two.order, "status": 4, "hash": two.hash})
    assert [m["inbox_id"] for m in listing(double)["messages"]] == ["m1"]
    status, body = post(double, "inboxStatus", {"inbox_code": one.order, "status": 7})
    assert json.loads(body)["status_code"] == 210, "a status the service does not know is an argument error"
    # Each user has a copy of its own.
    other = json.loads(post(double, "getInboxMessages", {"userId": "someone-else"})[1])["response"]
    assert {m["inbox_id"]: int(m["status"]) for m in other["messages"]} == {"m1": 1, "m2": 1}


@pytest.mark.parametrize(
    "rule, http_status, status_code, applied",
    [
        ("inboxStatus:503", 503, 503, False),
        ("inboxStatus:code=210", 200, 210, False),
        ("inboxStatus:delay=300", 200, 200, True),
        ("inboxStatus:drip=300", 200, 200, True),
        ("*:garbage", 200, None, False),
        ("inboxStatus:empty", 200, None, False),
    ],
)
def test_each_fault_kind_is_played_once_then_the_service_answers(doubles, rule, http_status, status_code, applied):
    double = doubles(args=("--fault", rule))
    message = double.add_message("m1")
    request = {"inbox_code": message.order, "status": 2, "hash": message.hash}
    status, body = post(double, "inboxStatus", request)
    assert status == http_status
    if status_code is None:
        with pytest.raises(ValueError):
            json.loads(body)
    else:
        assert json.loads(body)["status_code"] == status_code
    assert post(double, "inboxStatus", {**request, "status": 3})[0] == 200, "the rule's count (1) is used up"
    first, second = double.calls("inboxStatus")
    assert first.reply["fault"] == rule and first.reply["applied"] is applied
    assert "fault" not in second.reply and second.reply["applied"] is True
    assert double.status_of("m1") == 3


def test_drip_sends_the_body_in_pieces_and_reset_cuts_the_connection(doubles):
    double = doubles(args=("--fault", "getInboxMessages:drip=200", "--fault", "getInboxMessages:reset:2"))
    double.add_message("m1")
    _ = double.url
    with socket.create_connection(("127.0.0.1", double.port), timeout=30) as connection:
        body = json.dumps({"request": {"application": APP, "userId": USER}}).encode()
        connection.sendall(b"POST /json/1.3/getInboxMessages HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                           b"Authorization: Token " + TOKEN.encode() + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        pieces = []
        while chunk := connection.recv(65536):
            pieces.append(chunk)
    reply = b"".join(pieces)
    assert json.loads(reply.split(b"\r\n\r\n", 1)[1])["response"]["messages"][0]["inbox_id"] == "m1"
    assert len(pieces) > 3, "a dripped body arrives in many reads"
    for _ in range(2):
        with pytest.raises((ConnectionResetError, http.client.RemoteDisconnected, ConnectionAbortedError)):
            post(double, "getInboxMessages", {})
    assert post(double, "getInboxMessages", {})[0] == 200
    assert [r.reply.get("fault") for r in double.requests] == [
        "getInboxMessages:drip=200", "getInboxMessages:reset", "getInboxMessages:reset", None]


def test_the_fault_grammar_is_in_the_help_and_a_bad_rule_is_a_usage_error():
    help_text = subprocess.run([BIN, "backend", "--help"], capture_output=True, text=True, timeout=30).stdout
    for word in ("METHOD:KIND[:COUNT]", "code=NNN", "delay=MS", "drip=MS", "reset", "garbage", "empty"):
        assert word in help_text
    for bad in ("inboxStatus", "other:500", "inboxStatus:200", "inboxStatus:500:0", "inboxStatus:code=200"):
        done = subprocess.run([BIN, "backend", "--fault", bad], capture_output=True, text=True, timeout=30)
        assert done.returncode == 2 and "--fault" in done.stderr, (bad, done.stderr)


def test_bounds_a_large_request_a_large_fixture_and_the_run_time(doubles, tmp_path):
    double = doubles(args=("--max-request-bytes", "1000"))
    status, _ = post(double, "inboxStatus", {}, raw=b"{" + b" " * 5000 + b"}")
    assert status == 413
    assert double.requests[0].reply["httpStatus"] == 413
    connection = http.client.HTTPConnection("127.0.0.1", double.port, timeout=30)
    connection.request("POST", "/json/1.3/getInboxMessages", b"{}", {"X-Big": "a" * 20_000})
    assert connection.getresponse().status == 431, "headers beyond 16 KiB are refused by libmicrohttpd"
    connection.close()
    assert len(double.requests) == 1, "and never reach the double"
    big = tmp_path / "big.json"
    big.write_text(json.dumps([{"inbox_id": "x", "order": "1", "text": "y" * 3000}]))
    done = subprocess.run([BIN, "backend", "--fixture", str(big), "--max-fixture-bytes", "2000"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 3 and "--max-fixture-bytes" in done.stderr
    done = subprocess.run([BIN, "backend", "--for", "0.2", "--log", os.devnull], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0 and done.stdout.startswith("http://127.0.0.1:")


def test_create_message_notifications_are_listed_as_the_service_lists_them(doubles):
    request = {"request": {"application": APP, "notifications": [
        {"send_date": "now", "ios_title": {"en": "Sale", "de": "Angebot"}, "content": "40% off",
         "inbox_image": "https://cdn.example.com/s.png", "inbox_days": 3, "link": "https://example.com/s",
         "data": {"displayType": "captioned"}},
        {"content": "No title", "inbox_date": "2031-01-01"},
    ]}}
    double = doubles(fixture=request)
    first, second = listing(double)["messages"]
    assert first["inbox_id"].startswith("sr-") and first["title"] == "Sale" and first["text"] == "40% off"
    assert first["image"] == "https://cdn.example.com/s.png" and int(first["order"]) > 2**53
    assert int(first["rt"]) - int(first["send_date"]) == 3 * 86_400
    params = json.loads(first["action_params"])
    assert params["l"] == "https://example.com/s" and json.loads(params["u"]) == {"displayType": "captioned"}
    assert second["rt"] == 1925078399 and second["title"] == "" and int(second["order"]) == int(first["order"]) + 1


def test_with_no_fixture_the_sample_feed_is_served_and_synced(servers, store_path):
    # No --fixture, no token, any application: what a host's developer starts by hand.
    proc = subprocess.Popen([BIN, "backend", "--log", os.devnull], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        url = proc.stdout.readline().decode().strip()
        server = SyncServer(store_path, ["--backend-url", url, "--application", APP, "--user-id", USER], clock=None)
        servers.append(server)
        assert server.sync()["added"] == 10
        assert server.feed()["welcome"]["pinned"] is True
        assert server.close() == 0
    finally:
        proc.kill()
        proc.wait(10)


def test_a_reply_as_the_sdks_receive_it_is_served_verbatim_and_synced(servers, store_path, doubles):
    """The quirks of BackendWireTests' reply: numbers as strings, params as a string or an object,
    entries without an order or a text (skipped by the client), a non-object entry, `deleted`."""
    with open(os.path.join(HERE, "data", "backend", "sdk-quirks-reply.json")) as recorded:
        reply = json.load(recorded)
    double = doubles(fixture=reply)
    served = listing(double)
    assert served["messages"] == reply["response"]["messages"] and served["deleted"] == reply["response"]["deleted"]
    server = start_server(servers, store_path, double)
    result = server.sync()
    assert result["added"] == 2, result
    assert set(server.feed()) == {"ok", "obj"}
    skipped = [n for n in server.notifications_of("log") if n["params"]["data"]["code"] == "messageSkipped"]
    assert len(skipped) >= 3
    assert server.close() == 0


needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl tool is missing")


@needs_openssl
def test_https_with_a_self_signed_certificate_syncs_and_an_untrusting_client_is_refused(servers, store_path, doubles,
                                                                                         tmp_path):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", "key.pem", "-out", "cert.pem", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   cwd=tmp_path, check=True, capture_output=True, timeout=60)
    double = doubles(args=("--cert", str(tmp_path / "cert.pem"), "--key", str(tmp_path / "key.pem"),
                           "--url-host", "localhost"))
    double.add_message("m1")
    assert double.url.startswith("https://localhost:")
    trusting = start_server(servers, store_path, double, "--backend-ca-file", str(tmp_path / "cert.pem"))
    assert trusting.sync()["added"] == 1
    trusting.call("message.markRead", {"ids": ["m1"]})
    assert trusting.sync()["pushed"] == 1 and double.status_of("m1") == 2
    assert trusting.close() == 0
    untrusting = start_server(servers, store_path + "-2", double)
    error = untrusting.error_of("feed.sync", {"force": True}, timeout=30)
    assert error["code"] == -32030 and "certificate" in error["data"]["reason"].lower(), error
    assert untrusting.close() == 0
