"""A loopback https server for wallet pass downloads, with a pass file made here.

`PassServer(context)` serves `routes`: a path mapped to a `Reply` (status, headers, body, and a
drip that sends the body slowly, a chunk at a time). Each request's path is recorded in `paths`.
`make_pass()` writes a real .pkpass layout (a zip holding pass.json, with the manifest and images
Apple's format has), unsigned: the server checks the archive, not Apple's signature.
"""

from __future__ import annotations

import io
import json
import socket
import ssl
import threading
import time
import zipfile
from dataclasses import dataclass, field

from loopback import LoopbackListener

PKPASS = "application/vnd.apple.pkpass"


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": PKPASS})
    # Seconds between chunks of `chunk` bytes; 0 sends the body at once.
    drip: float = 0.0
    chunk: int = 1024


def make_pass(serial: str = "abc123") -> bytes:
    """An unsigned loyalty pass: pass.json, manifest.json and an icon, zipped as a .pkpass is."""
    document = {
        "formatVersion": 1, "passTypeIdentifier": "pass.com.example.loyalty", "serialNumber": serial,
        "teamIdentifier": "A1B2C3D4E5", "organizationName": "Example", "description": "Loyalty card",
        "storeCard": {"primaryFields": [{"key": "points", "label": "Points", "value": 120}]},
    }
    members = {
        "pass.json": json.dumps(document).encode(),
        "icon.png": b"\x89PNG\r\n\x1a\n" + bytes(64),
        "manifest.json": json.dumps({"pass.json": "0" * 40, "icon.png": "0" * 40}).encode(),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            # A fixed date: the same pass, byte for byte, on every run (the examples record its sha256).
            archive.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def make_zip_bomb(megabytes: int = 64) -> bytes:
    """A small archive whose pass.json inflates to `megabytes` MiB of spaces."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("pass.json", "w", force_zip64=True) as member:
            block = b" " * (1 << 20)
            for _ in range(megabytes):
                member.write(block)
    return buffer.getvalue()


class PassServer(LoopbackListener):
    def __init__(self, context: ssl.SSLContext, routes: dict[str, Reply] | None = None):
        self.context = context
        self.routes = routes or {}
        self.paths: list[str] = []
        self._lock = threading.Lock()
        super().__init__()
        self.origin = f"https://127.0.0.1:{self.port}"

    def _serve(self, raw: socket.socket) -> None:
        try:
            raw.settimeout(30)
            client = self.context.wrap_socket(raw, server_side=True)
        except (OSError, ssl.SSLError):
            raw.close()
            return
        with client:
            try:
                head = b""
                while b"\r\n\r\n" not in head:
                    chunk = client.recv(4096)
                    if not chunk:
                        return
                    head += chunk
                path = head.split(b"\r\n", 1)[0].split(b" ")[1].decode("latin-1")
                with self._lock:
                    self.paths.append(path)
                reply = self.routes.get(path, Reply(404, b"not found", {"Content-Type": "text/plain"}))
                headers = {"Content-Length": str(len(reply.body)), "Connection": "close", **reply.headers}
                lines = [f"HTTP/1.1 {reply.status} X"] + [f"{k}: {v}" for k, v in headers.items()]
                client.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
                if not reply.drip:
                    client.sendall(reply.body)
                    return
                for start in range(0, len(reply.body), reply.chunk):
                    if self._closed:
                        return
                    client.sendall(reply.body[start:start + reply.chunk])
                    time.sleep(reply.drip)
            except (OSError, ssl.SSLError):
                return
