"""Words built from what a table sent, as a notice or a dialog shows them.

A table's refusal and goodbye reasons are cleaned by netproto as they are decoded, but
may still be 512 characters long; and the app's own words about a view it could not read
quote the table's values (`'xxxx…' is not a card`), however long. A notice shows at most
`MAX_SHOWN_REASON` characters of such words, cleaned by the chat rules (no escape
sequence, control, bidi or line-break character), ending in an ellipsis when cut. The
widgets show them as plain text (markup=False).
"""

from __future__ import annotations

from netproto.wire.chat_text import clean_line

# Characters of a reason a notice shows: a toast of two or three lines at 80 columns.
MAX_SHOWN_REASON = 120
ELLIPSIS = "…"


def shown_reason(text: str, limit: int = MAX_SHOWN_REASON) -> str:
    """`text` cleaned of control characters and cut to at most `limit` characters,
    ending in an ellipsis when anything was cut; "" when nothing printable is left."""
    # Only the head is cleaned: the cleaning works on the whole of what it is given, and
    # a hostile value may be megabytes long. Four times the limit leaves room for the
    # escape sequences cleaning removes.
    head = text[: limit * 4]
    cleaned = clean_line(head, limit + 1)
    if len(cleaned) <= limit and len(head) == len(text):
        return cleaned
    return cleaned[: limit - len(ELLIPSIS)].rstrip() + ELLIPSIS
