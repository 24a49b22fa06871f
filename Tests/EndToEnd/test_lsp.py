"""`inbox-rpc lsp` driven by pygls's LanguageClient (PyPI), every message the server sends read
into lsprotocol's LSP 3.17 model (pygls structures each reply and notification with it; the
server's own requests and notifications are structured here too)."""

import asyncio
import json
import os
import subprocess
import tempfile
import urllib.parse

import pytest
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.lsp.client import LanguageClient

from conftest import BIN

CONVERTER = get_converter()
DEADLINE = int(os.environ.get("LSP_TEST_DEADLINE", "60"))  # only catches a hang

REQUEST = {
    "request": {
        "application": "ABCDE-12345",
        "notifications": [
            {
                "send_date": "now",
                "content": "Hello",
                "title": "Big [news](javascript:alert(1)) <img src=x onerror=alert(1)> **bold** `code` ![i](http://x/y.png)",
                "inbox_image": "https://cdn.example.com/a.png",
                "platforms": [1, 3],
                "data": {
                    "displayType": "captiond",
                    "buttons": [{"title": "Go", "url": "example.com/x"}, {"url": "https://e.com"}],
                },
            }
        ],
    }
}


def lint_json(path, *flags):
    out = subprocess.run([BIN, "lint", "--format", "json", "--fail-on", "never", *flags, path],
                         capture_output=True, text=True, timeout=DEADLINE).stdout
    return json.loads(out.splitlines()[0])["findings"]


class Session:
    """One server and one client; diagnostics kept as published, by URI."""

    def __init__(self, encodings=None, configuration=None):
        self.client = LanguageClient("inbox-rpc-tests", "1")
        self.published = {}
        self.changed = asyncio.Event()
        self.encodings = encodings
        self.configuration = configuration
        self.configuration_asks = 0

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: types.PublishDiagnosticsParams):
            self.published[params.uri] = params
            self.changed.set()

        @self.client.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams):
            assert params.items[0].section == "inboxRpc"
            self.configuration_asks += 1
            return [self.configuration or {}]

    async def __aenter__(self):
        await self.client.start_io(BIN, "lsp", "--stdio")
        general = types.GeneralClientCapabilities(position_encodings=self.encodings) if self.encodings else None
        caps = types.ClientCapabilities(
            general=general, workspace=types.WorkspaceClientCapabilities(configuration=self.configuration is not None))
        self.init = await asyncio.wait_for(self.client.initialize_async(types.InitializeParams(
            capabilities=caps, process_id=None, root_uri=None,
            workspace_folders=[types.WorkspaceFolder(uri="file:///tmp", name="tmp")])), DEADLINE)
        self.client.initialized(types.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        await asyncio.wait_for(self.client.shutdown_async(None), DEADLINE)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), DEADLINE)

    def open(self, uri, text, version=1):
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="json", version=version, text=text)))

    async def diagnostics_for(self, uri, version=None):
        async def wait():
            while True:
                got = self.published.get(uri)
                if got is not None and (version is None or got.version == version):
                    return got
                self.changed.clear()
                await self.changed.wait()
        return await asyncio.wait_for(wait(), DEADLINE)


def run(body):
    asyncio.run(body())


def write_request(tmp_path, value=REQUEST, indent=2):
    path = tmp_path / "request.json"
    path.write_text(json.dumps(value, indent=indent) + "\n")
    return str(path), "file://" + str(path)


PLATFORMS = ("ios", "android", "macos", "windows", "amazon", "safari", "chrome", "firefox", "huawei")


def shared(findings):
    """Lint's findings as the editor shows them: one a problem and place, a platform's verdicts of it
    said once (`on ios: x` and `on android: x` become `on ios and android: x`), and a schema break at a
    value the engine warns about said in that warning (`<warning>; <break>`)."""
    said = per_platform(findings)
    breaks = {}
    for line, column, rule, message in said:
        if rule == "schema":
            breaks.setdefault((line, column), message)
    warned = {(line, column) for line, column, rule, _ in said if rule != "schema"}
    out, told = [], set()
    for line, column, rule, message in said:
        if rule == "schema":
            if (line, column) not in warned:
                out.append((line, column, rule, message))
        elif (line, column) in breaks and (line, column) not in told:
            told.add((line, column))
            out.append((line, column, rule, f"{message}; {breaks[(line, column)]}"))
        else:
            out.append((line, column, rule, message))
    return out


