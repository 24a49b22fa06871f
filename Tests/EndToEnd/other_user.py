"""Acting as another local user (`nobody`, uid 65534) in a test: root and setpriv are needed, and
that user must be able to run the binary. The checkout may sit under a directory only its owner may
enter (a 0700 home directory), so the binary another user runs is a copy in a 0755 directory of its
own under the system's temporary directory, made once per session (`other_user_bin` in conftest.py).
A test that cannot act as another user skips, saying why."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile

import pytest

NOBODY = 65534


def other_user_problem() -> str | None:
    """Why this process cannot act as another user, or None."""
    if os.geteuid() != 0:
        return "needs root to create or own files as another user (uid 65534)"
    if shutil.which("setpriv") is None:
        return "needs setpriv (util-linux) to act as another user"
    return None


def as_nobody(*cmd: str) -> list[str]:
    """`cmd` run as `nobody`, with no groups."""
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *cmd]


def _others_may_enter(directory: str) -> bool:
    """Whether every directory from / down to `directory` lets others search it."""
    path = os.path.abspath(directory)
    while True:
        if not os.stat(path).st_mode & stat.S_IXOTH:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def copy_for_other_users(binary: str) -> tuple[str, str]:
    """A copy of `binary` that any user may run: (its directory, its path). Skips when the system's
    temporary directory is closed to others."""
    base = tempfile.gettempdir()
    if not _others_may_enter(base):
        pytest.skip(f"{base} is closed to other users: no copy of the binary they may run can be made")
    directory = tempfile.mkdtemp(prefix="inbox-rpc-bin-", dir=base)
    os.chmod(directory, 0o755)
    path = os.path.join(directory, os.path.basename(binary))
    shutil.copy2(binary, path)
    os.chmod(path, 0o755)
    return directory, path
