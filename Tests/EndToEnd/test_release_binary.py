"""The shipped binary links what a start needs: the standard library (statically), jansson, SQLite
and glibc, and nothing of Foundation, whose static copy with ICU quadrupled the binary and the
loader's work at every start (docs/performance.md). Checked on the symbols of the release build."""

from __future__ import annotations

import os
import subprocess

import pytest

pytestmark = pytest.mark.release_binary  # script/test runs these once the release build is done

RELEASE_BIN = os.environ.get("INBOX_RPC_RELEASE_BIN", os.path.join(os.getcwd(), ".build/release/inbox-rpc"))


def test_the_release_binary_links_no_foundation():
    if not os.path.exists(RELEASE_BIN):
        pytest.fail(f"no release binary at {RELEASE_BIN} (swift build -c release -Xswiftc -static-stdlib)", pytrace=False)
    symbols = subprocess.run(["nm", RELEASE_BIN], capture_output=True, text=True, timeout=300, check=True).stdout
    foundation = [line for line in symbols.splitlines() if "Foundation" in line.split()[-1]]
    assert foundation == [], foundation[:5]
