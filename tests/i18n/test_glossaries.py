"""The cards are named as each language's rule book names them: the glossary beside each
catalog gives the name and quotes the book's words; the catalog uses exactly that name,
and the card faces and the help page show it."""

from __future__ import annotations

import re

import pytest

from ono99tui import i18n
from ono99tui.game import Card, preset
from ono99tui.i18n import LOCALE_DIR
from ono99tui.ui.present import face_for
from ono99tui.ui.screens.help import rules_sections
from ono99tui.words.rule_labels import card_label

LANGUAGES = ("be", "bn", "kn", "ur", "ps")
CARDS = {"Reverse": (Card.REVERSE, "2022"), "Play 2": (Card.PLAY2, "2022"),
         "Double Play (1980)": (Card.PLAY2, "1980"), "Hold (1980)": (Card.HOLD, "1980")}


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield None
    i18n.use_language(None)


def glossary(language: str) -> dict[str, tuple[str, str]]:
    """English term -> (the catalog's word, the book's words), from the glossary's table."""
    rows = {}
    text = (LOCALE_DIR / language / "GLOSSARY.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "---"):
            rows[cells[0]] = (cells[1], cells[2])
    return rows


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_cards_are_named_as_the_glossary_and_the_book_name_them(language: str) -> None:
    terms = glossary(language)
    i18n.use_language(language)
    for term, (card, deck) in CARDS.items():
        if term not in terms:
            continue
        word, book = terms[term]
        rules = preset("1980" if deck == "1980" else "2022")
        assert card_label(card, rules) == word, (language, term)
        assert face_for(card, rules).title == word
        if "not in the article" not in book:
            # The name is the book's (its first word at least, as the book spells it).
            assert re.sub(r"\s+", " ", word).split()[0] in book, (language, term, book)
    help_text = "\n".join(text for _heading, text in rules_sections(preset("2022")))
    assert card_label(Card.REVERSE, preset("2022")) in help_text
    assert card_label(Card.PLAY2, preset("2022")) in help_text
