"""Random play-outs of every preset and scoring mode, checking invariants after every move."""

from __future__ import annotations

import pytest
from game_invariants import bot_chooser, final_state, play_match
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ono99tui.game import MATCH_OVER, PRESET_NAMES, SCORING_MODES, preset

PRESET_AND_SCORING = [(name, scoring) for name in PRESET_NAMES for scoring in SCORING_MODES]


@pytest.mark.parametrize(("preset_name", "scoring"), PRESET_AND_SCORING)
def test_matches_end_with_invariants_held(preset_name: str, scoring: str) -> None:
    rules = preset(preset_name).replace(scoring=scoring)
    for seed in range(12):
        seats = 2 + seed % 7
        state = final_state(rules, seats, seed, ("greedy", "random"))
        assert state.phase == MATCH_OVER


VARIANTS = st.fixed_dictionaries(
    {
        "preset": st.sampled_from(PRESET_NAMES),
        "scoring": st.sampled_from(SCORING_MODES),
        "ono99_card": st.sampled_from(("dead", "tens", "set99")),
        "late_draw_penalty": st.booleans(),
        "four_ono99_swap": st.booleans(),
        "dead_hand_busts": st.booleans(),
        "target": st.sampled_from((30, 100)),
        "tokens": st.integers(0, 3),
    }
)


def _rules(options: dict[str, object]):
    options = dict(options)
    base = preset(str(options.pop("preset")))
    bust_at = 100 if options["ono99_card"] == "set99" else base.bust_at
    return base.replace(bust_at=bust_at, **options)


@given(
    options=VARIANTS,
    seats=st.integers(2, 8),
    seed=st.integers(0, 2**32 - 1),
    bots=st.sampled_from((("random",), ("greedy",), ("greedy", "random"))),
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_option_mix_keeps_invariants(options, seats, seed, bots) -> None:
    state = final_state(_rules(options), seats, seed, bots)
    assert state.phase == MATCH_OVER


@given(
    options=VARIANTS,
    seats=st.integers(2, 8),
    seed=st.integers(0, 2**32 - 1),
    resign_chance=st.sampled_from((0.01, 0.05, 0.3)),
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_resignations_interleaved_keep_invariants(options, seats, seed, resign_chance) -> None:
    # Seats leave at random moments (own turn, off turn, owing a Play 2, discarding, owing
    # a late draw); after every resignation and move the invariants of every play-out hold.
    state = final_state(_rules(options), seats, seed, ("greedy", "random"), resign_chance)
    assert state.phase == MATCH_OVER


@pytest.mark.slow
@given(
    preset_name=st.sampled_from(PRESET_NAMES),
    scoring=st.sampled_from(SCORING_MODES),
    seats=st.integers(2, 8),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_thousands_of_preset_matches(preset_name, scoring, seats, seed) -> None:
    rules = preset(preset_name).replace(scoring=scoring)
    for _ in play_match(rules, seats, seed, bot_chooser(("random",))):
        pass
