"""The app measures text as the terminal draws it: every string of the Bengali and Kannada
catalogs (and the others) is as many cells to Rich, after `agree_with_terminal`, as glibc's
`wcswidth` says, which is what tmux and VTE advance the cursor by.

Why glibc and not the `wcwidth` package: wcwidth 0.9 measures a virama conjunct (ನ್ನ) as
one cell, as Ghostty does, but tmux 3.3 and VTE give each consonant its own cell as glibc
does; the terminals the tests drive are the reference (docs/TRANSLATING.md).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gettext
import subprocess
import sys
import unicodedata

import pytest
from rich.cells import cell_len

from ono99tui.i18n import DOMAIN, LOCALE_DIR
from ono99tui.ui.cell_widths import agree_with_terminal

LANGUAGES = ("bn", "kn", "be", "ur", "ps")


def _glibc_width() -> object:
    import locale

    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.wcswidth.restype = ctypes.c_int
    libc.wcswidth.argtypes = [ctypes.c_wchar_p, ctypes.c_size_t]
    locale.setlocale(locale.LC_CTYPE, "C.UTF-8")

    def width(text: str) -> int:
        return int(libc.wcswidth(text, len(text)))

    return width


def _catalog_strings(language: str) -> list[str]:
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as stream:
        catalog = gettext.GNUTranslations(stream)
    texts: list[str] = []
    for value in catalog._catalog.values():  # type: ignore[attr-defined]
        # Each line as it would be drawn; a line with a control character is not text.
        texts += [line for line in str(value).splitlines() if line]
    return texts


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalog_string_is_as_wide_as_the_terminal_draws_it(language: str) -> None:
    agree_with_terminal()
    glibc = _glibc_width()
    texts = _catalog_strings(language)
    assert len(texts) > 50
    wrong = [(text, cell_len(text), glibc(text)) for text in texts  # type: ignore[operator]
             if cell_len(text) != glibc(text)]  # type: ignore[operator]
    assert wrong == [], wrong[:5]


def test_the_bengali_and_kannada_catalogs_have_spacing_marks_rich_alone_counts_short() -> None:
    # Rich untouched (a fresh interpreter): the fix is what makes the widths above agree.
    texts = [t for language in ("bn", "kn") for t in _catalog_strings(language)]
    with_marks = [t for t in texts if any(unicodedata.category(c) == "Mc" for c in t)]
    assert len(with_marks) > 20
    script = ("import sys, json; from rich.cells import cell_len; "
              "print(json.dumps([cell_len(t) for t in json.load(sys.stdin)]))")
    import json

    result = subprocess.run([sys.executable, "-c", script], input=json.dumps(with_marks),
                            capture_output=True, text=True, check=True, timeout=60)
    plain = json.loads(result.stdout)
    glibc = _glibc_width()
    assert all(p < glibc(t) for p, t in zip(plain, with_marks, strict=True))  # type: ignore[operator]


def test_the_marks_rich_counted_as_zero_are_one_cell_and_others_unchanged() -> None:
    agree_with_terminal()
    assert cell_len("\u09be") == 1 and cell_len("\u0cbe") == 1  # the two examples
    assert cell_len("কা") == 2 and cell_len("ಕಾ") == 2
    assert cell_len("\u0ccd") == 0  # KANNADA SIGN VIRAMA (Mn): still none
    assert cell_len("\u0301") == 0  # COMBINING ACUTE ACCENT: still none
    assert cell_len("中文") == 4 and cell_len("ONO 99") == 6


# The waiting room's option labels sit in a column of 12 cells (waiting_room.tcss
# `.option-label`), one of them the gap before the field: "চালের সেকেন্ড" (12) ran into
# the turn time's field.
OPTION_LABELS = ("Preset", "Scoring", "Target", "Tokens", "Turn secs", "ONO 99 card", "Bot level")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_waiting_room_s_option_labels_fit_their_column(language: str) -> None:
    width = _glibc_width()
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as stream:
        catalog = gettext.GNUTranslations(stream)
    too_wide = {label: catalog.gettext(label) for label in OPTION_LABELS
                if width(catalog.gettext(label)) > 11}  # type: ignore[operator]
    assert too_wide == {}
