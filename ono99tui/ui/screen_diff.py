"""Send the terminal only the cells that change.

Textual repaints whole widgets (and whole rows of them), and writes every segment as cursor
move + full colour codes + text + reset. When the player's own move shifts the hand, four
cards, the log, the prompt and the title are repainted: about 1,100 cells and 5-6 KB at
80x24, of which fewer than half the cells look any different. Over SSH on a slow link that
is felt on every key press.

`ScreenDiff` keeps a model of what the terminal shows and rewrites each frame Textual writes
into only the cells that differ from it, with one colour code per change of style. The
picture is the same; only fewer bytes say it.

It understands exactly what Textual's frames are made of — absolute cursor moves (CUP),
colours and attributes (SGR), newlines and text — and nothing else: a write holding anything
more (an alternate-screen switch, an erase, a hyperlink) goes out untouched and the model
forgets everything, so the next frame is written in full. Cells whose width the terminal
might judge differently (wide and combining characters) are followed by a fresh cursor move,
as Textual's own output is at each widget edge. The driver calls `forget` whenever the
terminal may have lost its contents (resize, suspend).
"""

from __future__ import annotations

import re

from rich.cells import get_character_cell_size

# The pieces of a Textual frame: CUP, SGR, newline, carriage return, printable text.
# Anything else (group 6) makes the write one to pass through untouched.
_TOKEN = re.compile(
    r"\x1b\[(\d*)(?:;(\d*))?H"  # 1, 2: cursor position (row; column), 1-based
    r"|\x1b\[([\d;]*)m"  # 3: SGR
    r"|(\n)"  # 4
    r"|(\r)"  # 5
    r"|([^\x00-\x1f\x7f-\x9f]+)"  # 6: printable text
    r"|(.)",  # 7: anything else: a control character or the start of another sequence
    re.DOTALL,
)
# Sequences that change modes, not what the cells show: they may pass without the model
# forgetting anything. (Private modes, the kitty keyboard protocol, mode queries, OSC
# strings such as the pointer shape, the bell.) The alternate screen is not among them.
_HARMLESS = re.compile(
    r"(?:\x1b\[\?(?!1049)[\d;]*[hl]"
    r"|\x1b\[\?[\d;]*\$p"
    r"|\x1b\[[<>=]?[\d;]*u"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|\x07)+",
    re.DOTALL,
)
SYNC_START = "\x1b[?2026h"
SYNC_END = "\x1b[?2026l"
_RESET = "\x1b[0m"
# Clean cells between two changed ones are rewritten rather than skipped with a cursor move
# (which costs about as many bytes as this many plain cells).
_BRIDGE = 4
# The continuation of a wide character: the cell it covers to its right.
_WIDE_TAIL = ""

Cell = tuple[str, str] | None  # (text, SGR since the last reset), None: not known


def _is_tail(cell: Cell) -> bool:
    return cell is not None and cell[0] == _WIDE_TAIL


class _Fallback(Exception):
    """The write holds something the model does not follow."""


