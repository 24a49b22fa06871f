"""The two framings: one JSON text per line, or `Content-Length` headers (LSP). The server answers
in the framing of its input, so the client reads the framing it writes."""

from typing import IO, Literal, Optional, get_args

Framing = Literal["ndjson", "lsp"]
FRAMINGS = get_args(Framing)


def encode(body: bytes, framing: Framing) -> bytes:
    """One frame holding `body` (compact JSON, so it holds no newline)."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body if framing == "lsp" else body + b"\n"


#: The largest frame read unless told otherwise (32 MiB: twice the server's largest reply).
MAX_FRAME_BYTES = 32 * 1024 * 1024


class FrameTooLarge(ValueError):
    """The server wrote a frame larger than the client reads: it is broken, and the reading stops."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"inbox-rpc wrote a frame larger than {limit} bytes (max_frame_bytes)")


def read_frame(stream: IO[bytes], framing: Framing, limit: int = MAX_FRAME_BYTES) -> Optional[bytes]:
    """The body of the next frame, or None at end of input. Headers may come in any order and case.
    No more than `limit` bytes of one frame are ever held: past them, FrameTooLarge."""

    def line_of(stream: IO[bytes]) -> bytes:
        line = stream.readline(limit + 1)
        if len(line) > limit:
            raise FrameTooLarge(limit)
        return line

    line = line_of(stream)
    while line and not line.strip():
        line = line_of(stream)  # blank lines between frames carry nothing
    if framing == "ndjson" or not line:
        return line.rstrip(b"\r\n") or None
    length = None
    while line.strip():
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)  # a ValueError ends the reading, as a broken stream does
        line = line_of(stream)
    if length is None:
        raise ValueError("a header block without Content-Length")
    if length > limit:
        raise FrameTooLarge(limit)
    body = stream.read(length)  # a buffered read returns less only at end of input
    return body if len(body) == length else None
