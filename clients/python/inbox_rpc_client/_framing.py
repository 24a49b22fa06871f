"""The two framings: one JSON text per line, or `Content-Length` headers (LSP). The server answers
in the framing of its input, so the client reads the framing it writes."""

from __future__ import annotations

from typing import IO, Literal, Optional

Framing = Literal["ndjson", "lsp"]
FRAMINGS = ("ndjson", "lsp")


def encode(body: bytes, framing: Framing) -> bytes:
    """One frame holding `body` (compact JSON, so it holds no newline)."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body if framing == "lsp" else body + b"\n"


def read_frame(stream: IO[bytes], framing: Framing) -> Optional[bytes]:
    """The body of the next frame, or None at end of input. Headers may come in any order and case."""
    line = stream.readline()
    while line and not line.strip():
        line = stream.readline()  # blank lines between frames carry nothing
    if framing == "ndjson" or not line:
        return line.rstrip(b"\r\n") or None
    length = None
    while line.strip():
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)  # a ValueError ends the reading, as a broken stream does
        line = stream.readline()
    if length is None:
        raise ValueError("a header block without Content-Length")
    body = stream.read(length)  # a buffered read returns less only at end of input
    return body if len(body) == length else None
