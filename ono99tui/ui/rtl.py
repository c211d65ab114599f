"""Urdu and Pashto in terminals that neither shape nor order right-to-left text.

Most terminals (xterm, tmux, the Linux console, xterm.js) draw each character in the cell
the program put it in, left to right, in its isolated form: an Urdu sentence written in
logical order reads backwards, its letters unjoined. VTE (GNOME Terminal) and a few others
do the Unicode bidirectional algorithm and Arabic shaping themselves, and doing it twice
would undo it. So the app does it, unless the player says their terminal does:
`ONO99_RTL=terminal` in the environment, or `"rtl": "terminal"` in settings.json.

What the app does, in one place — every line Textual renders, after layout
(`order_right_to_left` wraps `Widget.render_lines`, pinned with textual==8.2.8):
- shapes the Arabic-script letters (arabic-reshaper, without ligatures, so that every
  character keeps its one cell and the layout Textual measured stays right);
- orders each line visually with the bidirectional algorithm (python-bidi's reference
  implementation), piece by piece between box edges and column gaps, each piece holding
  Urdu or Pashto a right-to-left paragraph in the cells it had: box edges stay in their
  columns, Latin names, card values and numbers read left to right inside the sentence
  ("کل 57" is drawn "57 لک", as Urdu readers read it);
- keeps each character's style (a run may span colours).

The line mode (`ono99 --plain`) prints logical order: screen readers and braille displays
order text themselves. The phone page mirrors with `dir="rtl"` in the browser.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

RTL_ENV = "ONO99_RTL"
# Where the right-to-left work is done: "app" (here) or "terminal" (the terminal does it).
MODES = ("app", "terminal")
# Strong right-to-left letters: Hebrew, Arabic and its supplements and presentation forms.
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")

_original_render_lines: Callable[..., list[Strip]] | None = None


def rtl_mode(saved: str = "") -> str:
    """"app" or "terminal": the environment's ONO99_RTL, else the saved setting, else "app"."""
    for value in (os.environ.get(RTL_ENV, ""), saved):
        if value in MODES:
            return value
    return "app"


def _reshaper() -> Any:
    import arabic_reshaper

    # No ligatures (lam-alef would take two characters into one cell and shift the line).
    return arabic_reshaper.ArabicReshaper(configuration={
        "support_ligatures": False, "delete_harakat": False, "delete_tatweel": False})


_shaper: Any = None


def shaped(text: str) -> str:
    """`text` with its Arabic-script letters in their joined forms, one character each."""
    global _shaper
    if _shaper is None:
        _shaper = _reshaper()
    result = _shaper.reshape(text)
    return result if len(result) == len(text) else text


# What splits a rendered line into pieces ordered one by one: box-drawing and block
# characters (a widget's edges, the big digits) and runs of two or more spaces (the
# columns of a title or a table). Each piece keeps its cells; only its inside is ordered.
_SEPARATOR = re.compile("[\u2500-\u259f]+| {2,}")


def visual_order(text: str) -> tuple[list[int], str]:
    """For each visual position of a rendered line, the logical index drawn there, and the
    characters to draw (brackets in a right-to-left piece mirrored). Each piece between
    separators is one paragraph of the bidirectional algorithm: right to left where it holds
    a right-to-left letter (an Urdu sentence that opens with a player's Latin name is still
    an Urdu sentence), left to right otherwise; box edges never move."""
    order: list[int] = []
    drawn: list[str] = []
    start = 0
    pieces = [*_SEPARATOR.finditer(text), None]
    for separator in pieces:
        end = separator.start() if separator is not None else len(text)
        piece = text[start:end]
        if _RIGHT_TO_LEFT.search(piece):
            piece_order, piece_drawn = _paragraph_order(piece)
        else:
            piece_order, piece_drawn = list(range(len(piece))), piece
        order += [start + index for index in piece_order]
        drawn.append(piece_drawn)
        if separator is not None:
            order += range(separator.start(), separator.end())
            drawn.append(separator.group())
            start = separator.end()
    return order, "".join(drawn)


def _paragraph_order(text: str) -> tuple[list[int], str]:
    from bidi import algorithm

    storage = algorithm.get_empty_storage()
    storage["base_level"] = 1
    storage["base_dir"] = "R"
    algorithm.get_embedding_levels(text, storage, False, False)
    for index, char in enumerate(storage["chars"]):
        char["index"] = index
    if len(storage["chars"]) != len(text):  # a surrogate pair: leave the line as it is
        return list(range(len(text))), text
    algorithm.explicit_embed_and_overrides(storage, False)
    algorithm.resolve_weak_types(storage, False)
    algorithm.resolve_neutral_types(storage, False)
    algorithm.resolve_implicit_levels(storage, False)
    algorithm.reorder_resolved_levels(storage, False)
    algorithm.apply_mirroring(storage, False)
    chars = storage["chars"]
    if len(chars) != len(text):  # the algorithm dropped a format character: leave it
        return list(range(len(text))), text
    return [char["index"] for char in chars], "".join(char["ch"] for char in chars)


def visual_line(text: str) -> str:
    """A logical-order line as a left-to-right terminal must be given it."""
    if not _RIGHT_TO_LEFT.search(text):
        return text
    return visual_order(shaped(text))[1]


def visual_strip(strip: Strip) -> Strip:
    """One rendered line, shaped and ordered, each character keeping its style."""
    text = strip.text
    if not _RIGHT_TO_LEFT.search(text):
        return strip
    chars: list[tuple[str, Style | None]] = []
    for segment in strip:
        if segment.control:
            return strip
        chars += [(char, segment.style) for char in segment.text]
    order, drawn = visual_order(shaped("".join(char for char, _style in chars)))
    segments: list[Segment] = []
    run, run_style = "", chars[order[0]][1] if chars else None
    for position, index in enumerate(order):
        style = chars[index][1]
        if style != run_style and run:
            segments.append(Segment(run, run_style))
            run = ""
        run_style = style
        run += drawn[position]
    if run:
        segments.append(Segment(run, run_style))
    return Strip(segments, strip.cell_length)


def order_right_to_left() -> None:
    """Shape and order every rendered line from now on (idempotent)."""
    global _original_render_lines
    if _original_render_lines is not None:
        return
    original = _original_render_lines = Widget.render_lines

    def render_lines(self: Widget, crop: Region) -> list[Strip]:
        strips = original(self, crop)
        # Not a screen's own lines: a modal screen's backdrop is the screen below it, whose
        # widgets' lines are ordered already (twice would undo it).
        if isinstance(self, Screen):
            return strips
        return [visual_strip(strip) for strip in strips]

    Widget.render_lines = render_lines  # type: ignore[method-assign]
