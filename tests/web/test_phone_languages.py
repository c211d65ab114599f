"""The phone page's words in each language, from a real door over HTTP: the table of words
comes translated (by `?lang=`, else the browser's Accept-Language, else the door's own
language), mirrored (`dir: rtl`) for Urdu and Pashto, every key still there."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

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
    assert table.keys() == english.keys()
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
