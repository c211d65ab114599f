"""`refusal_for_view` explains a refused play from a seat's view alone, exactly as the
engine would from the full State: checked for every seat and every card in hand after
every move of random play-outs (every preset, scoring mode and option mix)."""

from __future__ import annotations

import random

from game_invariants import bot_chooser, play_match
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_playouts import VARIANTS, _rules

from ono99tui.game import (
    Card,
    Discard,
    IllegalMove,
    Play,
    State,
    apply,
    position,
    preset,
    refusal,
    refusal_for_view,
    resign,
    spectator_view,
    start_match,
    view,
)


def check_every_card_of_every_seat(state: State) -> int:
    """Compare view and engine for all plays and discards open to ask about; how many."""
    compared = 0
    for seat in range(state.seats):
        seen = view(state, seat)
        for card in set(seen.hand):
            for move in (Play(seat, card), Discard(seat, card)):
                explained = refusal_for_view(seen, move)
                assert (explained is None) == (move in seen.legal_moves), (move, explained)
                if explained is not None:
                    engine = refusal(state, move)
                    assert (type(explained), explained.code, explained.reason) == (
                        type(engine), engine.code, engine.reason), (move, state)
                compared += 1
    return compared


@given(
    options=VARIANTS,
    seats=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    resign_chance=st.sampled_from((0.0, 0.02)),
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_view_refusals_match_the_engine(options, seats, seed, resign_chance) -> None:
    compared = 0
    for state, _events, _move in play_match(_rules(options), seats, seed,
                                            bot_chooser(("greedy", "random")), check=False,
                                            resign_chance=resign_chance):
        compared += check_every_card_of_every_seat(state)
    assert compared > 0


def test_a_second_ono99_in_one_turn_is_explained_as_the_engine_does() -> None:
    # In `tens` mode an ONO 99 card adds nothing: under a Play 2 obligation the player may
    # hold another for the second card, with the total still ending in 0. Only the legal
    # moves of the view tell that one was played this turn already.
    rules = preset("2022").replace(ono99_card="tens")
    hands = [[Card.ONO99, Card.ONO99, Card.FIVE, Card.TWO], [Card.ONE, Card.TWO, Card.THREE, Card.FOUR]]
    state = position(rules, hands, total=30, turn=0, owed=2)
    assert refusal_for_view(view(state, 0), Play(0, Card.ONO99)) is None
    state, _ = apply(state, Play(0, Card.ONO99), random.Random(1))
    refused = refusal_for_view(view(state, 0), Play(0, Card.ONO99))
    assert refused is not None and refused.code == "one_ono99_per_turn"
    assert check_every_card_of_every_seat(state) > 0


def test_a_spectator_and_the_match_end_are_refused_in_words() -> None:
    state, _ = start_match(preset("2022"), 3, random.Random(1))
    card = state.hands[0][0]
    refused = refusal_for_view(spectator_view(state), Play(0, card))
    assert isinstance(refused, IllegalMove) and refused.code == "spectator"
    over, _ = resign(state, 1, random.Random(2))
    over, _ = resign(over, 2, random.Random(3))
    seen = view(over, 0)
    assert refusal_for_view(seen, Play(0, seen.hand[0])).code == refusal(over, Play(0, seen.hand[0])).code
