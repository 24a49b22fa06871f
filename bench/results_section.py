"""The sections of bench/RESULTS.md that benchmarks other than bench/run own.

Each lives between `<!-- NAME -->` and `<!-- /NAME -->`; writing one replaces only it, and bench/run
keeps them when it rewrites the rest of the file.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_section(name: str, body: str, results: Path = RESULTS) -> None:
    """Puts `body` between the markers of section `name`, replacing what was there (or appending)."""
    section = f"<!-- {name} -->\n{body.rstrip()}\n<!-- /{name} -->\n"
    text = results.read_text() if results.exists() else "# inbox-rpc benchmark results\n"
    marked = re.compile(rf"<!-- {name} -->.*<!-- /{name} -->\n", flags=re.S)
    if marked.search(text):
        text = marked.sub(lambda _: section, text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    results.write_text(text)


def markdown_table(header: list[str], rows: list[tuple[str, ...]]) -> str:
    """A Markdown table: the header, a rule, one line per row."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def now() -> str:
    """The time a section is measured at, as its text gives it."""
    return f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"


def publish(name: str, title: str, table: str, text: str, write: bool) -> None:
    """Prints `table`; when `write`, makes it section `name`: the title, `text` (how it was measured), the table."""
    print(table)
    if write:
        write_section(name, f"## {title}\n\n{text}\n\n{table}\n")
