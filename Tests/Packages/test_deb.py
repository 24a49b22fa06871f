"""The Debian package: its control fields, then installed with dpkg on this machine, run (version and
a feed.counts round trip), and purged, leaving none of its files behind. (script/package has already
failed the build if lintian reported an error.)"""

from __future__ import annotations

import gzip
import os
import subprocess
from pathlib import Path

import pytest

from package_support import VERSION, as_root, built, check_feed_counts, check_version, run

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
    for library in ("libc6", "libjansson4", "libsqlite3-0", "libstdc++6", "libgcc-s1"):
        assert library in depends, field("Depends")
    assert not [d for d in depends if "curl" in d], "libcurl is loaded only to sync: recommended, not required"
    assert field("Recommends").startswith("libcurl4"), field("Recommends")


def test_installed_binary_says_what_runs(installed) -> None:
    assert BINARY in installed
    check_version(BINARY)


def test_installed_binary_answers_feed_counts(installed, tmp_path: Path) -> None:
    check_feed_counts(BINARY, tmp_path / "inbox.sqlite")


def test_man_page_licence_and_readme_are_installed(installed) -> None:
    man = "/usr/share/man/man1/inbox-rpc.1.gz"
    for path in (man, "/usr/share/doc/inbox-rpc/copyright", "/usr/share/doc/inbox-rpc/README.md.gz"):
        assert path in installed and os.path.isfile(path), path
    page = gzip.decompress(Path(man).read_bytes()).decode()
    assert ".SH" in page and "\\-\\-store" in page and VERSION in page, "the man page is made from --help"
    assert "inbox\\-rpc \u2014 a JSON" in page and "???" not in page, "--help's text kept in UTF-8"
    assert "Permission is hereby granted" in Path("/usr/share/doc/inbox-rpc/copyright").read_text()


def test_purge_leaves_nothing_behind(installed) -> None:
    run(*as_root("dpkg", "--purge", "inbox-rpc"))
    assert not is_installed()
    left = [path for path in installed if os.path.lexists(path) and not os.path.isdir(path)]
    assert not left, f"files left after dpkg --purge: {left}"
    assert not os.path.exists("/usr/share/doc/inbox-rpc")
