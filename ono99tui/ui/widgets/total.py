"""The middle of the table: the running total (labelled, and the largest thing on screen),
the limit in words, the last card played, the direction of play and any pending Play 2 /
Double Play.

Each part is its own small widget, updated only when its value changes, so an opponent's
move repaints a few cells rather than the whole panel. Parts that draw glyphs do so in
`render()`, so switching the glyph set only needs a refresh.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.content import Content
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ono99tui.i18n import _
from ono99tui.ui.glyphs import PIXEL_ROWS, current_glyphs, huge_width
from ono99tui.ui.widgets.glyph_aware import RedrawnWithGlyphs
from ono99tui.ui.widgets.static_text import update_if_changed


class BigNumber(RedrawnWithGlyphs):
    """A number drawn as large as its box allows: the pixel font at the largest scale that
    fits, else the three-row font, else plain digits. The screen's CSS sizes the box for
    the terminal (5 rows at 80x24, more on a tall one); the number is centred in it."""

    DEFAULT_CSS = """
    BigNumber { width: 1fr; height: 5; text-style: bold; content-align: center middle; }
    """

    value: reactive[str] = reactive("", layout=True)

    def render(self) -> Content:
        glyphs = current_glyphs(self)
        width, height = self.content_size.width, self.content_size.height
        text = self.value
        for scale in (4, 3, 2, 1):
            if PIXEL_ROWS * scale <= height and huge_width(text, scale) <= width:
                return Content("\n".join(glyphs.huge(text, scale)))
        rows = glyphs.big(text)
        if len(rows) <= height and len(rows[0]) <= width:
            return Content("\n".join(rows))
        return Content(text)


class DirectionLine(RedrawnWithGlyphs):
    """"↻ clockwise" or "↺ counter-clockwise"."""

    DEFAULT_CSS = """
    DirectionLine { width: 1fr; height: 1; content-align-horizontal: center; }
    """

    direction: reactive[int] = reactive(1)

    def render(self) -> Content:
        glyphs = current_glyphs(self)
        return Content(_(glyphs.clockwise if self.direction >= 0 else glyphs.counterclockwise))


# Where a phrase ends: after a comma, a colon or an exclamation mark and its space.
PHRASE_END = re.compile(r"(?<=[,:!]) ")


def phrase_lines(text: str, width: int) -> str:
    """`text` broken into lines of `width` cells between its phrases (after ", ", ": " or
    "! ") before between words: each line holds as many whole phrases as fit, a phrase
    that fits no line is wrapped word by word (and what follows may share its last line)."""
    if width <= 0 or cell_len(text) <= width:
        return text
    lines: list[str] = []
    line = ""
    for phrase in PHRASE_END.split(text):
        joined = f"{line} {phrase}" if line else phrase
        if cell_len(joined) <= width:
            line = joined
        elif cell_len(phrase) <= width:
            lines.append(line)
            line = phrase
        else:
            for word in phrase.split(" "):
                joined = f"{line} {word}" if line else word
                if line and cell_len(joined) > width:
                    lines.append(line)
                    line = word
                else:
                    line = joined
    lines.append(line)
    return "\n".join(lines)


class PhrasedLine(Static):
    """Text that, where it does not fit on one line, breaks between its phrases before it
    breaks between words (`phrase_lines`): "you may go up to 98," over "and below 0", never
    "...and below" over a lone "0" (at 61 columns the limit line was one cell too wide);
    "Play 2!" over "YOU owe 2 cards", not "2" apart from "cards"."""

    def _phrased(self, width: int) -> Content:
        return Content(phrase_lines(str(self.content), width))

    def render(self) -> Content:
        return self._phrased(self.content_size.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        # The lines depend on the width: measure what `render` will draw at this one.
        return len(self._phrased(width).wrap(width))


class TotalPanel(Widget):
    """Running total with its label, limit, last card, direction and the pending two-card
    obligation. (`#total-small`, "Total 57" on one line, replaces the label and the large
    digits where the screen is short.)"""

    DEFAULT_CSS = """
    TotalPanel { height: auto; width: 1fr; align-horizontal: center; padding: 0 1; }
    TotalPanel > Static { width: 1fr; height: auto; text-align: center; }
    TotalPanel > #total-label { color: $text-muted; text-style: bold; }
    TotalPanel > BigNumber { color: $text-accent; }
    TotalPanel > #total-small { display: none; text-style: bold; color: $text-accent; }
    TotalPanel.-near-limit > BigNumber { color: $text-error; }
    TotalPanel.-near-limit > #total-small { color: $text-error; }
    TotalPanel > #limit { color: $text-muted; }
    TotalPanel > #last-card { color: $text; }
    TotalPanel > #obligation { text-style: bold; color: $text-warning; }
    TotalPanel > #obligation.-mine { background: $warning; color: $background; }
    TotalPanel > #obligation.-none { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Static(_("Total"), id="total-label")
        yield BigNumber(id="total-big")
        # markup=False: the obligation line names a player, and names may hold brackets.
        yield Static("", id="total-small", markup=False)
        yield PhrasedLine("", id="limit", markup=False)
        yield Static("", id="last-card", markup=False)
        yield DirectionLine(id="direction")
        yield PhrasedLine("", id="obligation", classes="-none", markup=False)

    def show(
        self,
        *,
        total: int,
        limit_text: str,
        last_card: str,
        near_limit: bool,
        direction: int,
        obligation: str,
        obligation_mine: bool,
    ) -> None:
        """Display the middle of the table; parts whose value is unchanged are not touched."""
        big = self.query_one(BigNumber)
        if big.value != str(total):
            big.value = str(total)
            self.query_one("#total-small", Static).update(_("Total {total}").format(total=total))

        self.set_class(near_limit, "-near-limit")
        update_if_changed(self.query_one("#limit", Static), limit_text)
        update_if_changed(self.query_one("#last-card", Static), last_card)
        self.query_one(DirectionLine).direction = direction
        line = self.query_one("#obligation", Static)
        update_if_changed(line, obligation)
        line.set_class(not obligation, "-none")
        line.set_class(obligation_mine and bool(obligation), "-mine")
