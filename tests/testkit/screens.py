"""What a Textual app's screen shows, read through Textual's public screenshot.

`App.export_screenshot` draws the whole screen (modal screens over the ones behind them
included) as an SVG of one `<text>` element per run of same-styled characters, each placed
at its cell's x (12.2 px a cell, Rich's default) and clipped to its line, and one `<rect>`
per run of background. Reading that back gives the cells without reaching into Textual's
private compositor. Rich is pinned (pyproject.toml), and so is this format.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from textual.app import App

# Rich's export_svg: font size 20, a cell 0.61 of it wide, a line 1.22 of it high.
_CELL_WIDTH = 20 * 0.61
_LINE_HEIGHT = 20 * 1.22
_TEXT = re.compile(
    r'<text class="([\w-]+)" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#[\w-]+-line-(\d+)\)">(.*?)</text>', re.S)
_RECT = re.compile(
    r'<rect fill="(#[0-9a-fA-F]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
    r'height="[\d.]+" shape-rendering="crispEdges"/>')
_CLASS = re.compile(r"\.([\w-]+) \{ ([^}]*) \}")


@dataclass(frozen=True, slots=True)
class ShownCell:
    """One cell as drawn: its characters ("" for a wide character's second cell; a combining
    mark joins the cell before it, as a terminal draws it), and how they look."""

    text: str
    look: str
    background: str


def _cell(x: str) -> int:
    return round(float(x) / _CELL_WIDTH)


def screen_cells(app: App[Any]) -> list[list[ShownCell]]:
    """The app's screen as rows of cells."""
    width, height = app.size
    svg = app.export_screenshot(simplify=False)
    looks = {name: css.strip() for name, css in _CLASS.findall(svg)}
    backgrounds = [["" for _ in range(width)] for _ in range(height)]
    for fill, x, y, w in ((m[0], m[1], m[2], m[3]) for m in _RECT.findall(svg)):
        row = round(float(y) / _LINE_HEIGHT)
        if 0 <= row < height:
            start = _cell(x)
            for column in range(start, min(width, start + round(float(w) / _CELL_WIDTH))):
                backgrounds[row][column] = fill
    rows: list[list[ShownCell]] = [[ShownCell(" ", "", backgrounds[y][x]) for x in range(width)]
                                   for y in range(height)]
    for name, x, line, content in _TEXT.findall(svg):
        row, column = int(line), _cell(x)
        if not 0 <= row < height:
            continue
        look = looks.get(name, "")
        for char in html.unescape(content).replace("\xa0", " ").rstrip("\n"):
            size = cell_len(char)
            if size == 0:
                if column > 0:
                    before = rows[row][column - 1]
                    rows[row][column - 1] = ShownCell(before.text + char, before.look,
                                                      before.background)
                continue
            for part in range(size):
                if column + part < width:
                    rows[row][column + part] = ShownCell(char if part == 0 else "", look,
                                                         backgrounds[row][column + part])
            column += size
    return rows


def screen_lines(app: App[Any]) -> list[str]:
    """The app's screen as plain text, one string per row (trailing blanks kept)."""
    return ["".join(cell.text for cell in row) for row in screen_cells(app)]


def screen_text(app: App[Any]) -> str:
    """What the terminal shows, as plain text (one line per row)."""
    return "\n".join(screen_lines(app))
