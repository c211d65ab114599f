"""Line mode in each language: a solo match told to its end in Belarusian, Bengali,
Kannada, Urdu and Pashto, with no English word of the catalog left (names, card numerals
and the typed command keys aside), and Urdu and Pashto in logical order, unshaped: screen
readers and braille displays order and shape text themselves."""

from __future__ import annotations

import gettext
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest
from plain_pty import PlainPlayer, line_env

from ono99tui.i18n import DOMAIN, LOCALE_DIR

pytestmark = pytest.mark.slow

LANGUAGES = ("be", "bn", "kn", "ur", "ps")
# Names (the player's and the bots'), the game's name, key names the catalogs keep.
# The command words the commands' list shows as they are typed ("b, bot, bot hard").
ALLOWED = {"ONO", "Normal", "bot", "tess", "Enter", "Ctrl", "ASCII", "Unicode", "OPTION",
           "VALUE", "NAME", "TEXT", "hello", "help", "hard", "say", "mute", "draw",
           "emotes", "start", "hint", "seat", "room", "last", "rematch", "hand", "quit",
           "rules", "swap", "total", "who", "remove", "ready"}


def english_words() -> set[str]:
    template = (LOCALE_DIR / "ono99.pot").read_text(encoding="utf-8")
    ids = re.findall(r'^msgid(?:_plural)? "(.*)"$', template, re.M)
    return {word for text in ids
            for word in re.findall(r"(?<![{\w])[A-Za-z]{3,}(?![\w}])", text)} - ALLOWED


def translated(language: str, message: str) -> str:
    with (LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as stream:
        return gettext.GNUTranslations(stream).gettext(message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_solo_match_in_line_mode_speaks_the_language(tmp_path: Path, language: str) -> None:
    player = PlainPlayer([sys.executable, "-m", "ono99tui", "solo", "--plain", "--lang",
                          language, "--bots", "1", "--bot-delay", "0", "--seed", "5",
                          "--name", "tess"], line_env(tmp_path, "tess"))
    over = translated(language, "Match over")
    try:
        deadline = time.monotonic() + 180
        answers = "1234sd"
        turn = 0
        while over not in player.transcript:
            assert time.monotonic() < deadline, player.transcript[-3000:]
            try:
                player.prompt(timeout=0.5)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                break
            player.send(answers[turn % len(answers)])
            turn += 1
    finally:
        player.close()
    text = player.transcript
    assert over in text
    assert translated(language, "Your turn.") in text or turn > 0
    left = {word for word in re.findall(r"[A-Za-z]{3,}", text)} & english_words()
    assert left == set(), (left, text[-3000:])
    if language in ("ur", "ps"):
        # Logical order, the letters as written: no presentation forms (the TUI's shaping).
        assert not re.search("[\ufb50-\ufdff\ufe70-\ufeff]", text)
        assert re.search("[\u0600-\u06ff]", text)
