"""What a 16- or 256-colour terminal shows of an app: its cells as the terminal gets them.

Textual paints in true colour and Rich turns each colour into the nearest one the terminal
has as it writes (`TERM=xterm`: the 16 ANSI colours; `xterm-256color`: the 256-colour
palette). An SVG snapshot is exported in true colour, so a colour a real terminal shows as
the same as its neighbour looks distinct there. `ColourTerminal` exports the screen as the
terminal gets it instead (every colour brought down to `colour_system`), drawn with xterm's
own palette; `shown_cells` gives the same cells to compare in a test.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.color import Color, ColorSystem, ColorType
from rich.console import Console
from rich.segment import Segment, Segments
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from textual.app import App
from textual.geometry import Region

# xterm's default palette (its X resources): what `TERM=xterm` in a stock xterm shows.
XTERM_THEME = TerminalTheme(
    (0, 0, 0),
    (229, 229, 229),
    [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
     (0, 205, 205), (229, 229, 229)],
    [(127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255),
     (0, 255, 255), (255, 255, 255)],
)
SYSTEMS = {"standard": ColorSystem.STANDARD, "256": ColorSystem.EIGHT_BIT}
# The terminal's own text and background colours (a reversed cell swaps them).
DEFAULT_FG, DEFAULT_BG = "default-fg", "default-bg"


def _down(color: Color | None, system: ColorSystem) -> Color | None:
    if color is None or color.type is ColorType.DEFAULT:
        return color
    return color.downgrade(system)


def _down_style(style: Style | None, system: ColorSystem) -> Style | None:
    if style is None:
        return None
    return style + Style.from_color(_down(style.color, system), _down(style.bgcolor, system))


def _screen_segments(app: App[Any], system: ColorSystem) -> list[Segment]:
    """The whole screen as segments, colours brought down to `system`."""
    width, height = app.size
    render = app.screen._compositor.render_update(full=True,
                                                  screen_stack=app._background_screens)
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", legacy_windows=False, safe_box=False)
    return [segment if segment.control else
            Segment(segment.text, _down_style(segment.style, system))
            for segment in console.render(render)]


@dataclass(frozen=True, slots=True)
class Cell:
    """One character cell as the terminal shows it: the colours are the terminal's own
    (DEFAULT_FG, DEFAULT_BG, or a palette number), and the attributes that change how it
    looks."""

    char: str
    fg: str
    bg: str
    bold: bool
    reverse: bool
    underline: bool

    @property
    def looks(self) -> tuple[str, str, bool, bool]:
        """What the eye tells apart in a cell: its two colours (swapped when reversed), bold
        and underline; a dim tint the palette rounds away is not in it."""
        fg, bg = (self.bg, self.fg) if self.reverse else (self.fg, self.bg)
        return fg, bg, self.bold, self.underline


def _name(color: Color | None, default: str) -> str:
    if color is None or color.type is ColorType.DEFAULT:
        return default
    return str(color.number)


def shown_cells(app: App[Any], colour_system: str, region: Region | None = None) -> list[Cell]:
    """The cells of `region` (default: the whole screen), row by row, as a terminal with
    `colour_system` ("standard": 16 colours, "256") shows them."""
    system = SYSTEMS[colour_system]
    width, height = app.size
    grid: list[list[Cell | None]] = [[None] * width for _ in range(height)]
    x = y = 0
    for segment in _screen_segments(app, system):
        if segment.control:
            for control in segment.control:
                if control[0].name == "CURSOR_MOVE_TO":
                    x, y = int(control[1]), int(control[2])
            continue
        if segment.text == "\n":
            y, x = y + 1, 0
            continue
        style = segment.style or Style()
        for char in segment.text:
            if 0 <= y < height and 0 <= x < width:
                grid[y][x] = Cell(char, _name(style.color, DEFAULT_FG), _name(style.bgcolor, DEFAULT_BG),
                                  bool(style.bold), bool(style.reverse),
                                  bool(style.underline))
            x += 1
    area = region or Region(0, 0, width, height)
    return [cell for row in grid[area.y:area.bottom] for cell in row[area.x:area.right]
            if cell is not None]


class ColourTerminal:
    """Mix into an App: its snapshots show what a terminal of `colour_system` shows."""

    colour_system: ClassVar[str] = "standard"

    def export_screenshot(self, *, title: str | None = None, simplify: bool = False) -> str:
        """The screen as the terminal gets it, drawn with xterm's palette (see the module)."""
        app: App[Any] = self  # type: ignore[assignment]
        width, height = app.size
        console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                          color_system="truecolor", record=True, legacy_windows=False,
                          safe_box=False)
        console.print(Segments(_screen_segments(app, SYSTEMS[self.colour_system])))
        return console.export_svg(title=title or app.title, theme=XTERM_THEME)
