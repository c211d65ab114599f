"""Send the terminal only the cells that change.

Textual repaints whole widgets (and whole rows of them), and writes every segment as cursor
move + full colour codes + text + reset. When the player's own move shifts the hand, four
cards, the log, the prompt and the title are repainted: about 1,100 cells and 5-6 KB at
80x24, of which fewer than half the cells look any different. Over SSH on a slow link that
is felt on every key press.

`ScreenDiff` keeps a model of what the terminal shows and rewrites each frame Textual writes
into only the cells that differ from it, sending only the colour attributes that change.
The picture is the same; only fewer bytes say it.

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
from functools import lru_cache

from rich.cells import get_character_cell_size

# The pieces of a Textual frame: CUP, SGR, newline, carriage return, printable text.
# Anything else (group 7) makes the write one to pass through untouched.
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
# forgetting anything. (The private modes Textual sets — cursor shown, autowrap, mouse
# reports, focus events, bracketed paste, synchronized output, in-band resize — the kitty
# keyboard protocol, mode queries, OSC strings such as the pointer shape, the bell.)
# Not the alternate screen, nor any mode that clears the screen or moves the origin.
_HARMLESS = re.compile(
    r"(?:\x1b\[\?{mode}(?:;{mode})*[hl]"
    r"|\x1b\[\?[\d;]*\$p"
    r"|\x1b\[[<>=][\d;]*u"  # kitty keyboard (a bare CSI u would restore the cursor)
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|\x07)+".format(mode="(?:25|7|1000|1002|1003|1004|1005|1006|1015|1016|2004|2026|2048)"),
    re.DOTALL,
)
SYNC_START = "\x1b[?2026h"
SYNC_END = "\x1b[?2026l"
_RESET = "\x1b[0m"
# Unchanged cells between two changed ones are rewritten rather than skipped with a cursor
# move when that is shorter; a cursor move is at most 9 bytes, hence at most this many.
_BRIDGE = 9
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
        if not data or _HARMLESS.fullmatch(data):
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
        height = self.height
        changed: dict[int, set[int]] = {}
        broken: dict[int, set[int]] = {}
        style = ""
        y: int | None = 0
        x: int | None = None
        if self._cursor is not None:
            y, x = self._cursor
        for match in _TOKEN.finditer(data):
            row_text, column_text, sgr, newline, carriage, text, _other = match.groups()
            if text is not None:
                if y is None or x is None or not 0 <= y < height:
                    raise _Fallback
                x = self._put_text(
                    cells[y],
                    changed.setdefault(y, set()),
                    broken.setdefault(y, set()),
                    x,
                    text,
                    style,
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
            row = cells[y]
            written_to = 0  # columns before this one are written already (or unchanged)
            for x in _targets(row, changed[y]):
                if x < written_to:
                    continue  # written on the way to an earlier one
                self._move_to(out, row, y, x)
                self._put(out, row, y, x)
                written_to = x + 1
        if out and self._style != "":
            out.append(_RESET)
            self._style = ""
        if self._cursor != cursor:
            out.append(_cup(*cursor))
            self._cursor = cursor
        return "".join(out)

    def _move_to(self, out: list[str], row: list[Cell], y: int, x: int) -> None:
        """Put the cursor at (y, x): by a cursor move, or by rewriting the few unchanged
        cells in between when that takes fewer bytes."""
        here = self._cursor
        if here == (y, x):
            return
        if here is not None and here[0] == y and 0 < x - here[1] <= _BRIDGE:
            gap = row[here[1] : x]
            if all(_trusted(cell) for cell in gap):
                style = self._style
                bridge = 0
                for cell in gap:
                    assert cell is not None
                    bridge += len(_switch(style, cell[1])) + len(cell[0].encode())
                    style = cell[1]
                target = row[x][1]  # type: ignore[index]
                bridge += len(_switch(style, target))
                jump = len(_cup(y, x)) + len(_switch(self._style, target))
                if bridge < jump:
                    for column in range(here[1], x):
                        self._put(out, row, y, column)
                    return
        out.append(_cup(y, x))
        self._cursor = (y, x)

    def _put(self, out: list[str], row: list[Cell], y: int, x: int) -> None:
        """Write the cell at (y, x), the cursor being there; a wide character's tail goes
        with it. After a character the terminal may judge wider or narrower than the model
        does, the cursor position counts as unknown (the next cell gets a cursor move)."""
        cell = row[x]
        assert cell is not None
        text, style = cell
        if self._style != style:
            out.append(_switch(self._style, style))
            self._style = style
        out.append(text)
        self._cursor = (y, x + 1) if _trusted(cell) else None


def _cup(y: int, x: int) -> str:
    return f"\x1b[{y + 1};{x + 1}H"


def _trusted(cell: Cell) -> bool:
    """A cell the terminal surely draws one column wide (and that is not half of a wide one)."""
    if cell is None:
        return False
    text = cell[0]
    return len(text) == 1 and (text.isascii() or get_character_cell_size(text) == 1)


def _targets(row: list[Cell], columns: set[int]) -> list[int]:
    """The columns to write for these changed cells: a wide character's tail is written by
    writing its head; a cell lost to half a wide character has nothing to write."""
    targets = set()
    for x in columns:
        if _is_tail(row[x]):
            x -= 1
        if x >= 0 and row[x] is not None:
            targets.add(x)
    return sorted(targets)


# SGR attributes: parameter that turns each flag off (22: both bold and faint).
_OFF = {1: "22", 2: "22", 3: "23", 4: "24", 5: "25", 7: "27", 8: "28", 9: "29", 53: "55"}
_COLOUR_OFF = {38: "39", 48: "49", 58: "59"}
_SGR_PARAMS = re.compile(r"\x1b\[([\d;]*)m")


@lru_cache(maxsize=512)
def _attributes(style: str) -> dict[int, str] | None:
    """The attributes a style string (SGRs after a reset) sets, each with its parameters;
    None if it uses anything `_switch` does not know how to turn off again."""
    attributes: dict[int, str] = {}
    for params in _SGR_PARAMS.findall(style):
        codes = params.split(";") if params else ["0"]
        index = 0
        while index < len(codes):
            code = int(codes[index] or 0)
            if code == 0:
                attributes.clear()
            elif code in _COLOUR_OFF:
                kind = codes[index + 1] if index + 1 < len(codes) else ""
                length = {"5": 3, "2": 5}.get(kind)
                if length is None or index + length > len(codes):
                    return None
                attributes[code] = ";".join(codes[index : index + length])
                index += length - 1
            elif 30 <= code <= 37 or 90 <= code <= 97:
                attributes[38] = str(code)
            elif 40 <= code <= 47 or 100 <= code <= 107:
                attributes[48] = str(code)
            elif code in _OFF:
                attributes[code] = str(code)
            else:
                return None
            index += 1
    return attributes


@lru_cache(maxsize=4096)
def _switch(current: str | None, target: str) -> str:
    """The SGR that takes the terminal from style `current` (None: not known) to `target`:
    a reset and the target's own codes, or only what differs when that is shorter."""
    if current == target:
        return ""
    if not target:
        return _RESET
    if current is None:
        return _RESET + target
    full = _RESET + target if current else target
    have, want = _attributes(current), _attributes(target)
    if have is None or want is None:
        return full
    off = []
    for attribute in have:
        if attribute not in want:
            off.append(_COLOUR_OFF.get(attribute) or _OFF[attribute])
    on = [
        value
        for attribute, value in want.items()
        if have.get(attribute) != value or (attribute in (1, 2) and "22" in off)
    ]
    codes = list(dict.fromkeys(off + on))
    delta = "\x1b[" + ";".join(codes) + "m"
    return delta if len(delta) < len(full) else full
