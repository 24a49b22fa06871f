#!/usr/bin/env python3
"""Sync the inbox with the backend, showing progress; Ctrl-C cancels the sync on the server.

    python3 clients/python/examples/sync.py [--force]

Progress (`sync.progress` notifications) goes to stderr, the report to stdout. A server without
`feed.sync`, or without a backend, is reported plainly (exit 6 and 7, as the shell client does);
a cancelled sync exits 9.
"""

from __future__ import annotations

import argparse
import sys

from inbox_rpc_client import Client, Notification


def show_progress(notification: Notification) -> None:
    stage, done, total = (notification.params.get(key) for key in ("stage", "done", "total"))
    if total:
        filled = 20 * (done or 0) // total
        text = f"sync: {stage:<10} [{'#' * filled}{'.' * (20 - filled)}] {done or 0}/{total}"
    else:
        text = f"sync: {stage}"
    sys.stderr.write("\r\033[K" + text if sys.stderr.isatty() else text + "\n")
    sys.stderr.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="fetch even within the minimum interval")
    options = parser.parse_args()

    with Client.from_env() as inbox:
        if "sync" not in dir(inbox.feed):
            print("this inbox-rpc has no feed.sync", file=sys.stderr)
            return 6
        inbox.on("sync.progress", show_progress)
        try:
            # start + result rather than a plain call: Ctrl-C while waiting sends $/cancelRequest.
            report = inbox.feed.sync.start(force=options.force or None).result()
        except inbox.errors.BackendNotConfigured as error:
            print(f"sync is not set up: {error.data['reason']}", file=sys.stderr)
            return 7
        except (inbox.errors.RequestCancelled, KeyboardInterrupt):
            print("\nsync cancelled; nothing is lost, pending changes stay pending", file=sys.stderr)
            return 9
        print(
            f"synced: added {report['added']}, updated {report['updated']}, removed {report['removed']}, "
            f"expired {report['expired']}, pushed {report['pushed']}, pending {report['pending']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
