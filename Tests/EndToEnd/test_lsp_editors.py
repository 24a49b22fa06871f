"""`inbox-rpc lsp` as users of real editors see it: Neovim 0.7's built-in client (headless), Emacs
28's Eglot (with and without markdown-mode) and pytest-lsp with the capabilities VS Code, Neovim and
Emacs send. One request, with four problems on two platforms, is opened, hovered, outlined,
formatted and completed in each; a test whose editor is not installed is skipped, saying so."""

import copy
import json
import os
import shutil
import subprocess

import pytest

import test_lsp
from conftest import BIN

DEADLINE = int(os.environ.get("LSP_TEST_DEADLINE", "60"))  # only catches a hang
HERE = os.path.dirname(os.path.abspath(__file__))

# Text that Markdown would escape or draw (a link, a code span, braces, a URL, HTML), and no backslash.
TITLE = "Sale: [50%](https://x.example) `now` {\"type\":\"none\"} <b>bold</b> *star* https://cdn.example.com/a.png"
# test_lsp.py's request, its notification given that title and these problems.
REQUEST = copy.deepcopy(test_lsp.REQUEST)
REQUEST["request"]["notifications"][0].update(title=TITLE, inbox_days=0, data={
    "displayType": "captioned",
    "buttons": [{"title": "Go", "action": "dismis"}, {"title": "Shop", "url": "example.com/x"}, {"url": "https://x.example/3"}],
    "carousel": [{"image": "https://cdn.example.com/1.png", "title": "One"}],
})
# What is wrong with it: inbox_days under the schema's minimum, a button action no one knows, a button
# url with no scheme, a button with no title. Lint finds each engine warning once a platform and three
# schema breaks (9 findings).
PROBLEMS = 4


def write(tmp_path):
    path = tmp_path / "request.json"
    path.write_text(json.dumps(REQUEST, indent=4) + "\n")
    return path


def lint(path):
    out = subprocess.run([BIN, "lint", "--format", "json", "--fail-on", "never", str(path)],
                         capture_output=True, text=True, timeout=DEADLINE).stdout
    return json.loads(out.splitlines()[0])["findings"]


def tagged(lines, tag):
    return [line[len(tag) + 1:] for line in lines if line.startswith(tag + " ")]


def assert_what_the_user_sees(lines):
    diagnostics = tagged(lines, "diagnostic")
    assert tagged(lines, "diagnostics") == [str(PROBLEMS)], lines
    assert len(diagnostics) == PROBLEMS, diagnostics
    assert any("on ios and android: button 0 action \"dismis\"" in d for d in diagnostics), diagnostics
    hover = "\n".join(tagged(lines, "hover"))
    assert "\\" not in hover, hover  # the payload has no backslash; the hover adds none
    for shown in (TITLE, "https://cdn.example.com/a.png", "button 0", "Go", "dismis"):
        assert shown in hover, (shown, hover)
    completed = tagged(lines, "completed")
    assert completed and completed[0].lstrip() == '"displayType": ', lines


def expected_formatting():
    return json.dumps(REQUEST, indent=2)


# ---------------------------------------------------------------- Neovim


def test_neovim_shows_one_diagnostic_a_problem_a_plain_hover_an_outline_and_applies_edits(tmp_path):
    nvim = shutil.which("nvim")
    if not nvim:
        pytest.skip("no nvim on PATH: script/bootstrap --test installs Debian's neovim")
    path, out = write(tmp_path), tmp_path / "out.txt"
    script = os.path.join(HERE, "data", "neovim", "editing.lua")
    done = subprocess.run([nvim, "--headless", "--clean", "-n", "-u", "NONE", "-c", f"luafile {script}"],
                          env=dict(os.environ, INBOX_RPC_BIN=BIN, INBOX_LSP_FILE=str(path), OUT=str(out)),
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=DEADLINE)
    assert out.exists(), done
    lines = out.read_text().split("\n")
    assert_what_the_user_sees(lines)
    assert tagged(lines, "word") == ['displayType": ']  # what the omnifunc's menu inserts after the quote
    assert tagged(lines, "field") == ["The body, or an object of bodies by language."], lines
    outline = tagged(lines, "outline")
    assert [o.split(" ", 1)[1] for o in outline] == [
        "[Module] request", f"[Struct] {TITLE}", "[Event] Go", "[Event] Shop", "[Event] button 2", "[Field] One"], outline
    assert "\n".join(tagged(lines, "formatted")) == expected_formatting()


# ---------------------------------------------------------------- Eglot


def has_markdown_mode(emacs):
    probe = subprocess.run([emacs, "--batch", "--eval", '(princ (if (locate-library "markdown-mode") "yes" "no"))'],
                           capture_output=True, text=True, timeout=DEADLINE)
    return probe.stdout == "yes"


