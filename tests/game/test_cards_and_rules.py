"""Decks, card names, rule options and the presets of RULES.md §5."""

from __future__ import annotations

from collections import Counter

import pytest

from ono99tui.game import (
    PRESET_NAMES,
    PRESETS,
    Card,
    InvalidRules,
    Rules,
    UnknownPreset,
    deck,
    preset,
)

C = Card


def test_2022_deck_has_112_cards_with_the_rules_counts() -> None:
    counts = Counter(deck(preset("2022")))
    assert sum(counts.values()) == 112
    assert counts[C.ZERO] == 8 and counts[C.ONE] == 6
    assert all(counts[Card(v)] == 6 for v in range(2, 10))
    for card in (C.TEN, C.MINUS_TEN, C.REVERSE, C.PLAY2, C.ONO99):
        assert counts[card] == 10
    assert counts[C.HOLD] == 0


def test_1980_deck_has_54_cards_with_the_rules_counts() -> None:
    for name in ("1980", "1980-set99"):
        counts = Counter(deck(preset(name)))
        assert sum(counts.values()) == 54
        assert counts[C.ZERO] == 0 and counts[C.ONE] == 0
        assert all(counts[Card(v)] == 3 for v in range(2, 10))
        assert counts[C.TEN] == 10 and counts[C.MINUS_TEN] == 4 and counts[C.REVERSE] == 6
        assert counts[C.PLAY2] == 2 and counts[C.HOLD] == 4 and counts[C.ONO99] == 4


def test_card_names_per_edition_and_tokens() -> None:
    assert C.PLAY2.label(preset("2022")) == "Play 2"
    assert C.PLAY2.label(preset("1980")) == "Double Play"
    assert C.ONO99.label() == "ONO 99" and C.MINUS_TEN.label() == "-10" and C.SEVEN.label() == "7"
    assert all(Card.from_token(card.token) is card for card in Card)
    assert len({card.token for card in Card}) == len(Card)
    assert [int(c) for c in Card if c.is_number] == list(range(11))


def test_presets_match_the_rules_table() -> None:
    assert PRESET_NAMES == ("2022", "1980", "1980-set99")
    table = {
        "deck": ("2022", "1980", "1980"),
        "bust_at": (99, 99, 100),
        "negative_totals": (False, True, True),
        "ono99_card": ("dead", "dead", "set99"),
        "four_ono99_swap": (True, False, False),
        "dead_hand_busts": (False, True, False),
        "obligation_answers": (
            (C.REVERSE, C.PLAY2),
            (C.REVERSE, C.HOLD),
            (C.REVERSE, C.HOLD),
        ),
        "obligation_card_first": (True, False, False),
        "scoring": ("single", "tokens", "tokens"),
        "late_draw_penalty": (False, False, False),
    }
    for option, values in table.items():
        assert tuple(getattr(preset(name), option) for name in PRESET_NAMES) == values, option
    assert preset() == PRESETS["2022"] == Rules()
    assert all(preset(name).name == name for name in PRESET_NAMES)


def test_unknown_preset_lists_the_valid_names() -> None:
    with pytest.raises(UnknownPreset) as caught:
        preset("1990")
    message = str(caught.value)
    assert "1990" in message
    assert all(name in message for name in PRESET_NAMES)
    assert isinstance(caught.value, ValueError)


def test_replace_overrides_and_validates() -> None:
    rules = preset("1980").replace(scoring="points-lowest", target=150, late_draw_penalty=True)
    assert (rules.scoring, rules.target, rules.late_draw_penalty, rules.name) == (
        "points-lowest",
        150,
        True,
        "1980",
    )
    assert preset("1980").scoring == "tokens"  # presets are never changed
    assert rules.replace(obligation_answers=["hold", "play2"]).obligation_answers == (
        C.PLAY2,
        C.HOLD,
    )


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"scoring": "best-of-3"}, "scoring"),
        ({"ono99_card": "wild"}, "ono99_card"),
        ({"deck": "1999"}, "deck"),
        ({"bust_at": "99"}, "bust_at"),
        ({"bust_at": True}, "bust_at"),
        ({"bust_at": 5}, "bust_at"),
        ({"target": 0}, "target"),
        ({"tokens": -1}, "tokens"),
        ({"late_draw_penalty": 1}, "late_draw_penalty"),
        ({"obligation_answers": ["7"]}, "obligation_answers"),
        ({"obligation_answers": "reverse"}, "obligation_answers"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_raise_a_typed_error(options, option) -> None:
    with pytest.raises(InvalidRules) as caught:
        preset().replace(**options)
    assert caught.value.option == option
    assert isinstance(caught.value, ValueError)