def per_platform(findings):
    merged = {}
    for f in findings:
        platform, rest = None, f["message"]
        if rest.startswith("on ") and ": " in rest and rest[3:rest.index(": ")] in PLATFORMS:
            platform, rest = rest[3:rest.index(": ")], rest[rest.index(": ") + 2:]
        merged.setdefault((f["line"], f["column"], f["ruleId"], rest, platform is None), []).append(platform)
    out = []
    for (line, column, rule, rest, alone), platforms in merged.items():
        names = list(dict.fromkeys(platforms))
        said = rest if alone else "on " + (" and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]) + ": " + rest
        out.append((line, column, rule, said))
    return out


def same_as_lint(diagnostics, findings):
    got = sorted((d.range.start.line + 1, d.range.start.character + 1, d.code, d.message) for d in diagnostics)
    assert got == sorted(shared(findings))


def test_initialize_says_what_it_does_and_negotiates_encodings():
    async def body():
        async with Session() as s:
            caps = s.init.capabilities
            assert caps.position_encoding == types.PositionEncodingKind.Utf16
            assert caps.text_document_sync.change == types.TextDocumentSyncKind.Incremental
            assert caps.hover_provider and caps.completion_provider and caps.code_action_provider
            assert caps.diagnostic_provider.inter_file_dependencies is False
            assert list(caps.execute_command_provider.commands) == ["inboxRpc.preview"]
            assert caps.workspace.workspace_folders.supported
        async with Session(encodings=["utf-32", "utf-16"]) as s:
            assert s.init.capabilities.position_encoding == types.PositionEncodingKind.Utf32
        async with Session(encodings=["utf-16", "utf-8"]) as s:
            assert s.init.capabilities.position_encoding == types.PositionEncodingKind.Utf8
    run(body)


def test_exit_without_shutdown_is_status_1_and_requests_before_initialize_are_refused():
    proc = subprocess.Popen([BIN, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def frame(message):
        body = json.dumps(message).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    out, _ = proc.communicate(frame({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}})
                              + frame({"jsonrpc": "2.0", "method": "exit"}), timeout=DEADLINE)
    assert proc.returncode == 1
    reply = json.loads(out.split(b"\r\n\r\n", 1)[1])
    assert reply["error"]["code"] == -32002


def test_diagnostics_cover_the_offending_value_and_equal_lint(tmp_path):
    path, uri = write_request(tmp_path)
    text = open(path).read()

    async def body():
        async with Session() as s:
            s.open(uri, text)
            published = await s.diagnostics_for(uri, 1)
            same_as_lint(published.diagnostics, lint_json(path))
            # The schema's break and the engine's warning at one value are one diagnostic, an error.
            display = next(d for d in published.diagnostics if (d.data or {}).get("schemaPath", "").endswith("displayType/pattern"))
            line = text.splitlines()[display.range.start.line]
            assert line[display.range.start.character:display.range.end.character] == '"captiond"'
            assert display.severity == types.DiagnosticSeverity.Error
            # The rule's description, in the checkout's docs/editors.md beside the binary (a package's
            # in /usr/share/doc/inbox-rpc): a page that exists, with the rule's anchor.
            page, anchor = display.code_description.href.split("#")
            assert page.startswith("file:///") and anchor == f"rule-{display.code.lower()}"
            assert f'id="{anchor}"' in open(urllib.parse.unquote(page[len("file://"):]), encoding="utf-8").read()
            assert {"unknownDisplayType", "buttonDropped"} <= {d.code for d in published.diagnostics}
            # Pull diagnostics say the same.
            pulled = await asyncio.wait_for(s.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=uri))), DEADLINE)
            assert isinstance(pulled, types.RelatedFullDocumentDiagnosticReport)
            assert sorted(map(str, pulled.items)) == sorted(map(str, published.diagnostics))
            again = await asyncio.wait_for(s.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=pulled.result_id)), DEADLINE)
            assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    run(body)


