"""The table's event log: one line per thing that happened ("ana played 7 -> 57").

Each match starts on a fresh page: a separator line ("-- Match 2 --") at the top of the
log, the new match's lines under it. The previous match is still there above the
separator, for a player who scrolls up to it (`scroll_rows`, `page`, `to_top`; the table
screen binds them to keys). While the player has not scrolled up, the log follows its
newest line however long it gets.

Table talk (`LogEntry.chat`) shares the log with the game's events, marked apart: its
lines start with the sender's name after a mark of their own and are drawn in the
`event-log--chat` style. Every line is drawn as plain `Text`, never as markup, so
nothing a player says can restyle the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

# Before the log has a size, wrap for the width it has at 80 columns.
_DEFAULT_WIDTH = 29


@dataclass(frozen=True)
class LogEntry:
    """One line of the story, in both glyph sets: ASCII mode may be switched at any time,
    and the lines already shown must switch with it."""

    unicode: str
    ascii: str
    # Someone at the table said it (not a game event): drawn apart.
    chat: bool = False

    def text(self, ascii: bool) -> str:
        """The line in the glyph set asked for."""
        return self.ascii if ascii else self.unicode


def wrap_cells(text: str, width: int, subsequent_indent: str = "") -> list[str]:
    """`text` in rows of at most `width` terminal cells, broken between words (a word wider
    than a row is split), rows after the first indented. Like `textwrap.wrap`, but measured
    in cells: a CJK character or an emoji takes two, and counting characters made rows
    wider than the log, whose last cells were then cut off."""
    rows: list[str] = []
    row = ""
    for word in text.split():
        joined = f"{row} {word}" if row else (subsequent_indent if rows else "") + word
        if cell_len(joined) <= width:
            row = joined
            continue
        if row:
            rows.append(row)
        row = subsequent_indent + word
        while cell_len(row) > width:
            head, row = _cut_cells(row, width)
            rows.append(head)
            row = subsequent_indent + row
    rows.append(row)
    return rows


def _cut_cells(text: str, width: int) -> tuple[str, str]:
    """`text` split after its first `width` cells (at least one character, so a row
    narrower than a wide character still moves on)."""
    used = 0
    for index, character in enumerate(text):
        used += cell_len(character)
        if used > width:
            return text[: max(index, 1)], text[max(index, 1):]
    return text, ""


def chat_entry(name: str, text: str) -> LogEntry:
    """The log line for `name` saying `text` (both already made inert)."""
    return LogEntry(f"» {name}: {text}", f"> {name}: {text}", chat=True)


def separator(title: str) -> LogEntry:
    """The line that opens a new match in the log."""
    return LogEntry(f"── {title} ──", f"-- {title} --")


class EventLog(ScrollView):
    """A scrolling log of the table's events (see the module docstring).

    No scrollbar and no background of its own: each new line already repaints every row
    of the log once it is full (it scrolls), and a moving scrollbar thumb or extra colour
    codes would add bytes to every opponent's move for a player over SSH. Lines are
    wrapped to the log's width, again whenever the width changes.
    """

    DEFAULT_CSS = """
    EventLog { height: 1fr; width: 1fr; overflow: hidden hidden; background: transparent; }
    EventLog > .event-log--chat { color: $accent; text-style: italic; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"event-log--chat"}

    # Beyond this many rows the oldest are dropped: the current match and the one before
    # fit many times over (a 15-round 1980 match with four players is about 400 rows).
    MAX_LINES = 2000

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.can_focus = False
        self._entries: list[LogEntry] = []
        self._ascii = False
        # Wrapped rows (and whether each is talk), and for each entry the row it starts on.
        self._lines: list[str] = []
        self._chat_rows: list[bool] = []
        self._entry_rows: list[int] = []
        self._wrapped_for = 0
        # Entry index of the current match's separator (None: no earlier match in the log).
        self._match_start: int | None = None
        # Off while the player has scrolled up to read older lines; on again at the end.
        self._following = True

    # --- what is in it ------------------------------------------------------------------

    @property
    def lines(self) -> Sequence[str]:
        """The log's rows as shown (wrapped), oldest first."""
        return self._lines

    @property
    def line_count(self) -> int:
        """Number of rows of content."""
        return len(self._lines)

    @property
    def following(self) -> bool:
        """Does the log show its newest line (the player has not scrolled up)?"""
        return self._following

    def add(self, line: str | LogEntry) -> None:
        """Append one event, wrapped to the log's width."""
        entry = line if isinstance(line, LogEntry) else LogEntry(line, line)
        self._entries.append(entry)
        self._entry_rows.append(len(self._lines))
        start = len(self._lines)
        self._extend(entry)
        if len(self._lines) > self.MAX_LINES:
            self._drop_oldest()
        else:
            self.refresh_lines(start, len(self._lines) - start)
        self._settle()

    def start_match(self, title: str) -> None:
        """Open a fresh page for a new match: the earlier lines stay above its separator.
        Only the match before is kept."""
        if not self._entries:
            return  # nothing to separate from: the first match needs no separator
        if self._match_start is not None:
            del self._entries[: self._match_start]
        self._match_start = len(self._entries)
        self._following = True
        self._entries.append(separator(title))
        self._rewrap()

    def forget_match(self, entries: int, page_opened: bool) -> None:
        """Drop the match in progress: its last `entries` entries and, when it opened a
        page (`page_opened`), that page's separator, so that the previous match is the
        current page again and `start_match` turns to a new one as before."""
        if entries:
            del self._entries[-entries:]
        start = self._match_start
        if page_opened and start is not None and start == len(self._entries) - 1:
            del self._entries[start:]
            self._match_start = None
        self._following = True
        self._rewrap()

    def clear(self) -> None:
        """Forget everything (a new table)."""
        self._entries.clear()
        self._match_start = None
        self._following = True
        self._rewrap()

    def show_ascii(self, ascii: bool) -> None:
        """Show every line, old ones too, in the ASCII (or Unicode) glyph set."""
        if ascii != self._ascii:
            self._ascii = ascii
            self._rewrap()

    # --- scrolling (the table screen's keys) -------------------------------------------

    def scroll_rows(self, rows: int) -> None:
        """Scroll by `rows` (negative: towards older lines); at the end it follows again."""
        self.scroll_to(y=self.scroll_offset.y + rows, animate=False, immediate=True, force=True)
        self._following = self.scroll_offset.y >= self.max_scroll_y

    def page(self, pages: int) -> None:
        """Scroll by whole pages of the log's height (less one row, kept for context)."""
        self.scroll_rows(pages * max(1, self.scrollable_content_region.height - 1))

    def to_top(self) -> None:
        """Go to the oldest line kept."""
        self.scroll_rows(-self.scroll_offset.y)

    def to_newest(self) -> None:
        """Go back to the newest line and follow again."""
        self._following = True
        self._settle()

    # --- drawing ------------------------------------------------------------------------

    @property
    def allow_vertical_scroll(self) -> bool:
        """Scrolling is allowed though no scrollbar is shown: Textual ties the two, and with
        `overflow: hidden` the log would stay on its first lines for good."""
        return True

    def render_line(self, y: int) -> Strip:
        row = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        style = self.rich_style
        if not 0 <= row < len(self._lines):
            return Strip.blank(width, style)
        if self._chat_rows[row]:
            style += self.get_component_rich_style("event-log--chat")
        text = Text(self._lines[row], style=style, no_wrap=True, end="")
        return Strip(text.render(self.app.console)).crop_extend(0, width, style)

    def on_resize(self, event: Resize) -> None:
        if self._width() != self._wrapped_for:
            self._rewrap()
        else:
            self._settle()

    def _width(self) -> int:
        return self.scrollable_content_region.width or _DEFAULT_WIDTH

    def _wrap(self, entry: LogEntry) -> list[str]:
        return wrap_cells(entry.text(self._ascii), self._width(), subsequent_indent="  ")

    def _extend(self, entry: LogEntry) -> None:
        rows = self._wrap(entry)
        self._lines.extend(rows)
        self._chat_rows.extend([entry.chat] * len(rows))

    def _rewrap(self) -> None:
        """Wrap every entry again (new width, glyph set or match) and repaint."""
        self._wrapped_for = self._width()
        self._lines = []
        self._chat_rows = []
        self._entry_rows = []
        for entry in self._entries:
            self._entry_rows.append(len(self._lines))
            self._extend(entry)
        if len(self._lines) > self.MAX_LINES:
            self._drop_oldest()
        self.refresh()
        self._settle()

    def _drop_oldest(self) -> None:
        """Keep at most MAX_LINES rows: drop whole entries from the start, then repaint
        (every row moves up, though the scroll position may not change)."""
        excess = len(self._lines) - self.MAX_LINES
        dropped = next((i for i, row in enumerate(self._entry_rows) if row >= excess),
                       len(self._entry_rows) - 1)
        rows = self._entry_rows[dropped]
        del self._entries[:dropped]
        del self._lines[:rows]
        del self._chat_rows[:rows]
        self._entry_rows = [row - rows for row in self._entry_rows[dropped:]]
        if self._match_start is not None:
            self._match_start = (
                self._match_start - dropped if self._match_start >= dropped else None
            )
        self.refresh()

    def _settle(self) -> None:
        """Size the scrollable area and, when following, show the newest line.

        The area is at least the current match's first row plus a page: following, the
        top of the log then never shows lines from before the match, so each match starts
        on a fresh page, with the last one reachable above it."""
        height = self.scrollable_content_region.height
        first = self._entry_rows[self._match_start] if self._match_start is not None else 0
        virtual = Size(self._wrapped_for, max(len(self._lines), first + height))
        if virtual != self.virtual_size:
            self.virtual_size = virtual
        if self._following:
            bottom = max(0, virtual.height - height)
            if self.scroll_offset.y != bottom:
                self.scroll_to(y=bottom, animate=False, immediate=True, force=True)
