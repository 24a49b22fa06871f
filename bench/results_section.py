"""The sections of bench/RESULTS.md, one per benchmark, each owned by the script that measures it.

Each lives between `<!-- NAME -->` and `<!-- /NAME -->`; writing one replaces only it. A section is
its title, one line on how it measures, and one current table (`current_table`): each figure beside
its reference, the ratio, the target and verdict, and the commit and date it was measured at.
Earlier figures live in git's history of the file, which script/check-budgets holds to 250 lines.
"""

from __future__ import annotations

import datetime
import re
import subprocess
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


CURRENT_COLUMNS = ["figure", "inbox-rpc", "reference", "ratio", "target", "verdict", "measured"]


def measured_at() -> str:
    """The commit the tree is at (with `-dirty` when uncommitted changes were built) and today's date."""
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty", "--abbrev=7"], cwd=RESULTS.parent,
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return f"`{commit}`, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d}"


def current_table(rows: list[dict[str, str]], measured: str | None = None) -> str:
    """The table of a section: a row per figure, its cells named as CURRENT_COLUMNS ("—" for one not
    given), each measured at `measured` (default: this tree, today) unless the row says otherwise."""
    when = measured or measured_at()
    cells = [tuple(row.get(column) or (when if column == "measured" else "—") for column in CURRENT_COLUMNS)
             for row in rows]
    return markdown_table(CURRENT_COLUMNS, cells)


def publish_current(name: str, title: str, how: str, rows: list[dict[str, str]], write: bool) -> None:
    """Prints the current table; when `write`, makes it section `name`: the title, `how` (one line), the table."""
    table = current_table(rows)
    print(table)
    if write:
        write_section(name, f"## {title}\n\n{how}\n\n{table}\n")
