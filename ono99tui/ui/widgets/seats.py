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

from ono99tui.client.names import is_named_you
from ono99tui.i18n import _, ngettext
from ono99tui.ui.glyphs import Glyphs, current_glyphs
from ono99tui.ui.widgets.glyph_aware import RedrawnWithGlyphs
from ono99tui.ui.widgets.static_text import update_if_changed


@dataclass(frozen=True)
class SeatDisplay:
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

    def marks(self, glyphs: Glyphs, *, compact: bool = False) -> str:
        """The status marks after the name, in the given glyph set; `compact`: glyphs
        without their words ("away", "out", "bust"), for a row too narrow for them. The
        cards owed keep their word: it is the one mark the player must act on."""
        parts: list[str] = [] if self.seconds_left is None else [
            _("{seconds}s").format(seconds=self.seconds_left)]
        if self.is_bot:
            parts.append(glyphs.bot)
        if not self.connected:
            parts.append(glyphs.disconnected + ("" if compact else _("away")))
        if self.eliminated:
            parts.append(glyphs.eliminated + ("" if compact else _("out")))
        elif self.out_of_round:
            # busted: sits out the round
            parts.append(glyphs.eliminated + ("" if compact else _("bust")))
        if self.owes:
            # The short form of the total panel's "owes 2 cards" / "owes 1 more card": a
            # seat line has no room for the words (the card count would be pushed off).
            parts.append(_("owes {count}").format(count=self.owes))
        return " ".join(parts)

    def standing(self, glyphs: Glyphs, *, compact: bool = False) -> str:
        """Tokens (drawn one by one up to five, spent ones hollow; `compact` or more than
        five: a count) or points; "" when the table plays with neither, or the seat is out
        of the match (its "out" mark says it)."""
        if self.tokens is not None:
            start = max(self.tokens_at_start, self.tokens)
            if self.eliminated:
                return ""
            if start <= 5 and not compact:
                return glyphs.token * self.tokens + glyphs.spent_token * (start - self.tokens)
            return f"{self.tokens}{glyphs.token}"
        if self.score is not None:
            # TRANSLATORS: a seat's score in points, as short as the language allows.
            return _("{points}pt").format(points=self.score)
        return ""

    def right_side(self, glyphs: Glyphs, *, compact: bool = False) -> str:
        """What follows the name: the card count, the standing, the marks."""
        # TRANSLATORS: how many cards a seat holds, in two or three cells ("4c").
        parts = (_("{count}c").format(count=self.cards), self.standing(glyphs, compact=compact),
                 self.marks(glyphs, compact=compact))
        return " ".join(part for part in parts if part)


class SeatLine(RedrawnWithGlyphs):
    """One seat's line; repaints only when its `SeatDisplay` changes."""

    DEFAULT_CSS = """
    SeatLine { height: 1; width: 1fr; }
    SeatLine.-turn { background: $boost; text-style: bold; color: $text-accent; }
    SeatLine.-you { text-style: underline; }
    SeatLine.-eliminated { color: $text-muted; text-style: strike; }
    SeatLine.-away { color: $text-muted; }
    SeatLine.-owes { color: $text-warning; }
    """

    info: reactive[SeatDisplay | None] = reactive(None)

    def watch_info(self, info: SeatDisplay | None) -> None:
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
        marked = info.is_you and not is_named_you(info.name)
        name = _("{name} (you)").format(name=info.name) if marked else info.name
        width = max(self.content_size.width, 10)
        return Content(seat_row(f"{turn} {name}", (info.right_side(glyphs),
                                                   info.right_side(glyphs, compact=True)),
                                width, ellipsis="~" if glyphs.ascii else "…"))


# Cells the left part keeps at least: the turn marker, a space, a letter, the ellipsis.
MIN_LEFT = 4


def seat_row(left: str, rights: Sequence[str], width: int, *, ellipsis: str = "…") -> str:
    """One seat row of `width` cells: `left` (turn marker and name), then the first of
    `rights` (fullest first) that leaves the name `MIN_LEFT` cells, flush right.

    The name gives way, cut with `ellipsis`: the card count and the marks (above all
    "owes 2") matter more than the end of a long name. Measured in terminal cells, not
    characters: an emoji or CJK name takes two cells a character.
    """
    right = next((form for form in rights if width - cell_len(form) - 1 >= MIN_LEFT),
                 rights[-1])
    room = width - cell_len(right) - 1
    if room < MIN_LEFT:
        # Not a letter of the name fits: the turn marker and the marks, cut from their
        # start if they must be (their end says what is owed).
        tail = right
        while tail and cell_len(tail) > width - 2:
            tail = tail[1:]
        return set_cell_size(left[:1], width - cell_len(tail)) + tail
    if cell_len(left) > room:
        left = set_cell_size(left, room - cell_len(ellipsis)).rstrip() + ellipsis
    return set_cell_size(left, room) + " " + right


class SeatList(Widget):
    """The seat lines plus a spectator count."""

    DEFAULT_CSS = """
    SeatList { height: auto; width: 1fr; }
    SeatList > #spectators { height: 1; color: $text-muted; }
    SeatList > #spectators.-none { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="spectators", classes="-none")

    def show(self, seats: Sequence[SeatDisplay], spectators: int = 0) -> bool:
        """Display these seats, updating existing lines in place; whether anything shown
        changed."""
        lines = list(self.query_children(SeatLine))
        for extra in lines[len(seats) :]:
            extra.remove()
        missing = [SeatLine() for _index in range(len(lines), len(seats))]
        if missing:
            self.mount_all(missing, before="#spectators")
        changed = bool(missing) or len(lines) > len(seats)
        for line, info in zip([*lines[: len(seats)], *missing], seats, strict=True):
            changed = changed or line.info != info
            line.info = info
        watchers = self.query_one("#spectators", Static)
        watching = ngettext("{count} watching", "{count} watching", spectators).format(
            count=spectators) if spectators else ""
        changed = update_if_changed(watchers, watching) or changed
        watchers.set_class(not spectators, "-none")
        return changed
