#!/usr/bin/env python3
"""Writes the seed corpus for the inbox-rpc fuzzer into fuzz/corpus/ (python3 stdlib only).

Every seed is one control byte followed by the byte stream a host would send (see
fuzz/Sources/InboxRPCFuzz/Fuzz.swift): '@' auto-detects the framing, 'A' forces NDJSON, 'B' forces
Content-Length; '`', 'a', 'b' are the same with tight limits (frame 256 bytes, batch 4, depth 8);
bits 2-4 of the control byte deliver the stream in small chunks.

  fuzz/make-corpus.py            rewrite fuzz/corpus/ (removes seeds no longer listed here)
  fuzz/make-corpus.py --check    exit 1 when fuzz/corpus/ differs from what this script writes
"""

import json
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"

AUTO, NDJSON, LSP = 0x40, 0x41, 0x42
TIGHT = 0x20


def chunked(control: int, size_index: int) -> int:
    """The control byte delivering the stream in chunks: 1 -> 1 byte, 2 -> 2, 3 -> 3, 4 -> 7, 5 -> 16, 6 -> 64, 7 -> 1024."""
    return control | (size_index << 2)


def j(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def req(method, params=None, id=1) -> dict:
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def note(method, params=None) -> dict:
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def nd(*messages) -> bytes:
    return b"".join((m if isinstance(m, bytes) else j(m)) + b"\n" for m in messages)


def lsp(*bodies, header="Content-Length") -> bytes:
    out = b""
    for body in bodies:
        body = body if isinstance(body, bytes) else j(body)
        out += f"{header}: {len(body)}\r\n\r\n".encode() + body
    return out


PING = req("rpc.ping")

# Payloads of the kind message.resolve / message.ingest take (from the resolver fixtures' shapes).
CAROUSEL = {
    "send_date": "now", "ios_title": "Title", "content": "Body", "inbox_days": 7,
    "data": {"displayType": "carousel", "carousel": [
        {"title": "x"}, {"image": "https://cdn.example.com/s/1.jpg", "title": "One", "body": "b"},
        {"image": "https://cdn.example.com/s/2.jpg"}, "not a slide", {"image": "ftp://bad/3.jpg"}]},
}
BUTTONS = {
    "inbox_id": "bb1", "order": "59138176", "rt": "1893456000", "send_date": "1780000000",
    "title": "Hello", "text": "World", "action_type": 1,
    "action_params": "{\"u\": \"{\\\"buttons\\\": [{\\\"title\\\": \\\"Read\\\", \\\"action\\\": \\\"markRead\\\"}, {\\\"title\\\": \\\"Open\\\", \\\"url\\\": \\\"app://deep/link\\\"}, 7]}\"}",
    "status": 1, "hash": "1C",
}
VIDEO = {
    "send_date": "now", "ios_title": "Watch", "content": "Tap", "inbox_days": 7,
    "data": {"displayType": "video", "video": {"url": "https://cdn.example.com/v.mp4",
                                                "poster": "https://cdn.example.com/p.jpg", "duration": 12.5}},
}
WALLET = {
    "send_date": "now", "ios_title": "Your loyalty card is ready", "content": "Add it to Apple Wallet",
    "inbox_days": 7, "platforms": [1],
    "data": {"displayType": "wallet", "image": "https://cdn.example.com/inbox/loyalty.png",
             "wallet": "https://passes.example.com/v1/passes/pass.com.example.loyalty/abc123?token=\u2026"},
}
BANNER = {"send_date": "now", "content": "Body only", "inbox_image": "https://cdn.example.com/inbox/promo.png",
          "inbox_days": 7, "data": {"forceCellKind": "banner", "custom": {"k": [1, 2.5, None, True]}}}


def resolve(payload, id, **extra) -> dict:
    """message.resolve {payload, attributes?, id?, now?}."""
    return req("message.resolve", {"payload": payload, "id": f"m{id}", "now": 1780000000, **extra}, id)


SEEDS: dict[str, tuple[int, bytes]] = {
    # Valid requests, both framings.
    "ndjson-ping": (AUTO, nd(PING)),
    "ndjson-ping-forced": (NDJSON, nd(PING, req("rpc.ping", id="two"), req("rpc.ping", None, None))),
    "lsp-ping": (AUTO, lsp(PING)),
    "lsp-ping-forced": (LSP, lsp(PING, req("rpc.ping", id=2))),
    "lsp-lenient-headers": (AUTO, b"content-length: 44\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n"
                            + j(PING) + b"\r\n" + lsp(req("rpc.ping", id=3))),
    "lsp-header-case": (AUTO, lsp(PING, header="CONTENT-LENGTH")),
    "initialize": (AUTO, nd(req("initialize", {"client": {"name": "fuzz", "version": "1"}, "platform": "ios",
                                                 "capabilities": {"walletPasses": True},
                                                 "attributes": {"forceCellKind": "classic"}}),
                            req("rpc.discover", id=2))),
    "spec-examples": (AUTO, nd(req("subtract", [42, 23]), req("subtract", {"subtrahend": 23, "minuend": 42}, 2),
                               note("update", [1, 2, 3, 4, 5]), note("foobar"), req("foobar", id="1"),
                               req("sum", [1, 2, 4], "s"), req("get_data", id="9"), note("notify_hello", [7]))),
    "test-methods": (AUTO, nd(req("test.echo", {"value": {"a": [1, "b", None, 2.5e10, {"c": True}]}}),
                              req("test.log", {"count": 3, "bytes": 40}, 2),
                              req("test.sleep", {"ms": 1}, 3), req("test.echo", [1], 4))),
    # Batches.
    "batch-mixed": (AUTO, nd([req("sum", [1, 2, 4], "1"), note("notify_hello", [7]), req("subtract", [42, 23], "2"),
                              {"foo": "boo"}, req("foo.get", {"name": "myself"}, "5"), req("get_data", id="9")])),
    "batch-empty": (AUTO, b"[]\n[ ]\n" + nd(PING)),
    "batch-invalid": (AUTO, b"[1,2,3]\n[1]\n[\"x\",null,{}]\n"),
    "batch-notifications": (AUTO, nd([note("notify_sum", [1, 2, 4]), note("notify_hello", [7])])),
    "batch-tight-too-large": (NDJSON | TIGHT, nd([req("rpc.ping", id=i) for i in range(6)], PING)),
    "batch-with-background": (AUTO, nd([req("test.sleep", {"ms": 2}, 1), PING, note("$/cancelRequest", {"id": 1})])),
    # Notifications, lifecycle and cancellation.
    "notifications": (AUTO, nd(note("rpc.ping"), note("nope"), note("subtract", "bad"), note("exit", None) | {"params": None})),
    "shutdown-exit": (AUTO, nd(req("shutdown"), req("rpc.ping", id=2), note("exit"), req("rpc.ping", id=3))),
    "exit-without-shutdown": (LSP, lsp(note("exit"), PING)),
    "cancel-request": (AUTO, nd(req("test.sleep", {"ms": 3}, "slow"), note("$/cancelRequest", {"id": "slow"}),
                                note("$/cancelRequest", {"id": 404}), note("$/cancelRequest", {}),
                                note("$/cancelRequest", [1]))),
    "cancel-lsp": (LSP, lsp(req("test.sleep", {"ms": 2}, 7), note("$/cancelRequest", {"id": 7}), req("rpc.ping", id=8))),
    # Byte-order mark, whitespace, line endings.
    "bom-ndjson": (AUTO, b"\xef\xbb\xbf" + nd(PING)),
    "bom-lsp": (AUTO, b"\xef\xbb\xbf" + lsp(PING)),
    "bom-partial": (AUTO, b"\xef\xbb" + nd(PING)),
    "crlf-blank-lines": (AUTO, b"\r\n \t\r\n" + j(PING) + b"\r\n\r\n   \n" + j(req("rpc.ping", id=2)) + b"\r\n"),
    "no-trailing-newline": (AUTO, nd(PING) + j(req("rpc.ping", id=2))),
    # Content-Length headers gone wrong.
    "lsp-oversized-header": (AUTO, b"Content-Length: 44\r\nX-Filler: " + b"x" * 9000 + b"\r\n\r\n" + j(PING) + lsp(PING)),
    "lsp-bad-length": (AUTO, b"Content-Length: 4x\r\n\r\n{}{}" + b"Content-Length: -1\r\n\r\n"
                       + b"Content-Length: 1234567890123456\r\n\r\n" + lsp(PING)),
    "lsp-missing-length": (LSP, b"Content-Type: json\r\n\r\n" + j(PING) + b"\r\nno colon here\r\n\r\n" + lsp(PING)),
    "lsp-too-large": (LSP | TIGHT, lsp(req("test.echo", {"value": "x" * 300})) + lsp(PING)),
    "lsp-short-body": (LSP, b"Content-Length: 10\r\n\r\n" + j(PING) + b"Content-Length: 100\r\n\r\n{}"),
    "lsp-length-zero": (LSP, b"Content-Length: 0\r\n\r\n" + lsp(PING)),
    # Not JSON, or JSON the server must refuse.
    "garbage": (AUTO, b"\x00\x01\x02garbage}{][\n\xff\xfe\n" + nd(PING)),
    "invalid-utf8": (AUTO, b'{"jsonrpc":"2.0","id":1,"method":"rpc.\xc3\x28ping"}\n'
                     b'{"jsonrpc":"2.0","id":"\xed\xa0\x80","method":"rpc.ping"}\n'
                     b'{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"value":"\\ud800"}}\n'),
    "nul-in-strings": (AUTO, b'{"jsonrpc":"2.0","id":"a\\u0000b","method":"test.echo","params":{"value":{"k\\u0000":"v\\u0000"}}}\n'
                       b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping\\u0000"}\n'),
    "deep-nesting": (AUTO, b"[" * 70 + b"]" * 70 + b"\n" + b'{"a":' * 100 + b"1" + b"}" * 100 + b"\n"
                     + j(req("test.echo", {"value": json.loads("[" * 60 + "]" * 60)})) + b"\n"),
    "deep-nesting-3000": (AUTO, b"[" * 3000 + b"]" * 3000 + b"\n" + b"[" * 3000 + b"\n" + nd(PING)),
    "deep-nesting-tight": (AUTO | TIGHT, nd(req("test.echo", {"value": [[[[[[[[1]]]]]]]]}), PING)),
    "big-ids": (AUTO, b'{"jsonrpc":"2.0","id":9223372036854775807,"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":-9223372036854775808,"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":18446744073709551616,"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":1e400,"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":1.5,"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":-0.0,"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":null,"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":{"a":1},"method":"rpc.ping"}\n'
                b'{"jsonrpc":"2.0","id":[1],"method":"rpc.ping"}\n'
                + nd(req("rpc.ping", id="x" * 500))),
    "invalid-requests": (AUTO, b'{"jsonrpc":"1.0","id":1,"method":"rpc.ping"}\n{"id":1,"method":"rpc.ping"}\n'
                         b'{"jsonrpc":"2.0","id":1,"method":5}\n{"jsonrpc":"2.0","id":1}\n'
                         b'{"jsonrpc":"2.0","id":1,"method":"subtract","params":"42"}\n'
                         b'{"jsonrpc":"2.0","id":1,"method":"rpc.ping","params":null}\n'
                         b'"just a string"\n42\nnull\ntrue\n'),
    "duplicate-keys": (AUTO, b'{"jsonrpc":"2.0","id":1,"id":2,"method":"rpc.ping"}\n'
                       b'{"jsonrpc":"2.0","id":1,"method":"test.echo","params":{"value":{"a":1,"a":2}}}\n'),
    "non-json-literals": (AUTO, b'{"jsonrpc":"2.0","id":NaN,"method":"rpc.ping"}\n[Infinity]\n{"a":01}\n{"a":.5}\n'
                          b"{'single':1}\n{\"a\":1,}\n[1,]\n\"\\x41\"\n"),
    "params-errors": (AUTO, nd(req("subtract", {"minuend": "a", "subtrahend": 1}), req("sum", {"a": 1}, 2),
                               req("initialize", {"platform": 7}, 3), req("test.sleep", {"ms": "x"}, 4),
                               req("test.log", {"count": 0, "bytes": -5}, 5), req("subtract", [1.0, 2.5], 6))),
    "unicode-methods": (AUTO, nd(req("rpc.pïng"), req("\u202erpc.ping", id=2), req("", id=3),
                                 req("rpc.ping", {"emoji": "😀\u0001\u007f"}, "✓"))),
    "long-string": (AUTO, nd(req("test.echo", {"value": "é" * 3000 + "\\\"\n\t"}))),
    "many-members": (AUTO, nd(req("test.echo", {"value": {f"k{i}": i for i in range(40)}}))),
    # Size limits.
    "ndjson-too-long-tight": (AUTO | TIGHT, nd(req("test.echo", {"value": "y" * 400}), PING)),
    "ndjson-unterminated-long-tight": (NDJSON | TIGHT, b'{"jsonrpc":"2.0","id":1,"method":"x","params":["' + b"z" * 600),
    # Mixed framing: NDJSON bytes under forced LSP and the reverse.
    "ndjson-under-lsp": (LSP, nd(PING, PING)),
    "lsp-under-ndjson": (NDJSON, lsp(PING, PING)),
    # The same streams delivered in small chunks (frames and headers split across reads).
    "chunked-1-ndjson": (chunked(AUTO, 1), b"\xef\xbb\xbf" + nd(PING, [PING, note("notify_hello")])),
    "chunked-2-lsp": (chunked(AUTO, 2), lsp(PING, req("sum", [1, 2], 2))),
    "chunked-3-lsp-bad": (chunked(LSP, 3), b"Content-Length: x\r\n\r\nfoo\r\n" + lsp(PING)),
    "chunked-7-mixed": (chunked(AUTO, 4), nd(PING, req("test.echo", {"value": "abc" * 20}, 2), [])),
    # message.resolve payloads: carousel, buttons, video, wallet.
    "resolve-carousel": (AUTO, nd(resolve(CAROUSEL, 1), resolve(CAROUSEL, 2, attributes={"forceCellKind": "classic"}))),
    "resolve-buttons": (LSP, lsp(resolve(BUTTONS, 2))),
    "resolve-video": (AUTO, nd(resolve(VIDEO, 3), req("message.resolve", {"payload": "not an object"}, 4),
                               req("message.resolve", {"payload": {"data": {"displayType": "video", "video": 5}}}, 5))),
    "resolve-wallet": (AUTO, nd(req("initialize", {"platform": "ios", "capabilities": {"walletPasses": True}}),
                                resolve(WALLET, 5, attributes={"platform": "android", "walletPasses": False}),
                                resolve(WALLET, 6))),
    "resolve-batch": (AUTO, nd([resolve(BANNER, 6), resolve(VIDEO, 7), req("message.ingest", {"payload": BANNER}, 8)])),
    # A stateful session on the store: ingest, list, tap, buttons, slides, dismiss, settings.
    "store-session": (AUTO, nd(
        req("test.clock", {"now": 1780000000}, 1),
        req("message.ingest", {"payload": CAROUSEL, "id": "c1"}, 2),
        req("message.ingest", {"payload": BUTTONS}, 3),
        req("message.ingest", {"payload": VIDEO, "id": "v1"}, 4),
        req("feed.list", {"limit": 2}, 5), req("feed.counts", id=6),
        req("feed.list", {"limit": 10, "unreadOnly": True, "kinds": ["carousel", "video"]}, 7),
        req("feed.list", {"cursor": "bogus"}, 8),
        req("message.get", {"id": "c1"}, 9), req("slide.tap", {"id": "c1", "slide": 1}, 10),
        req("slide.tap", {"id": "c1", "slide": 99}, 11),
        req("button.tap", {"id": "bb1", "button": 0}, 12), req("button.tap", {"id": "bb1", "button": 1, "performDefault": False}, 13),
        req("message.tap", {"id": "v1"}, 14), req("message.markRead", {"ids": ["c1", "nope", 5]}, 15),
        req("message.dismiss", {"id": "c1"}, 16), req("message.dismiss", {"id": "c1"}, 17),
        req("message.ingest", {"payload": CAROUSEL, "id": "c1"}, 18),
        req("feed.markAllRead", id=19), req("config.set", {"attributes": {"forceCellKind": "banner", "platform": "android"}}, 20),
        req("config.get", id=21), req("feed.list", {}, 22))),
    "store-params-errors": (AUTO, nd(
        req("message.get", {}, 1), req("message.get", {"id": 5}, 2), req("button.tap", {"id": "x"}, 3),
        req("slide.tap", {"id": "x", "slide": -1}, 4), req("feed.list", {"limit": 0}, 5),
        req("feed.list", {"limit": 100000, "kinds": "banner"}, 6), req("message.markRead", {"ids": "x"}, 7),
        req("config.set", {"attributes": {"forceCellKind": "nonsense", "unknown": 1}}, 8),
        req("message.ingest", {"payload": {"nothing": "here"}}, 9), req("test.clock", {"now": None}, 10))),
    # Careless and hostile hosts: one seed per break found by an adversarial run, so mutations start
    # from each of them (the store ones as the frames a host sends in that situation).
    "hostile-01-discover-batch": (AUTO, nd([req("rpc.discover", id=i) for i in range(40)], PING)),
    "hostile-01-heavy-batch-then-ping": (AUTO, nd(
        *[req("message.ingest", {"id": f"m{i}", "payload": {"ios_title": "t", "content": "x" * 2000, "inbox_days": 1}}, i)
          for i in range(4)],
        [req("feed.list", {"limit": 200}, 100 + i) for i in range(8)], req("rpc.ping", id="after"))),
    "hostile-02-nul-ids": (AUTO, nd(
        req("message.ingest", {"id": "a\u0000b", "payload": {"content": "one", "inbox_days": 1}}, 1),
        req("message.ingest", {"id": "a\u0000c", "payload": {"content": "two", "inbox_days": 1}}, 2),
        req("message.get", {"id": "a\u0000b"}, 3), req("message.dismiss", {"id": "a\u0000c"}, 4))),
    "hostile-03-foreign-store-config": (AUTO, nd(
        req("config.get", id=1), req("config.set", {"attributes": {"platform": "linux"}}, 2), req("feed.counts", id=3))),
    "hostile-04-first-writes-of-a-new-store": (AUTO, nd(
        [req("message.ingest", {"id": f"n{i}", "payload": {"content": "c", "inbox_days": 1}}, i) for i in range(3)],
        req("feed.counts", id=9))),
    "hostile-05-writes-then-ping": (AUTO, nd(
        req("message.markRead", {"ids": ["a", "b"]}, 1), req("feed.markAllRead", id=2), req("rpc.ping", id=3))),
    "hostile-06-large-write": (AUTO, nd(
        req("message.ingest", {"id": "big", "payload": {"content": "z" * 20000, "inbox_days": 1}}, 1))),
    "hostile-07-writes-after-store-loss": (AUTO, nd(
        req("message.ingest", {"id": "gone", "payload": {"content": "c", "inbox_days": 1}}, 1),
        req("message.dismiss", {"id": "gone"}, 2), req("message.get", {"id": "gone"}, 3))),
    "hostile-08-ndjson-line-in-lsp": (AUTO, lsp(PING) + nd(req("rpc.ping", id=2)) + lsp(req("rpc.ping", id=3))),
    "hostile-08-two-content-lengths": (AUTO, b"Content-Length: 44\r\nContent-Length: 45\r\n\r\n"
                                        + j(PING) + lsp(req("rpc.ping", id=2))),
    "hostile-09-notification-after-shutdown": (AUTO, nd(
        req("message.ingest", {"id": "k", "payload": {"content": "c", "inbox_days": 1}}, 1), req("shutdown", id=2),
        note("message.dismiss", {"id": "k"}), note("feed.markAllRead"), note("exit"))),
    "hostile-10-clock-at-the-end": (AUTO, nd(
        req("test.clock", {"now": 9223372036854775000}, 1),
        req("message.ingest", {"id": "far", "payload": {"content": "c", "inbox_days": 36500}}, 2),
        req("test.clock", {"now": -9223372036854775000}, 3),
        req("message.ingest", {"id": "near", "payload": {"content": "c", "send_date": "9999-12-31 23:59", "inbox_days": 7}}, 4))),
    "hostile-11-token-words": (AUTO, nd(req("config.set", {"backend": {"application": "TOKEN-abc"}}, 1),
                                      req("initialize", {"client": {"name": "TOKEN"}}, 2))),
    "hostile-unsafe-schemes": (AUTO, nd(
        req("message.ingest", {"id": "u", "payload": {"ios_title": "t", "content": "c", "inbox_days": 1,
                                                      "link": "javascript:alert(1)",
                                                      "data": {"image": "data:image/png;base64,AA==",
                                                               "buttons": [{"title": "f", "url": "file:///etc/passwd"}],
                                                               "carousel": [{"image": "vbscript:x", "url": "intent://x"}]}}}, 1),
        req("config.set", {"attributes": {"allowedSchemes": ["file", "javascript"]}}, 2),
        req("message.get", {"id": "u"}, 3))),
    "hostile-lsp-initialize": (AUTO, lsp(
        req("initialize", {"processId": None, "rootUri": None, "capabilities": {"textDocument": {}}}, 1),
        note("initialized", {}), req("shutdown", id=2), note("exit"))),
}


def main() -> int:
    check = "--check" in sys.argv[1:]
    wanted = {name: bytes([control]) + stream for name, (control, stream) in SEEDS.items()}
    assert 30 <= len(wanted) <= 90, len(wanted)
    too_big = [name for name, data in wanted.items() if len(data) > 65536]
    assert not too_big, too_big
    existing = {p.name: p.read_bytes() for p in CORPUS.glob("*")} if CORPUS.exists() else {}
    if check:
        if existing != wanted:
            print("fuzz/corpus/ is out of date: run fuzz/make-corpus.py", file=sys.stderr)
            return 1
        return 0
    CORPUS.mkdir(exist_ok=True)
    for name in existing.keys() - wanted.keys():
        (CORPUS / name).unlink()
    for name, data in wanted.items():
        (CORPUS / name).write_bytes(data)
    print(f"wrote {len(wanted)} seeds to {CORPUS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
