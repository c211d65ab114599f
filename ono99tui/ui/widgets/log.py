"""The table's event log: one line per thing that happened ("ana played 7 -> 57")."""

from __future__ import annotations

import textwrap

from textual.widgets import Log

# Before the log has a size, wrap for the width it has at 80 columns.
_DEFAULT_WIDTH = 29


class EventLog(Log):
    """A bounded, auto-scrolling log of the table's events.

    No scrollbar and no background of its own: each new line already repaints every row
    of the log (it scrolls), and a moving scrollbar thumb or extra colour codes would add
    bytes to every opponent's move for a player over SSH. Long lines are wrapped to the
    width the log has when they arrive.
    """

    DEFAULT_CSS = """
    EventLog { height: 1fr; width: 1fr; overflow: hidden hidden; background: transparent; }
    """

    MAX_LINES = 200

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, max_lines=self.MAX_LINES)
        self.can_focus = False

    @property
    def allow_vertical_scroll(self) -> bool:
        """Scrolling is allowed though no scrollbar is shown: Textual ties the two, and with
        `overflow: hidden` the log would stay on its first lines for good."""
        return self.is_scrollable

    def add(self, line: str) -> None:
        """Append one event, wrapped to the log's width."""
        width = self.scrollable_content_region.width or _DEFAULT_WIDTH
        self.write_lines(textwrap.wrap(line, width, subsequent_indent="  ") or [""])
