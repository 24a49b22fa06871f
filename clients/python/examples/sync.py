#!/usr/bin/env python3
"""Sync the inbox with the backend, showing progress; Ctrl-C cancels the sync on the server.

    python3 clients/python/examples/sync.py

Progress (`sync.progress` notifications) goes to stderr, the report to stdout. A server without
`feed.sync`, or without a backend, is reported plainly (exit 6 and 7, as the shell client does).
"""

from __future__ import annotations

import sys

from inbox_rpc_client import BackendNotConfigured, Client, MethodNotFound, RequestCancelled, SyncProgress


def show_progress(progress: SyncProgress) -> None:
    stage = progress.get("stage", "?")
    done, total = progress.get("done"), progress.get("total")
    if total:
        width = 20
        filled = width * (done or 0) // total
        text = f"sync: {stage:<10} [{'#' * filled}{'.' * (width - filled)}] {done or 0}/{total}"
    else:
        text = f"sync: {stage}"
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
    else:
        sys.stderr.write(text + "\n")
    sys.stderr.flush()


def main() -> int:
    with Client.from_env() as inbox:
        try:
            report = inbox.feed_sync(on_progress=show_progress)
        except MethodNotFound:
            print("this inbox-rpc has no feed.sync", file=sys.stderr)
            return 6
        except BackendNotConfigured as error:
            print(f"sync is not set up: {error.message}", file=sys.stderr)
            return 7
        except (RequestCancelled, KeyboardInterrupt):
            print("\nsync cancelled; nothing is lost, pending changes stay pending", file=sys.stderr)
            return 9
        finally:
            if sys.stderr.isatty():
                sys.stderr.write("\n")
        print(
            f"synced: added {report['added']}, updated {report['updated']}, removed {report['removed']}, "
            f"expired {report['expired']}, pushed {report['pushed']}, pending {report['pending']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
