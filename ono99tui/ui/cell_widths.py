"""Cell widths that agree with the terminal's: spacing vowel signs take a cell.

Bengali, Kannada (and every Indic script) write most dependent vowel signs as spacing
combining marks, Unicode category Mc (U+09BE BENGALI VOWEL SIGN AA, U+0CBE KANNADA VOWEL
SIGN AA, ...). A terminal advances the cursor for them: glibc's `wcwidth` gives them one
cell, and tmux, VTE and xterm.js draw them so. Rich 15.0.0's cell table (rich/_unicode_data)
gives every combining mark zero cells, so Textual measured "কার্ড" one or two cells short
and laid out everything to its right too far left: a five-cell widget right of a Bengali
label was drawn over. Upstream: Textualize/rich#3957 (open: Rich's table of zero-width marks
disagrees with terminals, reported for Thai); no Rich issue names Mc yet. The same fix went
into microsoft/terminal#17826, mattn/go-runewidth#102 and sindresorhus/string-width#80.
Until Rich takes it, this module makes the app agree.

`agree_with_terminal()` is the one place the app does this: it wraps the table loader
`rich.cells` looks its widths up in, so every measurement Rich and Textual make (cell_len,
set_cell_size, chop_cells, wrapping, the compositor) sees the terminal's widths. It is
pinned to rich==15.0.0 (pyproject.toml), whose rich.cells reads the table through
`load_cell_table`; tests/ui/test_cell_widths.py measures every string of the Bengali and
Kannada catalogs against glibc's `wcswidth` and fails if an upgrade changes that.

Marks with a nonzero canonical combining class stay zero cells: they are viramas and the
like (U+0CCD is Mn anyway; a few Mc such as U+0D3B are, too), which glibc also counts as
zero.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import cache

import rich.cells
from rich.cells import CellTable

_original_loader: Callable[[str], CellTable] | None = None


def _spacing_marks() -> list[int]:
    """Every code point of category Mc that glibc gives one cell (combining class 0)."""
    return [
        codepoint for codepoint in range(0x300, 0x1E000)  # no Mc lies above the SMP's scripts
        if unicodedata.category(chr(codepoint)) == "Mc"
        and unicodedata.combining(chr(codepoint)) == 0
    ]


def _with_one_cell(widths: Sequence[tuple[int, int, int]],
                   codepoints: list[int]) -> list[tuple[int, int, int]]:
    """`widths` (sorted, non-overlapping (start, end, cells) ranges; code points not in
    any range are one cell) with each of `codepoints` made one cell."""
    ones = set(codepoints)
    result: list[tuple[int, int, int]] = []
    for start, end, cells in widths:
        if cells != 0 or not any(start <= point <= end for point in ones if start <= point):
            result.append((start, end, cells))
            continue
        run_start: int | None = None
        for point in range(start, end + 1):
            if point in ones:
                if run_start is not None:
                    result.append((run_start, point - 1, 0))
                    run_start = None
            elif run_start is None:
                run_start = point
        if run_start is not None:
            result.append((run_start, end, 0))
    return result


def agree_with_terminal() -> None:
    """Make Rich (and so Textual) measure spacing marks as one cell, as terminals draw them.

    Idempotent; call before the app draws anything (TerminalApp does, at start-up).
    """
    global _original_loader
    if _original_loader is not None:
        return
    original = _original_loader = rich.cells.load_cell_table
    marks = _spacing_marks()

    @cache
    def load_agreeing(unicode_version: str = "auto") -> CellTable:
        table = original(unicode_version)
        return table._replace(widths=_with_one_cell(table.widths, marks))

    rich.cells.load_cell_table = load_agreeing
    # Widths measured before now were measured with the old table.
    rich.cells.get_character_cell_size.cache_clear()
    # Textual's `_cells.cell_len` is this same cached function, so one clear does both.
    rich.cells.cached_cell_len.cache_clear()
