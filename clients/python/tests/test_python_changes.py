"""`Client.changes`: a script that saves its cursor resumes from it after a restart and hears what
another process changed while it was stopped; a cursor the journal no longer reaches is refused
with the contract's CursorTooOld, which tells the host to list the feed again."""

from __future__ import annotations

from python_client_support import server_bin, store, watchdog  # noqa: F401  (fixtures; first: it finds the package)

import sqlite3

import pytest

from inbox_rpc_client import Client, InboxRpcError

#: What the journal keeps (docs/many-processes.md#the-journal), and a pruning's step beyond it.
KEPT = 65_536


def test_a_saved_cursor_resumes_after_a_restart_and_hears_another_process(server_bin: str, store: str) -> None:
    with Client(server_bin, store=store, sample_feed=True) as script:
        changes = script.changes()
        assert list(changes) == []  # from now
        saved = changes.cursor
    # While the script is stopped, another process on the store dismisses one card and reads another.
    with Client(server_bin, store=store) as other:
        other.message.dismiss(id="welcome")
        other.message.markRead(ids=["summer-sale"])
        other.feed.seen(appeared=["new-arrivals"])
    with Client(server_bin, store=store) as script:
        changes = script.changes(saved, limit=1)  # one a page: the iterator goes on by itself
        told = [(change["change"], change["id"], change.get("fields")) for change in changes]
        assert told == [("removed", "welcome", None), ("updated", "summer-sale", ["status"]),
                        ("updated", "new-arrivals", ["seen"])]
        assert list(script.changes(changes.cursor)) == []  # nothing after the last one
        assert script.feed.counts()["unseen"] == 7


def test_a_cursor_older_than_the_journal_is_refused_with_cursor_too_old(server_bin: str, store: str) -> None:
    with Client(server_bin, store=store, sample_feed=True) as script:
        changes = script.changes()
        list(changes)
        saved = changes.cursor
    # More changes than the journal keeps, written by another program: the triggers are the file's.
    with sqlite3.connect(store) as database:
        database.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO messages"
            " (id, payload, ingested_at, source, pinned, sort_time, server_status, status)"
            " SELECT 'bulk' || i, '{}', 0, 'backend', 0, i, 1, 1 FROM n", (KEPT + 2048,))
    with Client(server_bin, store=store) as script:
        with pytest.raises(script.errors.CursorTooOld) as refused:
            list(script.changes(saved))
        assert isinstance(refused.value, InboxRpcError) and refused.value.code == -32021
        assert "list the feed again" in str(refused.value)
        fresh = script.changes()
        list(fresh)
        assert list(script.changes(fresh.cursor)) == []