def test_incremental_and_full_changes_and_close(tmp_path):
    path, uri = write_request(tmp_path)
    text = open(path).read()

    async def body():
        async with Session() as s:
            s.open(uri, text)
            await s.diagnostics_for(uri, 1)
            line_no = next(i for i, l in enumerate(text.splitlines()) if "captiond" in l)
            col = text.splitlines()[line_no].index("captiond")
            # "captiond" -> "captioned": one character inserted.
            s.client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(line=line_no, character=col + 7),
                                      end=types.Position(line=line_no, character=col + 7)), text="e")]))
            published = await s.diagnostics_for(uri, 2)
            assert not any(d.code == "unknownDisplayType" for d in published.diagnostics)
            fixed = text.replace("captiond", "captioned")
            open(path, "w").write(fixed)
            same_as_lint(published.diagnostics, lint_json(path))
            s.client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text="{\"request\": ")]))
            broken = await s.diagnostics_for(uri, 3)
            assert [d.code for d in broken.diagnostics] == ["notJSON"]
            s.client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            await asyncio.wait_for(_until(lambda: len(s.published[uri].diagnostics) == 0, s), DEADLINE)
    run(body)


async def _until(predicate, s):
    while not predicate():
        s.changed.clear()
        await s.changed.wait()


def hover_markdown(s, uri, line, character):
    async def get():
        return await asyncio.wait_for(s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=line, character=character))),
            DEADLINE)
    return get()


def test_hover_shows_the_card_per_platform_with_payload_text_escaped(tmp_path):
    path, uri = write_request(tmp_path)
    text = open(path).read()
    line_no = next(i for i, l in enumerate(text.splitlines()) if '"content"' in l)

    async def body():
        async with Session() as s:
            s.open(uri, text)
            hover = await hover_markdown(s, uri, line_no, 10)
            assert hover.contents.kind == types.MarkupKind.Markdown
            md = hover.contents.value
            assert "on ios" in md and "on android" in md and "`classic`" in md or "`captioned`" in md
            assert "button 0: `Go`" in md
            # Why the card is what it is, the resolver's rules in order, as message.explain says them.
            assert "- why, rule by rule:\n  1. `" in md and "Card kinds (docs/engine.md#card-kinds): " in md
            # On the member's name, the schema's description comes first.
            assert md.startswith("The body, or an object of bodies by language.\n\n---\n\n")
            # Payload text is a code span, fenced by more backticks than any run in it: each markup
            # trick shows as written, with no backslash escape, and is never a link, image or tag.
            title = REQUEST["request"]["notifications"][0]["title"]
            assert f"- title: ``{title}``" in md
            assert "\\" not in md
            # Outside any notification (the application code): nothing to say; on its name, what it is.
            assert await hover_markdown(s, uri, 2, 22) is None
            assert (await hover_markdown(s, uri, 2, 8)).contents.value == "The application code."
    run(body)


def published(tmp_path, text):
    """The diagnostics published for `text`, opened as a file."""
    uri = "file://" + str(tmp_path / "n.json")

    async def body():
        async with Session() as s:
            s.open(uri, text)
            return (await s.diagnostics_for(uri, 1)).diagnostics
    return asyncio.run(body())


def test_a_malformed_title_is_flagged_at_its_value_not_the_whole_document(tmp_path):
    text = '{\n  "inbox_image": "https://x/y.png",\n  "content": "c",\n  "title": 5\n}\n'
    [invalid] = [d for d in published(tmp_path, text) if d.code == "invalidField"]
    assert (invalid.range.start.line, invalid.range.start.character) == (3, 11)
    assert (invalid.range.end.line, invalid.range.end.character) == (3, 12)


def test_hostile_text_in_diagnostic_messages_stays_plain_text(tmp_path):
    hostile = {"inbox_image": "https://x/y.png", "title": "t", "content": "c",
               "data": {"displayType": "<b>x</b>](javascript:alert(1))"}}
    diagnostics = published(tmp_path, json.dumps(hostile, indent=2))
    assert diagnostics
    for d in diagnostics:
        # A diagnostic's message is plain text by LSP; it never carries markup kinds.
        assert isinstance(d.message, str)
        assert "\x1b" not in d.message


