"""`inbox-rpc lsp` on the transport the other faces use: the frame limit (a 24 MB document refused
and said so, never reported clean), a client that stops reading (the reader stops, memory stays
bounded, exit 6 after the patience), exit with output left unread (exit 0), bad frames answered as
the JSON-RPC face answers them, and the settings each editor can give."""

import json
import os
import queue
import subprocess
import threading

import pytest

from conftest import BIN
from test_lsp import shared

DEADLINE = int(os.environ.get("LSP_TEST_DEADLINE", "60"))  # only catches a hang


def frame(message):
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(stream):
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))


class Client:
    """A server and its frames as they arrive (read on a thread unless `reading` is false)."""

    def __init__(self, *args, reading=True, command=None, stderr=None):
        self.proc = subprocess.Popen(command or [BIN, "lsp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr or subprocess.DEVNULL)
        self.inbox = queue.Queue()
        self.seen = []
        if reading:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while (message := read_frame(self.proc.stdout)) is not None:
            self.inbox.put(message)
        self.inbox.put(None)

    def send(self, message):
        self.proc.stdin.write(frame(message))
        self.proc.stdin.flush()

    def until(self, matches):
        for message in self.seen:
            if matches(message):
                return message
        while True:
            message = self.inbox.get(timeout=DEADLINE)
            assert message is not None, "the server ended its output"
            self.seen.append(message)
            if matches(message):
                return message

    def initialize(self, options=None, capabilities=None):
        params = {"processId": None, "rootUri": None, "capabilities": capabilities or {}}
        if options is not None:
            params["initializationOptions"] = options
        self.send({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params})

    def open(self, uri, text, version=1):
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "json", "version": version, "text": text}}})

    def diagnostics(self, uri, version=1):
        return self.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri and m["params"].get("version") == version)["params"]

    def close(self):
        self.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
        self.until(lambda m: m.get("id") == "bye")
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.proc.stdin.close()
        return self.proc.wait(timeout=DEADLINE)


def request(notifications, display_type="captiond"):
    """A createMessage request whose every notification has a finding (an unknown displayType)."""
    return json.dumps({"request": {"application": "ABCDE-12345", "notifications": [
        {"send_date": "now", "content": f"Body {i}", "ios_title": f"Title {i}", "data": {"displayType": display_type}}
        for i in range(notifications)]}}, indent=2) + "\n"


def ready(client, options=None, capabilities=None):
    client.initialize(options, capabilities)
    client.until(lambda m: m.get("id") == "init")
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})


def test_a_24_mb_document_is_refused_said_so_and_not_reported_clean(tmp_path):
    log = open(tmp_path / "stderr", "wb")
    client = Client(stderr=log)
    ready(client)
    big = request(140_000)
    assert len(big) > 24_000_000
    client.open("file:///tmp/big.json", big)
    refused = client.until(lambda m: "error" in m)
    assert refused["id"] is None and refused["error"]["code"] == -32600
    assert refused["error"]["data"]["limit"] == 16 * 1024 * 1024 and refused["error"]["data"]["size"] > 24_000_000
    shown = client.until(lambda m: m.get("method") == "window/showMessage")["params"]
    assert shown["type"] == 1 and "16777216 bytes" in shown["message"] and "not linted" in shown["message"]
    # The document it named shows why, at its start.
    [said] = client.until(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]["diagnostics"]
    assert said["code"] == "tooLarge" and said["severity"] == 1 and said["message"] == shown["message"]
    # Pulled, its diagnostics are an error, not an empty (clean) report.
    client.send({"jsonrpc": "2.0", "id": 5, "method": "textDocument/diagnostic",
                 "params": {"textDocument": {"uri": "file:///tmp/big.json"}}})
    assert "error" in client.until(lambda m: m.get("id") == 5)
    # The server keeps serving: the next document gets its diagnostics.
    client.open("file:///tmp/small.json", request(2))
    assert len(client.diagnostics("file:///tmp/small.json")["diagnostics"]) >= 2
    assert [m["params"]["diagnostics"] for m in client.seen if m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == "file:///tmp/big.json"] == [[said]], "it is never reported clean"
    assert client.close() == 0
    log.close()
    stderr = (tmp_path / "stderr").read_text()
    assert "over the limit of 16777216 bytes" in stderr and "--max-frame-bytes" in stderr


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def test_a_client_that_stops_reading_stops_the_reader_and_is_given_up_with_exit_6(tmp_path):
    log = open(tmp_path / "stderr", "wb")
    client = Client("--output-patience", "2", reading=False, stderr=log)
    client.initialize()
    assert read_frame(client.proc.stdout)["id"] == "init"
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    baseline = rss_kib(client.proc.pid)
    text = request(200)  # 20 KB a document, 200 findings published for each
    sent, peak = 0, baseline

    def keep_opening():
        nonlocal sent
        try:
            while sent < 20_000:  # 400 MB, had the server kept reading
                client.open(f"file:///tmp/doc{sent}.json", text)
                sent += 1
        except (BrokenPipeError, ValueError):
            pass  # the server gave up and left

    writer = threading.Thread(target=keep_opening, daemon=True)
    writer.start()
    while client.proc.poll() is None:
        try:
            peak = max(peak, rss_kib(client.proc.pid))
        except (FileNotFoundError, StopIteration, ProcessLookupError):
            break
        writer.join(timeout=0.05)
    assert client.proc.wait(timeout=DEADLINE) == 6
    log.close()
    assert sent < 20_000, "the server read everything the client sent, whatever it left unread"
    # A megabyte of output waiting stops the reader: the documents read are few, the memory small.
    assert peak - baseline < 96 * 1024, f"RSS grew {(peak - baseline) // 1024} MiB over {sent} documents sent"
    assert "took no output for 2.0 s" in (tmp_path / "stderr").read_text()


