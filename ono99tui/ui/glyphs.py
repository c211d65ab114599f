"""The characters the app draws with: a Unicode set and an ASCII-only set.

Some terminals (a bare Linux console, an SSH session with `LANG=C`) cannot show box
drawing, arrows or card symbols. `detect_ascii()` reads the locale the way C programs do
(LC_ALL, then LC_CTYPE, then LANG): unless the first one set names UTF-8, the app draws
with plain ASCII. `ono99 solo --ascii` and the command palette switch it by hand.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from ono99tui.i18n import N_

# Seven-segment digits, three rows high, so the running total and card values read from
# across the room. Each glyph is three rows of equal width.
_UNICODE_FONT: dict[str, tuple[str, str, str]] = {
    "0": ("╭─╮", "│ │", "╰─╯"),
    "1": ("╶╮ ", " │ ", "╶┴╴"),
    "2": ("╶─╮", "┌─┘", "└─╴"),
    "3": ("╶─╮", " ─┤", "╶─╯"),
    "4": ("╷ ╷", "╰─┤", "  ╵"),
    "5": ("┌─╴", "└─╮", "╶─╯"),
    "6": ("╭─╴", "├─╮", "╰─╯"),
    "7": ("╶─┐", "  │", "  ╵"),
    "8": ("╭─╮", "├─┤", "╰─╯"),
    "9": ("╭─╮", "╰─┤", "╶─╯"),
    "-": ("   ", "╶─╴", "   "),
    "+": ("   ", "╶┼╴", "   "),
    "x": ("   ", " ╳ ", "   "),
    " ": ("   ", "   ", "   "),
}
_ASCII_FONT: dict[str, tuple[str, str, str]] = {
    "0": (" _ ", "| |", "|_|"),
    "1": ("   ", "  |", "  |"),
    "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"),
    "4": ("   ", "|_|", "  |"),
    "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"),
    "7": (" _ ", "  |", "  |"),
    "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"),
    "-": ("   ", " _ ", "   "),
    "+": ("   ", "_|_", " | "),
    "x": ("   ", " \\/", " /\\"),
    " ": ("   ", "   ", "   "),
}


# The running total is the number the whole game is about: it is drawn larger than anything
# else, in a five-row pixel font scaled to the room it has (`Glyphs.huge`). Each digit is
# three pixels wide ("#" on); the minus sign two, so "-10" fits the 20 columns the middle
# of an 80x24 table has.
_PIXEL_FONT: dict[str, tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    "-": ("..", "..", "##", "..", ".."),
}
PIXEL_ROWS = 5


def huge_width(text: str, scale: int) -> int:
    """Columns `text` takes in the pixel font at `scale` (each pixel 2*scale columns wide)."""
    pixels = sum(len(_PIXEL_FONT.get(char, _PIXEL_FONT["0"])[0]) for char in text)
    return pixels * 2 * scale + max(len(text) - 1, 0) * scale


@dataclass(frozen=True)
class Glyphs:
    """One consistent set of characters; widgets never hard-code a non-ASCII character."""

    ascii: bool
    clockwise: str
    counterclockwise: str
    turn_marker: str
    eliminated: str
    disconnected: str
    bot: str
    token: str
    spent_token: str
    arrow: str
    number: str
    ten: str
    minus_ten: str
    reverse: str
    play_two: str
    hold: str
    ono99: str
    blocked: str
    font: Mapping[str, tuple[str, str, str]]
    pixel: str  # one lit pixel of the huge font (drawn twice as wide as it is tall)

    def big(self, text: str) -> tuple[str, str, str]:
        """`text` (digits, '-', '+', 'x', ' ') in the three-row font, one string per row."""
        rows = (
            [self.font.get(char, self.font[" "])[row] for char in text] for row in range(3)
        )
        top, middle, bottom = ("".join(parts) for parts in rows)
        return top, middle, bottom

    def huge(self, text: str, scale: int = 1) -> tuple[str, ...]:
        """`text` (digits and '-') in the pixel font, `PIXEL_ROWS * scale` rows of
        `huge_width(text, scale)` columns; characters outside the font draw as 0."""
        on, off = self.pixel * 2 * scale, "  " * scale
        gap = " " * scale
        rows: list[str] = []
        for row in range(PIXEL_ROWS):
            line = gap.join(
                "".join(
                    on if pixel == "#" else off
                    for pixel in _PIXEL_FONT.get(char, _PIXEL_FONT["0"])[row]
                )
                for char in text
            )
            rows.extend([line] * scale)
        return tuple(rows)


UNICODE = Glyphs(
    ascii=False,
    # Marked for the catalog; ui/widgets/total.py shows them translated.
    clockwise=N_("↻ clockwise"),
    counterclockwise=N_("↺ counter-clockwise"),
    turn_marker="▶",
    eliminated="✗",
    disconnected="⌁",
    bot="⚙",
    token="●",
    spent_token="○",
    arrow="→",
    number="#",
    ten="▲",
    minus_ten="▼",
    reverse="⇄",
    play_two="×2",
    hold="‖",
    ono99="✖",
    blocked="⊘",
    font=_UNICODE_FONT,
    pixel="█",
)

ASCII = Glyphs(
    ascii=True,
    clockwise=N_(">> clockwise"),
    counterclockwise=N_("<< counter-clockwise"),

    turn_marker=">",
    eliminated="X",
    disconnected="!",
    bot="B",
    token="o",
    spent_token=".",
    arrow="->",
    number="#",
    ten="^",
    minus_ten="v",
    reverse="R",
    play_two="x2",
    hold="H",
    ono99="X",
    blocked="/",
    font=_ASCII_FONT,
    pixel="#",
)

_LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")
# What Python puts in LC_CTYPE when it starts in the C or POSIX locale (PEP 538).
_COERCED_CTYPES = ("C.UTF-8", "C.utf8", "UTF-8")


def _python_coerced_the_locale(environ: Mapping[str, str]) -> bool:
    """Whether this process's LC_CTYPE is Python's, not the user's.

    Started in the C or POSIX locale (LANG=C, or nothing set, as with `env -i` or an SSH
    client that sends no locale), Python sets LC_CTYPE=C.UTF-8 in its own environment
    (PEP 538) and turns on its UTF-8 mode (PEP 540): the locale then seemed to promise
    UTF-8, and `LANG=C` got box drawing, arrows and card symbols all the same. UTF-8 mode is
    on without being asked for (PYTHONUTF8, -X utf8) only when the locale was C or POSIX, so
    a user's own LC_CTYPE=C.UTF-8 is still read as theirs.
    """
    return (environ.get("LC_CTYPE") in _COERCED_CTYPES and not environ.get("LC_ALL")
            and bool(sys.flags.utf8_mode) and not os.environ.get("PYTHONUTF8")
            and "utf8" not in sys._xoptions)


def detect_ascii(environ: Mapping[str, str] | None = None) -> bool:
    """True when the locale does not promise UTF-8, so the app should draw in ASCII.

    The first of LC_ALL, LC_CTYPE, LANG that is set decides (the POSIX precedence): `C`,
    `POSIX` or another non-UTF-8 locale asked for is ASCII. None set at all (a container's
    shell, `env -i`) says nothing of the terminal, and almost every terminal is UTF-8: the
    app draws in Unicode then, as the SSH door assumes for a client that sends no locale
    (`--ascii` and F2 are there for the rest). Read from this process's environment (no
    `environ` given), an LC_CTYPE that Python set itself is not the user's and is skipped
    (`_python_coerced_the_locale`).
    """
    coerced = environ is None and _python_coerced_the_locale(os.environ)
    environ = os.environ if environ is None else environ
    for variable in _LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value and not (coerced and variable == "LC_CTYPE"):
            normalized = value.lower().replace("-", "").replace("_", "")
            return "utf8" not in normalized
    return False


def glyphs_for(ascii_only: bool) -> Glyphs:
    """The glyph set for the given mode."""
    return ASCII if ascii_only else UNICODE


def current_glyphs(node: object) -> Glyphs:
    """The glyph set of the app `node` belongs to (Unicode when the app does not choose).

    Widgets call this while rendering, so switching the app's set and refreshing is all a
    switch takes.
    """
    app = getattr(node, "app", None)
    glyphs = getattr(app, "glyphs", None)
    return glyphs if isinstance(glyphs, Glyphs) else UNICODE
