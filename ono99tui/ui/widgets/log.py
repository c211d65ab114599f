"""The table's event log: one line per thing that happened ("ana played 7 -> 57")."""

from __future__ import annotations

from textual.widgets import RichLog


class EventLog(RichLog):
    """A bounded, auto-scrolling log of the table's events."""

    DEFAULT_CSS = """
    EventLog { height: 1fr; width: 1fr; background: $surface; scrollbar-size-vertical: 1; }
    """

    MAX_LINES = 200

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, max_lines=self.MAX_LINES, min_width=8, wrap=True, markup=False, highlight=False)
        self.can_focus = False

    def add(self, line: str) -> None:
        """Append one event line."""
        self.write(line)
