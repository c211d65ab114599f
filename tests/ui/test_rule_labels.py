"""One table words every rule option: each mode and switch the engine has is worded once."""

from __future__ import annotations

import dataclasses

from ono99tui.game import DECK_COUNTS, Card, Ono99Card, Rules, Scoring, preset
from ono99tui.game.rules import PRESETS
from ono99tui.ui.present import face_for
from ono99tui.ui.screens.waiting_room import rules_summary
from ono99tui.words.rule_labels import (
    ONO99_WORDS,
    RULE_SWITCHES,
    SCORING_WORDS,
    SWITCH_WORDS,
    deck_label,
    ono99_effect,
    preset_label,
    scoring_label,
    scoring_rule,
    switch_setting,
)


def test_every_mode_of_the_engine_is_worded() -> None:
    assert set(SCORING_WORDS) == set(Scoring) and set(ONO99_WORDS) == set(Ono99Card)
    for words in (*SCORING_WORDS.values(), *ONO99_WORDS.values()):
        assert words.label and words.rule
    assert all(words.effect for words in ONO99_WORDS.values())
    # Labels tell the modes apart in a drop-down.
    assert len({w.label for w in SCORING_WORDS.values()}) == len(SCORING_WORDS)
    assert len({w.label for w in ONO99_WORDS.values()}) == len(ONO99_WORDS)


def test_every_switch_is_a_yes_no_rule_option() -> None:
    booleans = {f.name for f in dataclasses.fields(Rules) if f.type in ("bool", bool)}
    assert set(SWITCH_WORDS) <= booleans
    assert [w.option for w in RULE_SWITCHES] == ["four_ono99_swap", "negative_totals",
                                                 "late_draw_penalty"]


def test_every_preset_and_deck_is_named() -> None:
    for name, rules in PRESETS.items():
        assert preset_label(rules).startswith(f"{name} (")
    assert {deck_label(deck) for deck in DECK_COUNTS} == {"112-card 2022 deck",
                                                          "54-card 1980 deck"}


def test_the_screens_use_the_same_words() -> None:
    rules = preset("1980-set99").replace(scoring="points-elimination", target=60)
    assert face_for(Card.ONO99, rules).effect == ONO99_WORDS[Ono99Card.SET99].effect == "sets 99"
    assert rules_summary(rules) == "preset 1980-set99, points, elimination, target 60"
    assert scoring_rule(rules).startswith("Who busts sits out") and "reaching 60" in scoring_rule(rules)
    assert switch_setting("negative_totals", rules) == "Totals below 0: allowed"
    assert switch_setting("late_draw_penalty", rules) == "Late-draw penalty: off"


def test_unknown_modes_are_shown_as_they_are() -> None:
    assert scoring_label("golf") == "golf" and ono99_effect("wild") == "wild"



def test_the_help_page_names_the_scoring_as_the_waiting_room_does() -> None:
    # Read at 80x24: "Scoring: points-lowest" on the help page (the engine's name) and
    # "points, lowest wins" in the waiting room named one setting twice.
    from ono99tui.ui.screens.help import rules_sections

    for mode in Scoring:
        rules = preset("1980").replace(scoring=mode)
        options = dict(rules_sections(rules))["This table's options"]
        line = next(line for line in options.splitlines() if line.startswith("Scoring: "))
        assert line.startswith(f"Scoring: {SCORING_WORDS[mode].label}"), line
