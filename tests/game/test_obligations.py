"""Play 2 / Double Play obligations beyond the worked examples."""

from __future__ import annotations

import random

from ono99tui.game import (
    Busted,
    Card,
    ObligationCleared,
    ObligationCreated,
    ObligationPassed,
    Play,
    Reversed,
    apply,
    position,
    preset,
)

C = Card
R2022 = preset("2022")
R1980 = preset("1980")


def rng() -> random.Random:
    return random.Random(0)


def test_play2_as_the_second_card_obligates_the_next_seat() -> None:
    hands = [[C.ONE, C.PLAY2, C.TWO, C.TWO], [C.THREE] * 4, [C.FOUR] * 4]
    state = position(R2022, hands, total=20, owed=2)
    state, _ = apply(state, Play(0, C.ONE), rng())
    state, events = apply(state, Play(0, C.PLAY2), rng())
    assert ObligationCleared(0) in events and ObligationCreated(1) in events
    assert (state.turn, state.owed, state.obligated) == (1, 2, True)


def test_double_play_as_the_second_card_in_1980() -> None:
    hands = [[C.TWO, C.PLAY2, C.TWO, C.TWO], [C.THREE] * 3, [C.FOUR] * 3]
    state = position(R1980, hands, total=20, owed=2)
    state, _ = apply(state, Play(0, C.TWO), rng())
    state, events = apply(state, Play(0, C.PLAY2), rng())
    assert ObligationCreated(1) in events
    assert (state.turn, state.owed) == (1, 2)


def test_reverse_as_the_second_card_only_reverses() -> None:
    hands = [[C.ONE, C.REVERSE, C.TWO, C.TWO], [C.THREE] * 4, [C.FOUR] * 4]
    state = position(R2022, hands, total=20, owed=2)
    state, _ = apply(state, Play(0, C.ONE), rng())
    state, events = apply(state, Play(0, C.REVERSE), rng())
    assert Reversed(-1) in events
    assert not any(isinstance(e, ObligationPassed) for e in events)
    assert (state.turn, state.owed, state.obligated) == (2, 1, False)


def test_a_seat_that_busts_before_its_first_owed_card_ends_the_obligation() -> None:
    hands = [[C.PLAY2, C.ONE, C.ONE, C.ONE], [C.NINE, C.NINE, C.TEN, C.TEN], [C.FOUR] * 4]
    state = position(R2022, hands, total=92)
    state, events = apply(state, Play(0, C.PLAY2), rng())
    assert ObligationCreated(1) in events and Busted(1, 92) in events
    assert ObligationCleared(1) in events
    assert (state.turn, state.owed, state.obligated) == (2, 1, False)


def test_obligations_never_stack() -> None:
    # Passed on twice, the obligation still asks exactly two cards of whoever takes it.
    hands = [[C.PLAY2, C.ONE, C.ONE, C.ONE], [C.PLAY2, C.TWO, C.TWO, C.TWO], [C.FIVE] * 4]
    state = position(R2022, hands, total=10)
    state, _ = apply(state, Play(0, C.PLAY2), rng())
    state, events = apply(state, Play(1, C.PLAY2), rng())
    assert ObligationPassed(1, 2) in events
    assert (state.turn, state.owed) == (2, 2)
    state, _ = apply(state, Play(2, C.FIVE), rng())
    assert (state.turn, state.owed) == (2, 1)
    state, _ = apply(state, Play(2, C.FIVE), rng())
    assert (state.turn, state.owed, state.obligated) == (0, 1, False)


def test_custom_first_card_play2_that_is_not_an_answer_obligates_after_the_turn() -> None:
    rules = R2022.replace(obligation_answers=["reverse"], obligation_card_first=True)
    hands = [[C.PLAY2, C.ONE, C.ONE, C.ONE], [C.THREE] * 4, [C.FOUR] * 4]
    state = position(rules, hands, total=10, owed=2)
    state, events = apply(state, Play(0, C.PLAY2), rng())
    assert (state.turn, state.owed) == (0, 1)  # not an answer: the second card is still owed
    state, events = apply(state, Play(0, C.ONE), rng())
    assert ObligationCreated(1) in events
    assert (state.turn, state.owed) == (1, 2)
