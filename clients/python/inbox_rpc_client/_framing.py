"""The two framings of the transport: one JSON text per line, or `Content-Length` headers.

The server answers in the framing of its input, so the client reads the framing it writes.
"""

from __future__ import annotations

from typing import IO, Literal, Optional

Framing = Literal["ndjson", "lsp"]
FRAMINGS = ("ndjson", "lsp")


class FramingError(ValueError):
    """The peer sent a header block this reader cannot use."""


def encode(body: bytes, framing: Framing) -> bytes:
    """One frame holding `body` (compact JSON, so it contains no newline)."""
    if framing == "lsp":
        return b"Content-Length: %d\r\n\r\n" % len(body) + body
    return body + b"\n"


def read_frame(stream: IO[bytes], framing: Framing) -> Optional[bytes]:
    """The body of the next frame on `stream`, or None at end of input."""
    while True:
        line = stream.readline()
        if not line:
            return None
        if not line.strip():
            continue  # blank lines between frames carry nothing
        if framing == "lsp":
            return _read_header_frame(stream, line)
        return line.rstrip(b"\r\n")


def _read_header_frame(stream: IO[bytes], first: bytes) -> Optional[bytes]:
    """Reads the rest of a header block (any order, any case, bare `\\n` allowed) and its body."""
    length: Optional[int] = None
    line = first
    while line.strip():
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise FramingError(f"bad Content-Length header: {line!r}") from None
        line = stream.readline()
        if not line:
            return None
    if length is None or length < 0:
        raise FramingError("header block without a Content-Length")
    body = b""
    while len(body) < length:
        chunk = stream.read(length - len(body))
        if not chunk:
            return None
        body += chunk
    return body