def test_another_json_file_gets_no_outline_and_no_field_description(tmp_path):
    # `link` is a notification's member too, but nothing here makes this file a payload.
    text = '{\n  "name": "pkg",\n  "version": "1",\n  "link": "https://example.com"\n}\n'
    uri = "file://" + str(tmp_path / "package.json")

    async def body():
        async with Session() as s:
            s.open(uri, text)
            symbols = await asyncio.wait_for(s.client.text_document_document_symbol_async(
                types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))), DEADLINE)
            assert not symbols
            assert await hover_markdown(s, uri, 3, 5) is None
    run(body)


def test_completion_from_the_schemas(tmp_path):
    text = '{\n  "inbox_image": "https://x/y.png",\n  "data": {"displayType": "", "buttons": [{"action": ""}]}\n}\n'
    uri = "file://" + str(tmp_path / "n.json")

    async def body():
        async with Session() as s:
            s.open(uri, text)

            async def complete(line, character):
                got = await asyncio.wait_for(s.client.text_document_completion_async(types.CompletionParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=types.Position(line=line, character=character))), DEADLINE)
                return {i.label: i for i in got.items}
            kinds = await complete(2, text.splitlines()[2].index('""') + 1)
            assert set(kinds) == {"banner", "captioned", "classic", "carousel", "video", "wallet"}
            # A client that lists no documentation format gets a plain string.
            assert "card kind" in kinds["video"].documentation
            assert kinds["video"].text_edit.new_text == 'video"'  # after the quote typed, up to the closing one
            actions = await complete(2, text.splitlines()[2].rindex('""') + 1)
            assert set(actions) == {"dismiss", "markRead", "custom"}
            keys = await complete(1, 2)
            assert {"title", "content", "inbox_image", "data"} <= set(keys)
            assert keys["inbox_image"].kind == types.CompletionItemKind.Property
            data_keys = await complete(2, text.splitlines()[2].index("{") + 1)
            assert {"displayType", "buttons", "carousel", "video", "wallet"} <= set(data_keys)
    run(body)


def test_code_action_fixes_an_unknown_display_type(tmp_path):
    path, uri = write_request(tmp_path)
    text = open(path).read()

    async def body():
        async with Session() as s:
            s.open(uri, text)
            published = await s.diagnostics_for(uri, 1)
            # One diagnostic for the problem both platforms' verdicts find, and one fix for it, even
            # from a client that lists it twice.
            [unknown] = [d for d in published.diagnostics if d.code == "unknownDisplayType"]
            assert unknown.message.startswith("on ios and android: ")
            actions = await asyncio.wait_for(s.client.text_document_code_action_async(types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri), range=unknown.range,
                context=types.CodeActionContext(diagnostics=[unknown, unknown]))), DEADLINE)
            [action] = actions
            assert action.kind == types.CodeActionKind.QuickFix
            [edit] = action.edit.changes[uri]
            assert edit.new_text == "captioned"
            lines = text.splitlines(keepends=True)
            line = lines[edit.range.start.line]
            lines[edit.range.start.line] = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
            fixed = "".join(lines)
            assert fixed == text.replace('"captiond"', '"captioned"')  # the layout is kept
    run(body)


def test_preview_command_returns_the_page(tmp_path):
    path, uri = write_request(tmp_path)

    async def body():
        async with Session() as s:
            s.open(uri, open(path).read())
            result = await asyncio.wait_for(s.client.workspace_execute_command_async(types.ExecuteCommandParams(
                command="inboxRpc.preview", arguments=[uri])), DEADLINE)
            html = result["html"]
            assert "Content-Security-Policy" in html and "<script" not in html
            assert "<img src=x" not in html and "&lt;img src=x" in html
    run(body)