@pytest.mark.parametrize("markdown", ["0", "1"], ids=["plain", "markdown-mode"])
def test_eglot_shows_one_diagnostic_a_problem_a_plain_hover_an_outline_and_applies_edits(tmp_path, markdown):
    emacs = shutil.which("emacs")
    if not emacs:
        pytest.skip("no emacs on PATH: script/bootstrap --test installs Debian's emacs-nox and elpa-eglot")
    if markdown == "1" and not has_markdown_mode(emacs):
        pytest.skip("no markdown-mode: script/bootstrap --test installs Debian's elpa-markdown-mode")
    path = write(tmp_path)
    script = os.path.join(HERE, "data", "eglot", "editing.el")
    done = subprocess.run([emacs, "--batch", "-l", script], capture_output=True, text=True, timeout=DEADLINE,
                          env=dict(os.environ, INBOX_RPC_BIN=BIN, INBOX_LSP_FILE=str(path), MARKDOWN=markdown),
                          stdin=subprocess.DEVNULL)
    lines = done.stdout.split("\n")
    assert_what_the_user_sees(lines)
    assert tagged(lines, "markdown-mode") == [{"0": "no", "1": "yes"}[markdown]]
    # Imenu groups the outline by kind, naming each entry with its place in the tree.
    outline = tagged(lines, "outline")
    assert {"1 request", "2 Go", "2 Shop", "2 button 2", "2 One"} <= set(outline), (outline, done.stderr)
    assert any(entry.startswith("2 Sale: [50%]") for entry in outline), outline
    assert "\n".join(tagged(lines, "formatted")).rstrip("\n") == expected_formatting()


# ---------------------------------------------------------------- pytest-lsp

try:
    import pytest_lsp
    from lsprotocol import types
    from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
except ImportError:  # the module's other tests still run; these say why they do not
    pytest_lsp = None

CLIENTS = ["visual-studio-code", "neovim@v0.7.0", "neovim@v0.11.0", "emacs"]

if pytest_lsp:
    @pytest_lsp.fixture(config=ClientServerConfig(server_command=[BIN, "lsp", "--stdio"]), params=CLIENTS)
    async def client(lsp_client: LanguageClient, request):
        lsp_client.spec = request.param
        await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities(request.param)))
        yield
        await lsp_client.shutdown_session()
else:
    @pytest.fixture(params=CLIENTS)
    def client():
        pytest.skip("no pytest-lsp: script/bootstrap --python installs Tests/EndToEnd/requirements.txt")


# pytest-lsp checks each answer against the capabilities the client sent: a breach fails the test.
@pytest.mark.asyncio
@pytest.mark.filterwarnings("error::pytest_lsp.checks.LspSpecificationWarning" if pytest_lsp else "default")
async def test_each_clients_capabilities_get_answers_it_takes(client, tmp_path):
    path = write(tmp_path)
    uri = path.as_uri()
    text = path.read_text()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text)))
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert len(client.diagnostics[uri]) == PROBLEMS, client.diagnostics[uri]
    # lint reports an engine warning once a platform and a schema break beside it; the editor once
    assert len(lint(path)) == 9

    lines = text.split("\n")
    row = next(i for i, line in enumerate(lines) if '"content"' in line)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=row, character=4)))
    assert "\\" not in hover.contents.value and TITLE in hover.contents.value

    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    names = [s.name for s in symbols]
    if isinstance(symbols[0], types.DocumentSymbol):
        names += [c.name for c in symbols[0].children] + [g.name for g in symbols[0].children[0].children]
    assert {"request", TITLE, "Go", "Shop", "One"} <= set(names), names

    edits = await client.text_document_formatting_async(types.DocumentFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri), options=types.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert len(edits) == 1 and edits[0].new_text == expected_formatting()
    # A range formats the innermost object holding it, from the indentation of the line it opens on.
    row = next(i for i, line in enumerate(lines) if '"buttons": [' in line)
    edits = await client.text_document_range_formatting_async(types.DocumentRangeFormattingParams(
        text_document=types.TextDocumentIdentifier(uri=uri), options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        range=types.Range(start=types.Position(line=row, character=0), end=types.Position(line=row, character=len(lines[row])))))
    opens = next(i for i, line in enumerate(lines) if '"data": {' in line)
    base = " " * (len(lines[opens]) - len(lines[opens].lstrip()))
    data = REQUEST["request"]["notifications"][0]["data"]
    assert [(e.range.start.line, e.new_text) for e in edits] == [(opens, json.dumps(data, indent=2).replace("\n", "\n" + base))]
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert folds[0].start_line == 0 and folds[0].end_line == len(text.rstrip("\n").split("\n")) - 2

    lines.insert(next(i for i, line in enumerate(lines) if '"data": {' in line) + 1, '                    "disp')
    typed = "\n".join(lines)
    row = next(i for i, line in enumerate(lines) if line.endswith('"disp'))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=typed)]))
    items = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=row, character=len(lines[row]))))
    item = next(i for i in items.items if i.label == "displayType")
    edit = item.text_edit
    line = lines[row][:edit.range.start.character] + edit.new_text + lines[row][edit.range.end.character:]
    assert line.lstrip().startswith('"displayType": '), line
    offered = client.capabilities.text_document.completion.completion_item
    snippets, formats = offered and offered.snippet_support, offered and offered.documentation_format
    assert (item.insert_text_format == types.InsertTextFormat.Snippet) == bool(snippets)
    if snippets:
        assert '"${1|banner,captioned,' in edit.new_text
    assert isinstance(item.documentation, str) == (not formats), item.documentation
