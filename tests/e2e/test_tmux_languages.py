"""A solo match in each language, played to its end in a real terminal (tmux, 80×24).

Every screen on the way must speak the language: no English word of the English catalog
is left (names — the bots are called "Normal bot" — card numerals and the keys aside), and
every box keeps its edges in their columns: the table's frames and the cards are measured
in terminal cells (glibc's wcwidth, which is what tmux advances by), so a Bengali or
Kannada label that Textual measured short would push an edge out of line.

The words are looked for as the terminal shows them: for Urdu and Pashto after the
app's own shaping and ordering (ono99tui/ui/rtl.py).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gettext
import locale
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from testkit.tmux import TmuxSession, TmuxTimeout

from ono99tui.host.journal.file import JOURNAL_VERSION
from ono99tui.i18n import DOMAIN, LOCALE_DIR, RIGHT_TO_LEFT
from ono99tui.ui.rtl import visual_line

pytestmark = [pytest.mark.tmux, pytest.mark.slow]

ONO99 = [sys.executable, "-m", "ono99tui"]
GOLDEN = Path(__file__).parents[1] / "host" / "journals"
LANGUAGES = ("be", "bn", "kn", "ur", "ps")
# Words a translated screen may still show: names (the bots' and the player's, the solo
# table's "Solo"), the game's and the keys' own names, what the catalogs keep as it is (they
# say so per language), and the command the host's invitation says to type ("ono99 join").
ALLOWED = {"ONO", "Normal", "bot", "tess", "Enter", "PgUp", "PgDn", "Esc", "Ctrl", "ASCII",
           "Unicode", "Home", "End", "Tab", "join", "Solo"}
BOX = set("│┃╏║╎")
CORNERS_TOP = set("╭┏╔┌█")


def _libc_width() -> object:
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.wcwidth.restype = ctypes.c_int
    libc.wcwidth.argtypes = [ctypes.c_wchar]
    locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    return libc.wcwidth


_wcwidth = _libc_width()


def cells(line: str) -> list[str]:
    """The characters of a captured line by terminal column (combining marks joined)."""
    columns: list[str] = []
    for char in line:
        width = _wcwidth(char)  # type: ignore[operator]
        if width <= 0 and columns:
            columns[-1] += char
        else:
            columns.append(char)
            if width == 2:
                columns.append("")
    return columns


def english_words() -> set[str]:
    """Every word of three letters or more in the English catalog's messages."""
    template = (LOCALE_DIR / "ono99.pot").read_text(encoding="utf-8")
    ids = re.findall(r'^msgid(?:_plural)? "(.*)"$', template, re.M)
    words = {word for text in ids for word in re.findall(r"(?<![{\w])[A-Za-z]{3,}(?![\w}])", text)}
    return words - ALLOWED


def translate(language: str, message: str) -> str:
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as stream:
        text = gettext.GNUTranslations(stream).gettext(message)
    return visual_line(text) if language in RIGHT_TO_LEFT else text


