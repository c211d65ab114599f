"""`clean_chat_text`: whatever comes in, one inert line goes out (hypothesis)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netproto.wire.chat_text import MAX_COMBINING, EmptyChat, clean_chat_text
from netproto.wire.messages import MAX_CHAT_TEXT

NASTY = ("\x1b[2J", "\x1b]0;t\x07", "\x1bP1$r\x1b\\", "\x9b31m", "\x1bc", "\r\n", "\u2028",
         "\u202e", "\u2067", "\u200d", "\ufe0f", "\u0301" * 9, "[b]", "\x00", "\x7f")
raw_texts = st.lists(st.one_of(st.characters(), st.sampled_from(NASTY)), max_size=80).map(
    "".join)


@settings(max_examples=300)
@given(raw_texts)
def test_the_result_is_one_inert_line_or_empty_chat(raw: str) -> None:
    try:
        line = clean_chat_text(raw)
    except EmptyChat:
        return
    assert 1 <= len(line) <= MAX_CHAT_TEXT
    assert line == line.strip() and "  " not in line
    for char in line:
        category = unicodedata.category(char)
        assert category[0] != "C" and category not in ("Zl", "Zp"), repr(char)
        assert char == " " or not char.isspace()
        assert not 0xFE00 <= ord(char) <= 0xFE0F
    marks = 0
    for char in line:
        marks = marks + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        assert marks <= MAX_COMBINING
    assert clean_chat_text(line) == line  # cleaning twice changes nothing


@pytest.mark.parametrize(("raw", "clean"), [
    ("hi\x1b[31m red\x1b[0m", "hi red"),
    ("a\r\nb\tc\u2028d", "a b c d"),
    ("\u202eevil\u202c \u2066iso\u2069", "evil iso"),
    ("[bold]x[/bold]", "[bold]x[/bold]"),
    ("\x1b]0;title\x07shown", "shown"),
    ("e\u0301\u0301\u0301\u0301!", "é\u0301\u0301!"),
    ("☺\ufe0f", "☺"),
    ("  spaced   out  ", "spaced out"),
])
def test_worked_examples(raw: str, clean: str) -> None:
    assert clean_chat_text(raw) == clean


@pytest.mark.parametrize("raw", ["", "   ", "\x1b[2J", "\u200b\u200d", "\n\t", "\u0301"])
def test_nothing_printable_is_empty_chat(raw: str) -> None:
    with pytest.raises(EmptyChat):
        clean_chat_text(raw)
