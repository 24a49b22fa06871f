#!/usr/bin/env python3
"""Time from a `didChange` to the diagnostics of that version, from `inbox-rpc lsp`, beside the
`inbox-rpc lint --format json` process on the same file in the same run; and the server's memory
(RSS) with 1,000 documents open, beside the same server with none.

Files of 200 and 5,000 lines (createMessage requests of 9-line notifications, one with a warning).
Each edit changes one character of a title in the middle of the file; the server is started with
`debounceMilliseconds: 0` so the figure is the server's work, not its wait. p50 and p99 of each.
The memory: 1,000 different 200-line documents opened, each waited for until its diagnostics are
published, then VmRSS from /proc.

    INBOX_RPC_BIN=.build/release/inbox-rpc python3 bench/lsp_latency.py [--edits N] [--write]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_section import publish_current  # noqa: E402

BIN = os.environ.get("INBOX_RPC_BIN", os.path.join(os.path.dirname(__file__), "..", ".build", "release", "inbox-rpc"))


def request(lines):
    notes = [{"send_date": "now", "title": f"T{i}", "content": "C", "inbox_image": "https://x/y.png",
              "data": {"displayType": "captioned" if i else "captiond"}} for i in range(max(1, (lines - 6) // 9))]
    return json.dumps({"request": {"application": "A", "notifications": notes}}, indent=2) + "\n"


class Server:
    def __init__(self):
        self.proc = subprocess.Popen([BIN, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"capabilities": {}, "initializationOptions": {"debounceMilliseconds": 0}}})
        self.until(lambda m: m.get("id") == 1)
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def until(self, predicate):
        while True:
            message = self.read()
            if predicate(message):
                return message

    def close(self):
        self.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        self.until(lambda m: m.get("id") == 2)
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.proc.wait(timeout=30)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def measure(lines, edits):
    text = request(lines)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(text)
    uri = "file://" + f.name
    at = text.splitlines()
    line_no = next(i for i in range(len(at) // 2, len(at)) if '"title"' in at[i])
    col = at[line_no].index('"T') + 2
    server = Server()
    server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}})
    server.until(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 1)
    lsp = []
    for version in range(2, edits + 2):
        start = time.perf_counter()
        server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line_no, "character": col},
                                          "end": {"line": line_no, "character": col + 1}},
                                "text": "XY"[version % 2]}]}})
        server.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                     and m["params"].get("version") == version)
        lsp.append(time.perf_counter() - start)
    server.close()
    lint = []
    for _ in range(max(10, edits // 5)):
        start = time.perf_counter()
        subprocess.run([BIN, "lint", "--format", "json", "--fail-on", "never", f.name], stdout=subprocess.DEVNULL, check=True)
        lint.append(time.perf_counter() - start)
    os.unlink(f.name)
    return len(at), lsp, lint


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def memory(documents):
    """RSS of a server with no document open, and with `documents` different 200-line ones."""
    server = Server()
    idle = rss_mib(server.proc.pid)
    text = request(200)
    for number in range(documents):
        uri = f"file:///tmp/bench-{number}.json"
        server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": "json", "version": 1,
                             "text": text.replace('"T0"', f'"T{number}-0"')}}})
        server.until(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
    held = rss_mib(server.proc.pid)
    server.close()
    return idle, held, len(text) * documents / 2**20


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--write", action="store_true", help="replace the section in bench/RESULTS.md")
    args = parser.parse_args()
    print(f"binary: {BIN}")
    rows = []
    ms = lambda v: f"{v * 1000:.1f} ms"
    for lines in (200, 5000):
        n, lsp, lint = measure(lines, args.edits)
        ratio = percentile(lsp, 99) / statistics.median(lint)
        verdict = "MET" if ratio <= 1 else "NOT MET"
        if 0.95 <= ratio <= 1.05:
            verdict += ", borderline"
        rows.append({"figure": f"{n:,}-line file: didChange→diagnostics p50 / p99",
                     "inbox-rpc": f"{ms(statistics.median(lsp))} / {ms(percentile(lsp, 99))}",
                     "reference": f"the lint process's p50, {ms(statistics.median(lint))}",
                     "ratio": f"{ratio:.2f} (p99)", "target": "≤ 1", "verdict": verdict})
        sys.stdout.flush()
    idle, held, text = memory(args.documents)
    rows.append({"figure": f"RSS with {args.documents:,} 200-line documents open ({text:.1f} MiB of text)",
                 "inbox-rpc": f"{held:.1f} MiB", "reference": f"none open, {idle:.1f} MiB",
                 "ratio": f"{held / idle:.2f}"})
    publish_current("lsp-latency", "Language server: didChange to diagnostics, memory (`bench/lsp_latency.py`)",
                    f"{args.edits} one-character edits, `debounceMilliseconds: 0`, beside the `inbox-rpc lint "
                    "--format json` process; the memory of the same server with none open.", rows, args.write)


if __name__ == "__main__":
    main()
