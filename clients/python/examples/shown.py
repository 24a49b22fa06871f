"""Payload text as the examples print it: control characters, line breaks and bidirectional
overrides escaped, so a title cannot move the cursor, clear the screen or forge a second card."""

from __future__ import annotations

import re

#: C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional controls.
_UNSEEN = re.compile("[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def shown(text: object) -> str:
    """`text` with what a terminal would act on written as `\\n` or `\\uXXXX`."""
    return _UNSEEN.sub(lambda hit: _NAMED.get(hit.group(), f"\\u{ord(hit.group()):04x}"), str(text))
