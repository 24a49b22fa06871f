"""The Debian package: its control fields, then installed with dpkg on this machine, run (version and
a feed.counts round trip), and purged, leaving none of its files behind. (script/package has already
failed the build if lintian reported an error.)"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

from package_support import VERSION, as_root, built, check_backend, check_feed_counts, check_version, run

DEB = built(f"inbox-rpc_{VERSION}_amd64.deb")
BINARY = "/usr/bin/inbox-rpc"


def field(name: str) -> str:
    return run("dpkg-deb", "--field", str(DEB), name).stdout.strip()


def is_installed() -> bool:
    done = subprocess.run(["dpkg-query", "-W", "-f=${Status}", "inbox-rpc"], capture_output=True, text=True)
    return done.returncode == 0 and "installed" in done.stdout.split()


@pytest.fixture(scope="module")
def installed():
    """The files dpkg -L lists once the package is installed; purged at the end whatever happened."""
    assert not is_installed(), "inbox-rpc is already installed here: remove it (dpkg -r inbox-rpc) first"
    run(*as_root("dpkg", "-i", str(DEB)))
    try:
        yield [line for line in run("dpkg", "-L", "inbox-rpc").stdout.splitlines() if line.strip()]
    finally:
        if is_installed():
            subprocess.run(as_root("dpkg", "--purge", "inbox-rpc"), capture_output=True)


def test_control_names_the_release_and_the_computed_dependencies() -> None:
    assert field("Package") == "inbox-rpc" and field("Version") == VERSION and field("Architecture") == "amd64"
    depends = [d.split()[0] for d in field("Depends").split(", ")]
    for library in ("libc6", "libjansson4", "libstdc++6", "libgcc-s1"):
        assert library in depends, field("Depends")
    assert not [d for d in depends if "sqlite" in d], "SQLite is linked in (Sources/CSQLite)"
    assert not [d for d in depends if "curl" in d], "libcurl is loaded only to sync: recommended, not required"
    assert field("Recommends").startswith("libcurl4"), field("Recommends")
    assert "libmicrohttpd12" in field("Recommends"), "loaded by inbox-rpc backend alone"
    assert not [d for d in depends if "microhttpd" in d or "gnutls" in d]


def test_installed_binary_says_what_runs(installed) -> None:
    assert BINARY in installed
    check_version(BINARY)


def test_installed_binary_answers_feed_counts(installed, tmp_path: Path) -> None:
    check_feed_counts(BINARY, tmp_path / "inbox.sqlite")


def test_installed_binary_serves_the_backend_double(installed) -> None:
    check_backend(BINARY)


def test_man_page_licence_and_readme_are_installed(installed) -> None:
    man = "/usr/share/man/man1/inbox-rpc.1.gz"
    for path in (man, "/usr/share/doc/inbox-rpc/copyright", "/usr/share/doc/inbox-rpc/README.md.gz"):
        assert path in installed and os.path.isfile(path), path
    page = gzip.decompress(Path(man).read_bytes()).decode()
    assert ".SH" in page and "\\-\\-store" in page and VERSION in page, "the man page is made from --help"
    assert "inbox\\-rpc \u2014 a JSON" in page and "???" not in page, "--help's text kept in UTF-8"
    assert "Permission is hereby granted" in Path("/usr/share/doc/inbox-rpc/copyright").read_text()


def test_the_installed_language_server_links_each_rule_to_the_installed_page(installed, tmp_path: Path) -> None:
    """`inbox-rpc lsp`'s diagnostics link their rule to /usr/share/doc/inbox-rpc/editors.md, which
    the package installs with an anchor per rule."""
    page = "/usr/share/doc/inbox-rpc/editors.md"
    assert page in installed and 'id="rule-schema"' in Path(page).read_text()
    payload = tmp_path / "n.json"
    payload.write_text('{"inbox_days": 3, "title": "t", "data": {"displayType": 5}}')
    frames = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": payload.as_uri(), "languageId": "json", "version": 1, "text": payload.read_text()}}},
    ]
    body = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(data), data)
                    for data in (json.dumps(frame).encode() for frame in frames))
    server = subprocess.Popen([BINARY, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    hang_guard = threading.Timer(120, server.kill)  # a hang ends the reads below, not the run
    hang_guard.start()
    server.stdin.write(body)
    server.stdin.flush()
    hrefs: list[str] = []
    while not hrefs:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = server.stdout.read(1)
            assert byte, "the server closed its output before publishing diagnostics"
            header += byte
        message = json.loads(server.stdout.read(int(header.split(b":")[1].split(b"\r")[0])))
        if message.get("method") == "textDocument/publishDiagnostics":
            hrefs = [d["codeDescription"]["href"] for d in message["params"]["diagnostics"]]
    hang_guard.cancel()
    server.kill()
    server.wait(30)
    assert hrefs and all(href.startswith(f"file://{page}#rule-") for href in hrefs), hrefs


def test_purge_leaves_nothing_behind(installed) -> None:
    run(*as_root("dpkg", "--purge", "inbox-rpc"))
    assert not is_installed()
    left = [path for path in installed if os.path.lexists(path) and not os.path.isdir(path)]
    assert not left, f"files left after dpkg --purge: {left}"
    assert not os.path.exists("/usr/share/doc/inbox-rpc")
