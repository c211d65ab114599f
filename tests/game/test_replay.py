"""Same seed + same moves → identical events and states, for every preset."""

from __future__ import annotations

import random

import pytest
from game_invariants import bot_chooser, play_match

from ono99tui.game import PRESET_NAMES, SCORING_MODES, apply, preset, start_match


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("scoring", SCORING_MODES)
def test_replaying_the_moves_with_the_seed_reproduces_the_match(preset_name, scoring) -> None:
    rules = preset(preset_name).replace(scoring=scoring)
    recorded = list(play_match(rules, 5, 2024, bot_chooser(("greedy", "random")), check=False))
    rng = random.Random(2024)
    state, events = start_match(rules, 5, rng)
    assert (state, events) == (recorded[0][0], recorded[0][1])
    for expected_state, expected_events, move in recorded[1:]:
        state, events = apply(state, move, rng)
        assert events == expected_events
        assert state == expected_state
    assert state.phase == "match_over"


def test_another_seed_deals_another_match() -> None:
    rules = preset("2022")
    first = start_match(rules, 4, random.Random(1))[0]
    second = start_match(rules, 4, random.Random(2))[0]
    assert first.hands != second.hands
