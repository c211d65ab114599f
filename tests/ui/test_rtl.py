"""Urdu and Pashto as a left-to-right terminal must be given them: shaped, ordered right to
left piece by piece, box edges and numbers where they were, styles kept."""

from __future__ import annotations

import unicodedata

import pytest
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from ono99tui.ui import rtl


def test_a_line_without_right_to_left_letters_is_untouched() -> None:
    assert rtl.visual_line("│ Total 57 │ ana played 7 → 57") == "│ Total 57 │ ana played 7 → 57"


def test_an_urdu_phrase_reads_right_to_left_and_its_number_left_to_right() -> None:
    shown = rtl.visual_line("کل 57")
    assert shown.startswith("57 ")  # the number, still "57", is at the sentence's end (left)
    # The letters reversed and in their joined forms: lam (last) final, keheh (first) initial.
    assert [unicodedata.name(c) for c in shown[3:]] == [
        "ARABIC LETTER LAM FINAL FORM", "ARABIC LETTER KEHEH INITIAL FORM"]


def test_box_edges_and_column_gaps_stay_in_their_cells() -> None:
    line = "│ ستاسو وار │ 99 │  کل 5"
    shown = rtl.visual_line(line)
    assert len(shown) == len(line)
    for column, char in enumerate(line):
        if char == "│" or line[column:column + 2] == "  ":
            assert shown[column] == char, (column, shown)
    assert shown.index("99") == line.index("99")


def test_a_sentence_opening_with_a_latin_name_stays_one_right_to_left_sentence() -> None:
    line = "Normal bot نے 8 کھیلا"
    shown = rtl.visual_line(line)
    assert shown.endswith("Normal bot")  # the sentence starts at the right
    assert " 8 " in shown


def test_brackets_are_mirrored_in_a_right_to_left_piece() -> None:
    shown = rtl.visual_line("بیا لوبه (r)")
    assert shown.startswith("(r)")  # "(r)" ends the sentence, drawn at its left, still "(r)"


def test_shaping_keeps_one_character_per_cell() -> None:
    text = "لا لوبغاړی ټولټال ښځه"  # lam-alef would be one ligature: not here
    assert len(rtl.shaped(text)) == len(text)


def test_a_strip_keeps_each_character_style() -> None:
    red, blue = Style(color="red"), Style(color="blue")
    strip = Strip([Segment("│", blue), Segment("کل", red), Segment(" 5│", blue)])
    shown = rtl.visual_strip(strip)
    assert shown.cell_length == strip.cell_length
    pairs = [(char, segment.style) for segment in shown for char in segment.text]
    assert pairs[0] == ("│", blue) and pairs[-1] == ("│", blue)
    assert [style for char, style in pairs if "\u0600" <= char <= "\u06ff" or "\ufb50" <= char <= "\ufeff"] == [red, red]
    assert ("5", blue) in pairs


@pytest.mark.parametrize(("environ", "saved", "expected"), [
    ({}, "", "app"), ({}, "terminal", "terminal"), ({"ONO99_RTL": "terminal"}, "app", "terminal"),
    ({"ONO99_RTL": "app"}, "terminal", "app"), ({"ONO99_RTL": "nonsense"}, "", "app"),
])
def test_who_orders_right_to_left_text(monkeypatch: pytest.MonkeyPatch, environ: dict[str, str],
                                       saved: str, expected: str) -> None:
    monkeypatch.delenv("ONO99_RTL", raising=False)
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    assert rtl.rtl_mode(saved) == expected