def test_shutdown_and_exit_with_output_left_unread_end_with_status_0():
    client = Client("--output-patience", "3", reading=False)
    client.initialize({"debounceMilliseconds": 5000})  # no diagnostics pushed before the exit
    assert read_frame(client.proc.stdout)["id"] == "init"
    client.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    client.open("file:///tmp/doc.json", request(300))
    # The pulled report (600 diagnostics, some 350 KB) is more than a pipe holds and well under the
    # megabyte that stops the reader: `shutdown` and `exit` are read, the rest is never taken.
    client.send({"jsonrpc": "2.0", "id": 1, "method": "textDocument/diagnostic",
                 "params": {"textDocument": {"uri": "file:///tmp/doc.json"}}})
    client.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
    client.send({"jsonrpc": "2.0", "method": "exit"})
    assert client.proc.wait(timeout=DEADLINE) == 0


@pytest.mark.parametrize("body", [b'{"jsonrpc": "2.0", "id": 1, "method": ', b"x" * 2048],
                         ids=["unparseable", "oversize"])
def test_a_bad_request_is_answered_as_the_server_face_answers_it(body):
    """The same bytes to both faces, each with a frame limit of 1 KiB."""
    answers = []
    for command in ([BIN, "lsp", "--max-frame-bytes", "1024"],
                    [BIN, "--store", ":memory:", "--framing", "lsp", "--max-frame-bytes", "1024"]):
        client = Client(command=command)
        client.proc.stdin.write(frame(body))
        client.proc.stdin.flush()
        answers.append(client.until(lambda m: "error" in m))
        client.send({"jsonrpc": "2.0", "id": "bye", "method": "shutdown"})
        client.until(lambda m: m.get("id") == "bye")
        client.send({"jsonrpc": "2.0", "method": "exit"})
        assert client.proc.wait(timeout=DEADLINE) == 0
    lsp, server = answers
    assert lsp["id"] is None and lsp["error"]["code"] == (-32700 if body.startswith(b"{") else -32600)
    assert lsp == server


PUSH = {"request": {"application": "ABCDE-12345", "notifications": [
    {"send_date": "now", "content": "Hello", "title": "Big news", "inbox_image": "https://cdn.example.com/a.png",
     "platforms": [1, 3],
     "data": {"displayType": "captiond", "buttons": [{"title": "Go", "url": "example.com/x"}, {"url": "https://e.com"}]}}]}}


