"""The session's story (`ono99tui.client.story`) as the terminal's log lines.

Each story item becomes at most one `LogEntry`, in both glyph sets (the player may switch
to ASCII at any time, and the lines already shown switch with it); an event the log tells
nothing of (a draw, a deal's hidden hands) becomes none. The words are `ui/present.py`'s.
"""

from __future__ import annotations

from collections.abc import Iterable

from ono99tui.client.story import AbridgedItem, EventItem, SaidItem, StandInItem, StoryItem
from ono99tui.i18n import _
from ono99tui.ui.glyphs import glyphs_for
from ono99tui.ui.widgets.log import LogEntry, chat_entry

_UNICODE, _ASCII = glyphs_for(False), glyphs_for(True)


def abridged_entry(rounds: int) -> LogEntry:
    """The line saying that the table told the first `rounds` rounds of the match in short
    (a long match's account must fit in one frame: docs/PROTOCOL.md §3 "view")."""
    if rounds == 1:
        text = _("Round 1 in short: its deal, busts and result only")
        return LogEntry(text, text)
    text = _("Rounds {first}{dash}{last} in short: their deals, busts and results only")
    return LogEntry(text.format(first=1, dash="\u2013", last=rounds),
                    text.format(first=1, dash="-", last=rounds))


def log_entry(item: StoryItem) -> LogEntry | None:
    """The log line for one story item, or None when the log shows nothing for it."""
    from ono99tui.ui.present import event_line, stand_in_line

    if isinstance(item, EventItem):
        line = event_line(item.event, item.names, item.view, _UNICODE)
        if line is None:
            return None
        return LogEntry(line, event_line(item.event, item.names, item.view, _ASCII) or line)
    if isinstance(item, SaidItem):
        return chat_entry(item.name, item.text)
    if isinstance(item, AbridgedItem):
        return abridged_entry(item.rounds)
    if isinstance(item, StandInItem):
        text = stand_in_line(item.events, item.seat, item.rules, skip_first=item.skip_first)
        return None if text is None else LogEntry(text, text)
    raise TypeError(f"not a story item: {item!r}")


def log_entries(items: Iterable[StoryItem]) -> list[LogEntry]:
    """The log lines for `items`, in order (items the log shows nothing for left out)."""
    entries = []
    for item in items:
        entry = log_entry(item)
        if entry is not None:
            entries.append(entry)
    return entries
