"""The phone page's words in each language, from a real door over HTTP: the table of words
comes translated (by `?lang=`, else the browser's Accept-Language, else the door's own
language), mirrored (`dir: rtl`) for Urdu and Pashto, every key still there."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from ono99tui import i18n
from ono99tui.web.config import WebDoorConfig
from ono99tui.web.server import WebDoor

TABLE = Path(i18n.__file__).parent / "web" / "static" / "phone" / "messages.json"


@pytest.fixture
async def door(door_config: WebDoorConfig) -> AsyncIterator[WebDoor]:
    async with WebDoor(door_config) as started:
        yield started


async def words(door: WebDoor, query: str = "", **headers: str) -> dict[str, str]:
    async with aiohttp.ClientSession() as client, client.get(
            f"http://127.0.0.1:{door.port}/static/phone/messages.json{query}",
            headers=headers) as response:
        assert response.status == 200
        return dict(json.loads(await response.text()))


@pytest.mark.parametrize("language", ["be", "bn", "kn", "ur", "ps"])
async def test_the_page_asks_for_its_language(door: WebDoor, language: str) -> None:
    english = json.loads(TABLE.read_text(encoding="utf-8"))
    table = await words(door, f"?lang={language}")
    assert table.keys() == english.keys() | {"plural"}  # and which form each count takes
    assert table["lang"] == language
    assert table["dir"] == ("rtl" if language in ("ur", "ps") else "ltr")
    catalog = i18n.translator(language)
    changed = [key for key in english if key not in ("lang", "dir") and table[key] != english[key]]
    # Every word translated (a few are the same in every language: "−10", "2022 (Mattel)").
    assert len(changed) > len(english) - 8
    assert table["join.button"] == catalog.gettext(english["join.button"])


async def test_the_browser_language_decides_when_the_page_does_not_ask(door: WebDoor) -> None:
    table = await words(door, **{"Accept-Language": "de-DE,ur;q=0.8,en;q=0.5"})
    assert table["lang"] == "ur" and table["dir"] == "rtl"
    english = await words(door, **{"Accept-Language": "de-DE"})
    assert english["lang"] == "en" and english["join.button"] == "Sit down"
    unknown = await words(door, "?lang=xx", **{"Accept-Language": "bn"})
    assert unknown["lang"] == "bn"


def test_the_accept_language_header_is_read_by_preference() -> None:
    assert i18n.language_from_accept("en;q=0.2, kn;q=0.9, be") == "be"
    assert i18n.language_from_accept("ps-AF") == "ps"
    assert i18n.language_from_accept("fr, de;q=x") is None
    assert i18n.language_from_accept("") is None


@pytest.mark.parametrize(("language", "counts"), [
    # Belarusian has three forms: 1, 21, 101 and 221 take the first; 3, 22 and 104 the
    # second; 5, 11, 12, 111 and 0 the third.
    ("be", {1: 0, 21: 0, 101: 0, 221: 0, 3: 1, 22: 1, 104: 1, 5: 2, 11: 2, 12: 2, 111: 2, 0: 2}),
    ("en", {1: 0, 0: 1, 2: 1, 21: 1, 301: 1}),
    ("ps", {1: 0, 0: 1, 4: 1, 250: 1}),
])
async def test_counted_words_come_in_the_languages_forms(door: WebDoor, language: str,
                                                        counts: dict[int, int]) -> None:
    """Played by hand: the phone said "1 tokens" and "1 points". A counted entry comes as
    the language's forms with its rule: the form of each count the page picks (as
    phone.js's tn does, counts past the rule's span by their last two digits) is the one
    the terminal's ngettext picks."""
    table: dict[str, Any] = await words(door, f"?lang={language}")
    catalog = i18n.translator(language)
    rule = table["plural"]
    for count, form in counts.items():
        picked = rule[count] if count < len(rule) else rule[len(rule) // 2 + count % 100]
        assert picked == form, count
        assert table["seat.tokens"][picked] == catalog.ngettext(
            "{count} token", "{count} tokens", count)
    english = json.loads(TABLE.read_text(encoding="utf-8"))
    plural_keys = [key for key, value in english.items() if isinstance(value, list)]
    assert {"seat.tokens", "seat.score", "seat.cards", "game.pile", "turn.owes"} <= set(plural_keys)
    forms = 3 if language == "be" else 2
    assert all(len(table[key]) == forms for key in plural_keys)