def lint(path, *flags):
    """Lint's findings as the editor shows them (test_lsp.shared: one a problem and place)."""
    out = subprocess.run([BIN, "lint", "--format", "json", "--fail-on", "never", *flags, str(path)],
                         capture_output=True, text=True, timeout=DEADLINE).stdout
    return sorted(shared(json.loads(out.splitlines()[0])["findings"]))


def placed(diagnostics):
    return sorted((d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["code"], d["message"])
                  for d in diagnostics)


@pytest.mark.parametrize("way", ["nested initializationOptions", "flat initializationOptions",
                                 "didChangeConfiguration", "workspace/configuration"])
def test_settings_are_read_the_way_each_editor_gives_them(tmp_path, way):
    """Neovim 0.7 has only `init_options` (nested under `inboxRpc` as documented); Eglot pushes
    `didChangeConfiguration`; current clients answer `workspace/configuration`."""
    path = tmp_path / "request.json"
    path.write_text(json.dumps(PUSH, indent=2) + "\n")
    uri = "file://" + str(path)
    android = lint(path, "--platform", "android")
    assert android != lint(path), "the platform setting changes nothing here"
    client = Client()
    options = {"nested initializationOptions": {"inboxRpc": {"platform": "android"}},
               "flat initializationOptions": {"platform": "android"}}.get(way)
    capabilities = {"workspace": {"configuration": True}} if way == "workspace/configuration" else None
    ready(client, options, capabilities)
    if way == "didChangeConfiguration":
        client.send({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
                     "params": {"settings": {"inboxRpc": {"platform": "android"}}}})
    if way == "workspace/configuration":
        asked = client.until(lambda m: m.get("method") == "workspace/configuration")
        assert asked["params"]["items"] == [{"section": "inboxRpc"}]
        client.send({"jsonrpc": "2.0", "id": asked["id"], "result": [{"platform": "android"}]})
    client.open(uri, path.read_text())
    assert placed(client.diagnostics(uri)["diagnostics"]) == android
    assert client.close() == 0


def data_script(*parts):
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", *parts)


def test_neovim_takes_the_settings_from_init_options_as_documented(tmp_path):
    import shutil
    nvim = shutil.which("nvim")
    assert nvim, "no nvim: script/bootstrap installs Debian's neovim"
    payload, out = tmp_path / "request.json", tmp_path / "out.txt"
    payload.write_text(json.dumps(PUSH, indent=2) + "\n")
    android = lint(payload, "--platform", "android")
    assert android != lint(payload), "the platform setting changes nothing here"
    subprocess.run([nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", f"luafile {data_script('neovim', 'settings-session.lua')}"],
                   env=dict(os.environ, INBOX_RPC_BIN=BIN, INBOX_LSP_FILE=str(payload), OUT=str(out),
                            INIT_OPTIONS=json.dumps({"inboxRpc": {"platform": "android"}})),
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=DEADLINE)
    assert out.read_text().splitlines() == sorted(f"{line} {code} {message}" for line, _, code, message in android)


def test_eglot_takes_the_settings_from_its_workspace_configuration_as_documented(tmp_path):
    """docs/editors.md's `eglot-workspace-configuration`, pushed by Eglot as it connects, before the
    buffer is opened: the first diagnostics Flymake shows are already android's alone."""
    import shutil
    emacs = shutil.which("emacs")
    assert emacs, "no emacs: script/bootstrap installs Debian's emacs-nox and elpa-eglot"
    payload = tmp_path / "request.json"
    payload.write_text(json.dumps(PUSH, indent=2) + "\n")
    android = lint(payload, "--platform", "android")
    assert android != lint(payload), "the platform setting changes nothing here"
    configure = "(setq-default eglot-workspace-configuration '(:inboxRpc (:platform \"android\")))"
    done = subprocess.run([emacs, "--batch", "--eval", configure, "-l", data_script("eglot", "flymake-diagnostics.el")],
                          capture_output=True, text=True, timeout=DEADLINE, stdin=subprocess.DEVNULL,
                          env=dict(os.environ, INBOX_RPC_BIN=BIN, INBOX_LSP_FILE=str(payload)))
    shown = done.stdout.splitlines()
    assert len(shown) == len(android), done
    for line, column, code, message in android:
        assert any(text.startswith(f"{line}:{column} ") and f"[{code}]" in text and message in text
                   for text in shown), (message, shown)
