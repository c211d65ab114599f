"""The first line of a solo match in line mode counts its bots in the right number (one
bot, two bots), in English and in a language with three plural forms."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ono99tui import i18n
from ono99tui.line.start import solo_intro


@pytest.fixture(autouse=True)
def english_again() -> Iterator[None]:
    yield
    i18n.use_language(None)


def test_one_bot_is_one_bot_and_three_are_bots() -> None:
    i18n.use_language(None)
    assert solo_intro(1) == "ONO 99, line mode: a solo match against 1 bot."
    assert solo_intro(3) == "ONO 99, line mode: a solo match against 3 bots."


def test_belarusian_takes_its_own_plural_forms() -> None:
    assert i18n.use_language("be")
    assert solo_intro(1) == "ONO 99, радковы рэжым: партыя супраць 1 бота."
    assert solo_intro(3) == "ONO 99, радковы рэжым: партыя супраць 3 ботаў."
    assert solo_intro(5) == "ONO 99, радковы рэжым: партыя супраць 5 ботаў."
