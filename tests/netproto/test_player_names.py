"""Player names are cleaned so no name can restyle or corrupt a terminal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from netproto.wire.errors import BadName
from netproto.wire.names import MAX_NAME_LENGTH, clean_name


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ann", "Ann"),
        ("  Ann   Lee ", "Ann Lee"),
        ("\x1b[31mRed\x1b[0m", "Red"),
        ("\x1b]0;pwned title\x07Bob", "Bob"),
        ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("Eve\x1bc", "Eve"),
        ("tab\there\nnewline", "tabherenewline"),
        ("rtl\u202eevil", "rtlevil"),
        ("zero\u200bwidth", "zerowidth"),
        ("\u00e9t\u00e9", "\u00e9t\u00e9"),
        ("e\u0301", "\u00e9"),  # NFC
        ("[red]markup[/red]", "[red]markup[/red]"),  # kept: the UI escapes markup
        ("\x9b31mC1\x9b0m", "C1"),
    ],
)
def test_clean_name(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize("raw", ["", "   ", "\x1b[31m\x1b[0m", "\u200b\u200b", "x" * 25, 5, None])
def test_bad_names(raw: object) -> None:
    with pytest.raises(BadName):
        clean_name(raw)


@given(st.text(max_size=80))
def test_any_clean_name_is_printable_and_short(raw: str) -> None:
    try:
        name = clean_name(raw)
    except BadName:
        return
    assert 1 <= len(name) <= MAX_NAME_LENGTH
    assert name == name.strip()
    assert all(char.isprintable() for char in name)
    assert "\x1b" not in name
