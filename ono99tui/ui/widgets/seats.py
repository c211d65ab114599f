"""Every seat at the table, one line each: whose turn, name, cards, tokens or score, marks.

Marks are glyphs *and* words where space allows, so nothing depends on colour: the turn
marker, "(you)", bot, disconnected, eliminated, out of the round, cards owed of a Play 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from textual.app import ComposeResult
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ono99tui.ui.glyphs import Glyphs, current_glyphs
from ono99tui.ui.widgets.static_text import update_if_changed


@dataclass(frozen=True)
class SeatInfo:
    """One seat as the seat list shows it.

    `tokens` is None unless the table plays with tokens; `score` None unless with points.
    """

    name: str
    cards: int
    is_you: bool = False
    is_turn: bool = False
    is_bot: bool = False
    connected: bool = True
    eliminated: bool = False
    out_of_round: bool = False
    # Cards still owed of a Play 2 / Double Play (2, then 1; 0 when none).
    owes: int = 0
    tokens: int | None = None
    score: int | None = None
    # Tokens each seat started with: spent ones are drawn hollow, so 0 reads "all spent",
    # not "nothing to show".
    tokens_at_start: int = 0
    # The turn clock's seconds left for this seat (None: no clock runs for it).
    seconds_left: int | None = None

    def marks(self, glyphs: Glyphs) -> str:
        """The status marks after the name, in the given glyph set."""
        parts: list[str] = [] if self.seconds_left is None else [f"{self.seconds_left}s"]
        if self.is_bot:
            parts.append(glyphs.bot)
        if not self.connected:
            parts.append(f"{glyphs.disconnected}away")
        if self.eliminated:
            parts.append(f"{glyphs.eliminated}out")
        elif self.out_of_round:
            parts.append(f"{glyphs.eliminated}bust")  # busted: sits out the round
        if self.owes:
            # The short form of the total panel's "owes 2 cards" / "owes 1 more card": a
            # seat line has no room for the words (the card count would be pushed off).
            parts.append(f"owes {self.owes}")
        return " ".join(parts)


class SeatLine(Widget):
    """One seat's line; repaints only when its `SeatInfo` changes."""

    DEFAULT_CSS = """
    SeatLine { height: 1; width: 1fr; }
    SeatLine.-turn { background: $boost; text-style: bold; color: $text-accent; }
    SeatLine.-you { text-style: underline; }
    SeatLine.-eliminated { color: $text-muted; text-style: strike; }
    SeatLine.-away { color: $text-muted; }
    SeatLine.-owes { color: $text-warning; }
    """

    info: reactive[SeatInfo | None] = reactive(None)

    def watch_info(self, info: SeatInfo | None) -> None:
        if info is None:
            return
        self.set_class(info.is_turn, "-turn")
        self.set_class(info.is_you, "-you")
        self.set_class(info.eliminated or info.out_of_round, "-eliminated")
        self.set_class(not info.connected, "-away")
        self.set_class(info.owes > 0, "-owes")

    def render(self) -> Content:
        info = self.info
        if info is None:
            return Content("")
        glyphs = current_glyphs(self)
        turn = glyphs.turn_marker if info.is_turn else " "
        # "(you)" marks the viewer, except when the name already says it (solo's default).
        marked = info.is_you and info.name.strip().casefold() != "you"
        name = info.name + (" (you)" if marked else "")
        standing = ""
        if info.tokens is not None:
            start = max(info.tokens_at_start, info.tokens)
            if info.eliminated:
                standing = ""  # the "out" mark says it
            elif start <= 5:
                standing = glyphs.token * info.tokens + glyphs.spent_token * (start - info.tokens)
            else:
                standing = f"{info.tokens}{glyphs.token}"
        elif info.score is not None:
            standing = f"{info.score}pt"
        width = max(self.content_size.width, 10)
        left = f"{turn} {name}"
        right = " ".join(part for part in (f"{info.cards}c", standing, info.marks(glyphs)) if part)
        # Measured in terminal cells, not characters: an emoji or CJK name takes two cells
        # a character, and counting characters pushed the card count off the row.
        room = width - cell_len(right) - 1
        if room < 4:
            return Content(set_cell_size(left, width).rstrip())
        if cell_len(left) > room:
            left = set_cell_size(left, room - 1) + "~"
        return Content(set_cell_size(left, room) + " " + right)


class SeatList(Widget):
    """The seat lines plus a spectator count."""

    DEFAULT_CSS = """
    SeatList { height: auto; width: 1fr; }
    SeatList > #spectators { height: 1; color: $text-muted; }
    SeatList > #spectators.-none { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="spectators", classes="-none")

    def show(self, seats: Sequence[SeatInfo], spectators: int = 0) -> None:
        """Display these seats, updating existing lines in place."""
        lines = list(self.query_children(SeatLine))
        for extra in lines[len(seats) :]:
            extra.remove()
        missing = [SeatLine() for _ in range(len(lines), len(seats))]
        if missing:
            self.mount_all(missing, before="#spectators")
        for line, info in zip([*lines[: len(seats)], *missing], seats, strict=True):
            line.info = info
        watchers = self.query_one("#spectators", Static)
        update_if_changed(watchers, f"{spectators} watching" if spectators else "")
        watchers.set_class(not spectators, "-none")