def test_configuration_picks_the_platform(tmp_path):
    path, uri = write_request(tmp_path)
    text = open(path).read()
    line_no = next(i for i, l in enumerate(text.splitlines()) if '"content"' in l)

    async def body():
        async with Session(configuration={"platform": "android"}) as s:
            s.open(uri, text)
            await asyncio.wait_for(_until(lambda: uri in s.published and s.published[uri].diagnostics and not any(
                "on ios" in d.message for d in s.published[uri].diagnostics), s), DEADLINE)
            assert s.configuration_asks == 1
            same_as_lint(s.published[uri].diagnostics, lint_json(path, "--platform", "android"))
            hover = await hover_markdown(s, uri, line_no, 10)
            assert "on android" in hover.contents.value and "on ios" not in hover.contents.value
            s.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
                settings={"inboxRpc": {"platform": "ios"}}))
            hover = await hover_markdown(s, uri, line_no, 10)
            assert "on ios" in hover.contents.value and "on android" not in hover.contents.value
    run(body)


def test_typing_one_character_at_a_time_ends_where_lint_does(tmp_path):
    notification = {"send_date": "now", "title": "T", "content": "C", "inbox_image": "https://x/y.png",
                    "data": {"displayType": "banner"}}
    value = {"request": {"application": "A", "notifications": [dict(notification, title=f"T{i}") for i in range(230)]}}
    path, uri = write_request(tmp_path, value)
    text = open(path).read()
    assert len(text.splitlines()) >= 2000
    # Typed into the middle of the file: a displayType changed, character by character, and a button.
    target = text.index('"banner"', len(text) // 2) + 1
    typed = 'carousel", "buttons": [{"url": "example.com"}], "x": "'

    async def body():
        async with Session() as s:
            s.open(uri, text)
            await s.diagnostics_for(uri, 1)
            current = text
            version = 1
            offset = target
            for ch in typed:
                version += 1
                before = current[:offset]
                line = before.count("\n")
                character = len(before) - (before.rfind("\n") + 1)
                s.client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(line=line, character=character),
                                          end=types.Position(line=line, character=character)), text=ch)]))
                current = current[:offset] + ch + current[offset:]
                offset += 1
            published = await s.diagnostics_for(uri, version)
            open(path, "w").write(current)
            s.client.text_document_did_save(types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            assert published.diagnostics
            same_as_lint(published.diagnostics, lint_json(path))
    run(body)


SMALL = ('{"inbox_image": "https://x/y.png", "title": "T", "content": "C",\n'
         ' "data": {"displayType": "captiond"}}\n')


def test_neovim_shows_diagnostics_hover_completion_and_applies_a_fix(tmp_path):
    import shutil
    nvim = shutil.which("nvim")
    if not nvim:
        pytest.skip("no nvim on PATH: script/bootstrap --test installs Debian's neovim")
    payload, out = tmp_path / "n.json", tmp_path / "out.txt"
    payload.write_text(SMALL)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "neovim", "lsp-session.lua")
    subprocess.run([nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", f"luafile {script}"],
                   env=dict(os.environ, INBOX_RPC_BIN=BIN, INBOX_LSP_FILE=str(payload), OUT=str(out)),
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=DEADLINE)
    assert out.read_text().splitlines() == [
        "encoding utf-16",
        "diagnostic 2:26-36 severity=1 unknownDisplayType",
        "hover captioned",
        "completion banner,captioned,carousel,classic,video,wallet",
        'fixed  "data": {"displayType": "captioned"}}',
    ]


def test_eglot_shows_the_diagnostics_through_flymake(tmp_path):
    import shutil
    emacs = shutil.which("emacs")
    if not emacs:
        pytest.skip("no emacs on PATH: script/bootstrap --test installs Debian's emacs-nox and elpa-eglot")
    payload = tmp_path / "n.json"
    payload.write_text(SMALL)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "eglot", "flymake-diagnostics.el")
    done = subprocess.run([emacs, "--batch", "-l", script], capture_output=True, text=True, timeout=DEADLINE,
                          env=dict(os.environ, INBOX_RPC_BIN=BIN, INBOX_LSP_FILE=str(payload)), stdin=subprocess.DEVNULL)
    lines = done.stdout.splitlines()
    # The break and the engine's warning at one value, one diagnostic (lint lists both).
    assert [line.split(" ", 2)[:2] for line in lines] == [["2:26", "eglot-error"]], done
    assert "[unknownDisplayType]" in lines[0] and "must be one of" in lines[0]
    findings = lint_json(str(payload))
    assert sorted(f"{f['line']}:{f['column']}" for f in findings) == ["2:26", "2:26"]
