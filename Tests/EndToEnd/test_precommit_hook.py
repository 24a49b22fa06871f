"""The repository's `.pre-commit-hooks.yaml`, run by the real pre-commit (`pre-commit try-repo`) on a
temporary git repository of payloads, with the built inbox-rpc on PATH and no network."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from conftest import BIN, REPO_ROOT

CLEAN = b'{"ios_title": "Hi", "content": "Body", "inbox_days": 7}\n'
DEGRADING = b"""{
  "request": {
    "notifications": [
      {"ios_title": "Sale", "content": "Swipe", "inbox_days": 7,
       "data": {"displayType": "carousel", "carousel": []}}
    ]
  }
}
"""


def git(cwd, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Payloads", "-c", "user.email=payloads@example.com", "-c", "commit.gpgsign=false",
         *args], cwd=cwd, check=True, capture_output=True, timeout=30)


def test_the_hook_passes_a_clean_commit_and_fails_a_degrading_payload_at_its_position(tmp_path):
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    shutil.copy(os.path.join(REPO_ROOT, ".pre-commit-hooks.yaml"), hooks)
    git(hooks, "init", "-q")
    git(hooks, "add", ".pre-commit-hooks.yaml")
    git(hooks, "commit", "-q", "-m", "hooks")

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(os.path.abspath(BIN), bin_dir / "inbox-rpc")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PRE_COMMIT_COLOR": "never"}
    env.pop("GIT_DIR", None)

    payloads = tmp_path / "payloads"
    payloads.mkdir()
    git(payloads, "init", "-q")
    (payloads / "welcome.json").write_bytes(CLEAN)
    git(payloads, "add", "welcome.json")

    def try_repo() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "inbox-rpc-lint"],
                              cwd=payloads, env=env, capture_output=True, text=True, timeout=120)

    clean = try_repo()
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "inbox-rpc lint" in clean.stdout and "Passed" in clean.stdout
    git(payloads, "commit", "-q", "-m", "welcome")

    (payloads / "sale.json").write_bytes(DEGRADING)
    git(payloads, "add", "sale.json")
    failed = try_repo()
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "Failed" in failed.stdout
    assert "sale.json:5:56: warning [degraded] carousel has no usable slide" in failed.stdout
