"""The generated declarations are current and type-check a client's use: script/gen-client-stubs
--check passes, mypy accepts the namespaced calls and named errors and refuses a wrong param, an
unknown method or error; tsc does the same for clients/node/contract.d.ts."""

from __future__ import annotations

from python_client_support import REPO_ROOT, watchdog  # noqa: F401  (fixtures; first: it finds the package)

import subprocess
import sys
from pathlib import Path

from stub_checkers import mypy, tsc

GENERATOR = REPO_ROOT / "script" / "gen-client-stubs"

PYTHON_USE = '''
from typing import Optional
from inbox_rpc_client import Client, InboxRpcError

def use(client: Client) -> int:
    page = client.feed.list(limit=5, unreadOnly=True)
    title: Optional[str] = page["items"][0]["title"]
    try:
        client.message.get(id="x")
    except client.errors.MessageNotFound as error:
        print(error.name, error.code, error.data, title)
    except InboxRpcError:
        pass
    tapped = client.button.tap(id="welcome", button=1)
    if tapped["action"]["type"] == "openURL":
        print(tapped["action"]["url"])
    return page["counts"]["total"]
'''
PYTHON_MISUSE = '''
from inbox_rpc_client import Client

def use(client: Client) -> None:
    client.feed.list(limit="five")
    client.message.get()
    client.feed.frobnicate()
    client.errors.NoSuchError
'''
TS_USE = '''
import type { Card, ErrorName, MethodName, Methods, Notifications } from "./contract";
export const params: Methods["feed.list"]["params"] = { limit: 5, kinds: ["banner"] };
declare const page: Methods["feed.list"]["result"];
export const total: number = page.counts.total;
export const name: MethodName = "button.tap";
export const error: ErrorName = "MessageNotFound";
declare const card: Card;
export const title: string | null = card.title;
declare const change: Notifications["feed.changed"];
export const removed: string[] | undefined = change.removed;
'''
TS_MISUSE = '''
import type { ErrorName, MethodName, Methods } from "./contract";
export const params: Methods["feed.list"]["params"] = { limit: "five" };
export const name: MethodName = "feed.frobnicate";
export const error: ErrorName = "NoSuchError";
'''


def test_the_committed_declarations_are_what_the_contract_gives() -> None:
    done = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_mypy_accepts_the_use_of_the_stub_and_refuses_its_misuse(tmp_path: Path) -> None:
    package = REPO_ROOT / "clients" / "python"
    used = mypy(package, PYTHON_USE, tmp_path)
    assert used.returncode == 0, used.stdout
    misused = mypy(package, PYTHON_MISUSE, tmp_path)
    assert misused.returncode == 1
    for problem in ('Argument "limit" to "list" of "FeedMethods" has incompatible type "str"',
                    'Missing named argument "id" for "get" of "MessageMethods"',
                    '"FeedMethods" has no attribute "frobnicate"', '"Errors" has no attribute "NoSuchError"'):
        assert problem in misused.stdout, misused.stdout


def test_tsc_accepts_the_use_of_the_declarations_and_refuses_their_misuse(tmp_path: Path) -> None:
    declarations = REPO_ROOT / "clients" / "node" / "contract.d.ts"
    used = tsc(declarations, TS_USE, tmp_path)
    assert used.returncode == 0, used.stdout
    misused = tsc(declarations, TS_MISUSE, tmp_path)
    assert misused.returncode != 0
    for problem in ("Type 'string' is not assignable to type 'number'", "'\"feed.frobnicate\"' is not assignable",
                    "'\"NoSuchError\"' is not assignable to type 'ErrorName'"):
        assert problem in misused.stdout, misused.stdout
