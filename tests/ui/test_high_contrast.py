"""The high-contrast theme: chosen by `--high-contrast` or ONO99_HIGH_CONTRAST=1, and every
colour it gives text at least 7:1 against its background (WCAG 2's AAA level for text)."""

from __future__ import annotations

import os

import pytest
from table_helpers import LocalMatch, RecordingApp, hand, lobby_for, open_local
from textual.color import Color

from ono99tui.cli import build_parser
from ono99tui.commands.plain_option import use_high_contrast
from ono99tui.game import Card, position, preset
from ono99tui.ui.terminal_app import HIGH_CONTRAST_THEME


def luminance(colour: Color) -> float:
    """WCAG 2's relative luminance."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def contrast_ratio(one: Color, other: Color) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_measure_is_wcag_s() -> None:
    assert contrast_ratio(Color(255, 255, 255), Color(0, 0, 0)) == pytest.approx(21)
    assert contrast_ratio(Color(118, 118, 118), Color(255, 255, 255)) == pytest.approx(4.54, abs=0.01)


def test_every_colour_of_the_theme_stands_out_from_its_background() -> None:
    theme = HIGH_CONTRAST_THEME
    for background in (theme.background, theme.surface, theme.panel):
        for name in ("foreground", "primary", "secondary", "accent", "success", "warning",
                     "error"):
            ratio = contrast_ratio(Color.parse(getattr(theme, name)), Color.parse(background or ""))
            assert ratio >= 7, f"{name} on {background}: {ratio:.1f}"


async def test_the_environment_chooses_the_theme_and_the_cards_read_well(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONO99_HIGH_CONTRAST", "1")
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        # Two of the four cannot be played at 92: their dimmed text must read well too.
        state = position(preset("2022"), [[Card.ONO99, Card.ZERO, Card.SEVEN, Card.REVERSE],
                                         [Card.FIVE] * 4], total=92)
        await open_local(app, pilot, LocalMatch.at(state), lobby_for(2))
        assert app.theme == "ono99-high-contrast"
        cards = hand(app).cards
        assert [card.has_class("-unplayable") for card in cards] == [True, False, True, False]
        for card in cards:
            text, back = card.styles.color, card.styles.background
            behind = back if back.a == 1 else Color.parse(HIGH_CONTRAST_THEME.background or "")
            assert contrast_ratio(text, behind) >= 7, (card.slot, text, behind)


def test_the_flag_asks_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # Set, then removed, through monkeypatch: whatever the flag sets is undone after the
    # test (a variable monkeypatch never saw would stay, and recolour every later app).
    monkeypatch.setenv("ONO99_HIGH_CONTRAST", "0")
    monkeypatch.delenv("ONO99_HIGH_CONTRAST")
    use_high_contrast(build_parser().parse_args(["solo"]))
    assert "ONO99_HIGH_CONTRAST" not in os.environ
    use_high_contrast(build_parser().parse_args(["join", "--high-contrast"]))
    assert os.environ["ONO99_HIGH_CONTRAST"] == "1"