class ScreenDiff:
    """What a terminal of `width` x `height` shows, and the bytes that change it."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._cells: list[list[Cell]] = []
        self.forget()

    def forget(self, width: int | None = None, height: int | None = None) -> None:
        """Know nothing about the terminal any more (optionally with a new size): the next
        frame is written in full."""
        if width is not None and height is not None:
            self.width, self.height = width, height
        self._cells = [[None] * self.width for _ in range(self.height)]
        # The terminal's own state: SGR in effect ("" is the default) and cursor position.
        self._style: str | None = None
        self._cursor: tuple[int, int] | None = None

    def filter(self, data: str) -> str:
        """The bytes to write instead of `data`, for the terminal to show the same thing."""
        if _HARMLESS.fullmatch(data):
            return data
        try:
            changed, cursor = self._apply(data)
        except _Fallback:
            self.forget()
            return data
        return self._render(changed, cursor)

    # --- reading a frame ------------------------------------------------------------------

    def _apply(self, data: str) -> tuple[dict[int, set[int]], tuple[int, int]]:
        """Update the model with `data`; return the changed cells by row and where `data`
        leaves the cursor. Raises `_Fallback` (with the model part updated) on anything it
        does not follow."""
        cells = self._cells
        width, height = self.width, self.height
        changed: dict[int, set[int]] = {}
        broken: dict[int, set[int]] = {}
        style = ""
        y: int | None = 0
        x: int | None = None
        if self._cursor is not None:
            y, x = self._cursor
        for match in _TOKEN.finditer(data):
            row_text, column_text, sgr, newline, carriage, text, other = match.groups()
            if text is not None:
                if y is None or x is None or not 0 <= y < height:
                    raise _Fallback
                x = self._put_text(
                    cells[y], changed.setdefault(y, set()), broken.setdefault(y, set()), x, text, style
                )
            elif sgr is not None:
                style = "" if sgr in ("", "0") else style + match.group(0)
            elif row_text is not None:
                y = int(row_text or 1) - 1
                x = int(column_text or 1) - 1
            elif newline is not None:
                y = None if y is None else y + 1
                x = None  # the terminal may or may not return the carriage
                if y is not None and y >= height:
                    raise _Fallback  # it would scroll
            elif carriage is not None:
                x = 0
            else:
                raise _Fallback
        if y is None or x is None or any(broken.values()):
            raise _Fallback
        return changed, (y, x)

    def _put_text(
        self, row: list[Cell], changed: set[int], broken: set[int], x: int, text: str, style: str
    ) -> int:
        """Write `text` into `row` from column `x`; return the column after it.

        Overwriting half of a wide character blanks its other half on the terminal, in a way
        the model cannot tell (which colours?): such a half goes into `broken`, and the frame
        must write it again itself.
        """
        width = self.width
        for char in text:
            size = 1 if char.isascii() else get_character_cell_size(char)
            if size == 0:  # combining: joins the character before it
                before = row[x - 1] if x > 0 else None
                if before is None or before[0] == _WIDE_TAIL:
                    raise _Fallback
                row[x - 1] = (before[0] + char, before[1])
                changed.add(x - 1)
                continue
            if x + size > width or x < 0:
                raise _Fallback  # the terminal would pile it up in the last column
            last = x + size - 1  # the last cell this character covers
            if x > 0 and _is_tail(row[x]):  # the wide character starting a cell earlier
                row[x - 1] = None
                broken.add(x - 1)
            if last + 1 < width and _is_tail(row[last + 1]):  # a wide one starting at `last`
                row[last + 1] = None
                broken.add(last + 1)
            cell = (char, style)
            if row[x] != cell:
                row[x] = cell
                changed.add(x)
            broken.discard(x)
            if size == 2:
                tail = (_WIDE_TAIL, style)
                if row[last] != tail:
                    row[last] = tail
                    changed.add(last)
                broken.discard(last)
            x += size
        return x

    # --- writing the change ----------------------------------------------------------------

    def _render(self, changed: dict[int, set[int]], cursor: tuple[int, int]) -> str:
        out: list[str] = []
        cells = self._cells
        for y in sorted(changed):
            columns = sorted(changed[y])
            if not columns:
                continue
            row = cells[y]
            for start, end in self._runs(row, columns):
                self._write_run(out, row, y, start, end)
        if out and self._style != "":
            out.append(_RESET)
            self._style = ""
        if self._cursor != cursor:
            out.append(f"\x1b[{cursor[0] + 1};{cursor[1] + 1}H")
            self._cursor = cursor
        return "".join(out)

    def _runs(self, row: list[Cell], columns: list[int]) -> list[tuple[int, int]]:
        """Stretches of the row to rewrite, from first to last column inclusive."""
        runs: list[list[int]] = []
        for x in columns:
            if row[x] is None:
                continue  # lost (half a wide character overwritten): nothing known to write
            if row[x][0] == _WIDE_TAIL:  # type: ignore[index]
                x -= 1  # the wide character starts a cell earlier
                if x < 0 or row[x] is None:
                    continue
            if runs and x <= runs[-1][1] + 1 + _BRIDGE and all(
                row[gap] is not None for gap in range(runs[-1][1] + 1, x)
            ):
                runs[-1][1] = max(runs[-1][1], x)
            else:
                runs.append([x, x])
        return [(start, end) for start, end in runs]

    def _write_run(self, out: list[str], row: list[Cell], y: int, start: int, end: int) -> None:
        position = (y, start)
        x = start
        while x <= end:
            cell = row[x]
            assert cell is not None
            text, style = cell
            if text == _WIDE_TAIL:
                x += 1
                continue
            if self._cursor != position:
                out.append(f"\x1b[{y + 1};{x + 1}H")
            if self._style != style:
                out.append(style if not self._style and style else _RESET + style)
                self._style = style
            out.append(text)
            trusted = len(text) == 1 and (text.isascii() or get_character_cell_size(text) == 1)
            x += 1
            if x < self.width and row[x] is not None and row[x][0] == _WIDE_TAIL:  # type: ignore[index]
                x += 1
                trusted = False
            # After a character whose width the terminal may see otherwise, move explicitly.
            position = (y, x)
            self._cursor = position if trusted else None