def translate_plural(language: str, one: str, many: str, n: int, **fields: object) -> str:
    """`ngettext` of the language's catalog, its fields filled, as a line shows it."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as stream:
        text = gettext.GNUTranslations(stream).ngettext(one, many, n).format(**fields)
    return visual_line(text) if language in RIGHT_TO_LEFT else text


CARD_TOP = re.compile("[╭┏╔█][─╍═▀]{12}[╮┓╗█]")


def assert_boxes_hold(screen: str) -> None:
    """The middle frames' side edges are in the columns of their top corners on every row
    down to their bottom corners, and each card's edges in the columns of its top edge.
    (A screen under a dialog is not measured: the dialog covers the frames.)"""
    if re.search("▀{20,}", screen):
        return
    rows = [cells(line) for line in screen.splitlines()]
    for top, row in enumerate(rows):
        joined = "".join(cell[:1] or " " for cell in row)
        lefts = [match.start() for match in CARD_TOP.finditer(joined)]
        if len(lefts) < 2:
            continue
        for below in rows[top + 1:top + 6]:
            for x in lefts:
                for edge_x in (x, x + 13):
                    edge = below[edge_x] if edge_x < len(below) else ""
                    assert edge in BOX | {"█"}, (
                        f"card edge at column {edge_x} holds {edge!r}:\n{screen}")
    for top, row in enumerate(rows):
        corners = [x for x, cell in enumerate(row) if cell in {"╭", "╮"}]
        if len(corners) < 2 or "─" not in "".join(row):
            continue
        for below in rows[top + 1:]:
            text = "".join(below)
            if "╰" in text or "╯" in text:
                break
            for x in corners:
                edge = below[x] if x < len(below) else ""
                assert edge in BOX, f"column {x} holds {edge!r}, not an edge:\n{screen}"
        break


def english_left(screen: str, words: set[str]) -> set[str]:
    return {word for word in re.findall(r"[A-Za-z]{3,}", screen) if word in words}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_solo_match_to_its_end_speaks_the_language(tmux: TmuxSession, language: str) -> None:
    words = english_words()
    tmux.start([*ONO99, "solo", "--lang", language, "--bots", "1", "--bot-delay", "0",
                "--seed", "5", "--name", "tess"])
    # The match-over dialog's Footer offers the way back to the table.
    over = translate(language, "Back to the table")
    seen: list[str] = []
    deadline = time.monotonic() + 240
    key = 0
    while True:
        if time.monotonic() > deadline:
            raise TmuxTimeout(f"the match did not end:\n{tmux.capture()}")
        screen = tmux.capture()
        if "Normal bot" in screen or "tess" in screen:
            seen.append(screen)
        if over in screen:
            break
        # Any card key: one that cannot be played rings, one that can plays; a bust is
        # automatic. The bot plays at once.
        tmux.send_keys(str(key % 4 + 1))
        key += 1
        tmux.wait_until_changed(screen, timeout=0.5)
    seen.append(tmux.capture())
    assert len(seen) > 3
    for screen in seen:
        assert english_left(screen, words) == set(), screen
        assert_boxes_hold(screen)
    tmux.send_keys("q")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_host_s_waiting_room_and_its_dialogs_speak_the_language(
        tmux: TmuxSession, language: str) -> None:
    # The host's own waiting room (the seats, an empty one, the rules panel, the status,
    # the Footer's keys), then its rules panel focused and the chat prompt with the emotes.
    words = english_words()
    tmux.start([*ONO99, "host", "--lang", language, "--bind", "127.0.0.1", "--port", "0",
                "--no-advertise", "--name", "ono", "--player", "tess", "--seats", "3",
                "--bots", "1", "--bot-delay", "0", "--seed", "5"])
    # The host and a bot, a seat empty.
    ready = translate_plural(language, "s starts the game for the {count} here, all ready; "
                             "{empty} seat stays empty.", "s starts the game for the {count} "
                             "here, all ready; {empty} seats stay empty.", 1, count=2, empty=1)
    tmux.wait_for(re.escape(ready), timeout=60)
    screens = [tmux.capture()]
    # Whole, never cut: beside the Rating column a language's longer words give way to
    # the short form.
    assert any(f"3  {translate(language, empty)} " in screens[0]
               for empty in ("(empty seat)", "(empty)")), screens[0]
    tmux.send_keys("o")  # the rules panel
    tmux.wait_until_still(still_for=0.5, timeout=15)
    screens.append(tmux.capture())
    tmux.send_keys("Escape")  # back to the seats (alone: Escape and c at once is Alt+c)
    tmux.wait_until_still(still_for=0.5, timeout=15)
    tmux.send_keys("c")  # the chat prompt
    tmux.wait_for(re.escape(translate(language, "Say to the table")), timeout=15)
    screens.append(tmux.capture())
    for screen in screens:
        assert english_left(screen, words) == set(), screen
        assert_boxes_hold(screen)
    tmux.send_keys("Escape")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_replay_of_a_match_speaks_the_language(
        tmux: TmuxSession, tmp_path: Path, language: str) -> None:
    # A finished match's journal (the golden file of the newest format: three players at a
    # real headless table, written in English: the replay's language is the replay's own),
    # then `ono99 replay --last` in the language, stepped from the deal to the match's end.
    words = english_words()
    tables = tmp_path / "data" / "tables"
    tables.mkdir(parents=True)
    shutil.copyfile(GOLDEN / f"v{JOURNAL_VERSION}" / "2022.journal", tables / "2022.journal")
    tmux.env["ONO99_DATA_DIR"] = str(tmp_path / "data")
    tmux.start([*ONO99, "replay", "--last", "--lang", language])
    tmux.wait_for(re.escape(translate(language, "Every hand, face up")), timeout=60)
    screens = [tmux.capture()]
    # Each step changes the screen (a single round's ↓ already goes to its last move, so
    # Home goes back to the deal before End).
    for keys in (["Right"], ["Right", "Right", "Right"], ["Down"], ["Home"], ["End"]):
        before = tmux.capture()
        tmux.send_keys(*keys)
        assert tmux.wait_until_changed(before, timeout=15) != before, keys
        tmux.wait_until_still(still_for=0.3, timeout=15)
        screens.append(tmux.capture())
    over = translate(language, "Match over: {winners}.").split("{winners}")[0].strip()
    assert over in screens[-1], screens[-1]
    for screen in screens:
        assert english_left(screen, words) == set(), screen
    tmux.send_keys("q")
