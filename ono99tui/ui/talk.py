"""Table talk in the terminal: a line of talk cut to fit a toast.

Who is muted, the emote keys and the cleaning of what was said are the session's
(`ono99tui.client.talk`); here only what depends on how Textual wraps a toast.
"""

from __future__ import annotations

from rich.cells import cell_len, set_cell_size
from textual.content import Content


def toast_text(text: str, width: int, lines: int, *, ascii_glyphs: bool = False) -> str:
    """`text` cut, with an ellipsis, to at most `lines` lines of `width` cells as a toast
    wraps them (between words, as Textual does); unchanged when it fits."""
    if len(Content(text).wrap(width)) <= lines:
        return text
    ellipsis = "..." if ascii_glyphs else "…"
    cut = set_cell_size(text, max(0, lines * width - cell_len(ellipsis))).rstrip()
    # Wrapping breaks between words and so leaves ends of lines unused: shorten the cut
    # until the toast's own wrapping keeps it to `lines`.
    while cut and len(Content(cut + ellipsis).wrap(width)) > lines:
        cut = cut[:-1].rstrip()
    return cut + ellipsis
