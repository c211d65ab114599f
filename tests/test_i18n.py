"""The translation door: English by default, a catalog when one is found, English otherwise."""

from __future__ import annotations

import gettext
from pathlib import Path

import pytest

from ono99tui import i18n


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield None
    i18n.use_language(None)


def test_english_is_the_text_itself() -> None:
    assert i18n.use_language("en")
    assert i18n._("Your turn.") == "Your turn."
    assert i18n.ngettext("{n} card", "{n} cards", 1) == "{n} card"
    assert i18n.ngettext("{n} card", "{n} cards", 3) == "{n} cards"


def test_a_language_without_a_catalog_falls_back_to_english() -> None:
    assert not i18n.use_language("xx")
    assert i18n._("Your turn.") == "Your turn."


def test_a_compiled_catalog_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A minimal .mo written by hand (the GNU format: magic, counts, two tables of strings).
    import struct

    pairs = {b"": b"Content-Type: text/plain; charset=UTF-8\n", b"Your turn.": "Ваш ход.".encode()}
    keys = sorted(pairs)
    ids = b"\0".join(keys) + b"\0"
    strs = b"\0".join(pairs[k] for k in keys) + b"\0"
    header = 7 * 4
    key_table = header
    value_table = key_table + 8 * len(keys)
    ids_start = value_table + 8 * len(keys)
    strs_start = ids_start + len(ids)
    offsets_keys: list[int] = []
    offsets_values: list[int] = []
    pos = 0
    for k in keys:
        offsets_keys += [len(k), ids_start + pos]
        pos += len(k) + 1
    pos = 0
    for k in keys:
        offsets_values += [len(pairs[k]), strs_start + pos]
        pos += len(pairs[k]) + 1
    data = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), key_table, value_table, 0, 0)
    data += struct.pack(f"{len(offsets_keys)}i", *offsets_keys)
    data += struct.pack(f"{len(offsets_values)}i", *offsets_values)
    data += ids + strs
    target = tmp_path / "be" / "LC_MESSAGES"
    target.mkdir(parents=True)
    (target / f"{i18n.DOMAIN}.mo").write_bytes(data)
    assert isinstance(
        gettext.GNUTranslations((target / f"{i18n.DOMAIN}.mo").open("rb")), gettext.GNUTranslations
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert i18n.use_language("be")
    assert i18n._("Your turn.") == "Ваш ход."
    assert i18n._("Not in the catalog.") == "Not in the catalog."
