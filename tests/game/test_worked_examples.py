"""RULES.md §6: every worked example, played on hand-made positions."""

from __future__ import annotations

import random

import pytest

from ono99tui.game import (
    Busted,
    Card,
    Eliminated,
    IllegalMove,
    ObligationCleared,
    ObligationCreated,
    ObligationPassed,
    Play,
    Played,
    Reversed,
    RoundDealt,
    RoundEnded,
    TokenLost,
    apply,
    legal_moves,
    position,
    preset,
)

C = Card
R2022 = preset("2022")
R1980 = preset("1980")
SET99 = preset("1980-set99")


def rng() -> random.Random:
    return random.Random(0)


def test_example_1_totals_add_up() -> None:
    state = position(R2022, [[C.TEN, C.TWO, C.THREE, C.FOUR], [C.SEVEN, C.TWO, C.THREE, C.FOUR]])
    state, events = apply(state, Play(0, C.TEN), rng())
    assert state.total == 10
    assert events[0] == Played(0, C.TEN, 10)
    state, events = apply(state, Play(1, C.SEVEN), rng())
    assert state.total == 17
    assert events[0] == Played(1, C.SEVEN, 17)


def test_example_2_only_plays_under_99_are_legal() -> None:
    state = position(R2022, [[C.ONO99, C.ZERO, C.SEVEN, C.REVERSE], [C.ONE] * 4], total=92)
    assert set(legal_moves(state, 0)) == {Play(0, C.ZERO), Play(0, C.REVERSE)}
    with pytest.raises(IllegalMove) as caught:
        apply(state, Play(0, C.SEVEN), rng())
    assert caught.value.code == "would_bust"
    assert caught.value.reason == "7 would make the total 99"


def test_example_2_a_hand_with_no_legal_move_busts() -> None:
    busting_hand = (C.ONO99, C.SEVEN, C.NINE, C.TEN)
    state = position(
        R2022, [[C.ZERO, C.ONE, C.ONE, C.ONE], busting_hand, [C.TWO] * 4], total=92
    )
    state, events = apply(state, Play(0, C.ZERO), rng())
    assert Busted(1, 92) in events
    assert Eliminated(1, busting_hand) in events  # 2022: the hand is shown to all
    assert not state.alive[1]
    assert state.turn == 2


def test_example_3_minus_ten_floor_in_2022_and_negative_in_1980() -> None:
    state = position(R2022, [[C.MINUS_TEN, C.ONE, C.ONE, C.ONE], [C.TWO] * 4], total=4)
    assert apply(state, Play(0, C.MINUS_TEN), rng())[0].total == 0
    state = position(R1980, [[C.MINUS_TEN, C.TWO, C.TWO, C.TWO], [C.THREE] * 3], total=6)
    assert apply(state, Play(0, C.MINUS_TEN), rng())[0].total == -4


def test_example_4_reverse_answers_play2_and_sends_it_back() -> None:
    hands = [[C.PLAY2, C.ONE, C.TWO, C.THREE], [C.REVERSE, C.FOUR, C.FIVE, C.SIX], [C.SEVEN] * 4]
    state = position(R2022, hands, total=10)
    state, events = apply(state, Play(0, C.PLAY2), rng())
    assert ObligationCreated(1) in events
    assert (state.turn, state.owed, state.obligated) == (1, 2, True)
    state, events = apply(state, Play(1, C.REVERSE), rng())
    assert Reversed(-1) in events
    assert ObligationPassed(1, 0) in events
    assert (state.turn, state.owed, state.direction) == (0, 2, -1)
    state, _ = apply(state, Play(0, C.ONE), rng())
    assert (state.turn, state.owed) == (0, 1)  # A must play a second card
    state, events = apply(state, Play(0, C.TWO), rng())
    assert ObligationCleared(0) in events
    # Counter-clockwise after A comes C, who plays normally.
    assert (state.turn, state.owed, state.obligated) == (2, 1, False)


def test_example_5_obligated_player_who_cannot_play_the_second_card_busts() -> None:
    hands = [[C.ONE] * 4, [C.FIVE, C.NINE, C.NINE, C.TEN], [C.TWO] * 4]
    # B draws an 8 after the 5: at 95 nothing in {9, 9, 10, 8} fits.
    state = position(R2022, hands, total=90, turn=1, owed=2, draw_pile=[C.EIGHT])
    state, events = apply(state, Play(1, C.FIVE), rng())
    assert events[0] == Played(1, C.FIVE, 95)
    assert Busted(1, 95) in events
    assert ObligationCleared(1) in events
    assert Eliminated(1, (C.NINE, C.NINE, C.TEN, C.EIGHT)) in events
    # C plays one card normally: the obligation ended with B.
    assert (state.turn, state.owed, state.obligated) == (2, 1, False)


def test_example_6_two_player_reverse_changes_nothing_but_the_total_stays() -> None:
    state = position(R2022, [[C.REVERSE, C.ONE, C.ONE, C.ONE], [C.TWO] * 4], total=30)
    after, events = apply(state, Play(0, C.REVERSE), rng())
    assert after.turn == 1
    assert after.direction == state.direction
    assert after.total == 30
    assert not any(isinstance(e, Reversed) for e in events)


def test_example_6_two_player_reverse_still_answers_play2() -> None:
    state = position(
        R2022, [[C.ONE] * 4, [C.REVERSE, C.TWO, C.TWO, C.TWO]], total=30, turn=1, owed=2
    )
    after, events = apply(state, Play(1, C.REVERSE), rng())
    assert ObligationPassed(1, 0) in events
    assert (after.turn, after.owed) == (0, 2)


def test_three_player_reverse_does_change_direction() -> None:
    state = position(R2022, [[C.REVERSE, C.ONE, C.ONE, C.ONE], [C.TWO] * 4, [C.THREE] * 4])
    after, events = apply(state, Play(0, C.REVERSE), rng())
    assert Reversed(-1) in events
    assert after.turn == 2


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ([C.HOLD, C.REVERSE, C.MINUS_TEN, C.PLAY2], {C.HOLD, C.REVERSE, C.MINUS_TEN, C.PLAY2}),
        ([C.ONO99, C.TWO, C.FIVE, C.NINE], {C.ONO99}),
        ([C.TWO, C.THREE, C.FOUR, C.FIVE], set()),
    ],
)
def test_example_7_set99_then_only_specials_or_another_99(hand, expected) -> None:
    state = position(SET99, [[C.ONO99, C.TWO, C.TWO, C.THREE], hand, [C.SIX] * 3], total=40)
    after, events = apply(state, Play(0, C.ONO99), rng())
    assert events[0] == Played(0, C.ONO99, 99)
    if expected:
        assert after.total == 99
        assert {move.card for move in legal_moves(after, 1)} == expected
    else:
        assert Busted(1, 99) in events  # tokens scoring: B loses a token, a new round starts
        assert TokenLost(1, 2) in events


def test_example_8_last_token_drops_to_zero_and_the_buster_starts_the_new_round() -> None:
    hands = [[C.HOLD, C.TWO, C.TWO, C.TWO], [C.FOUR, C.FIVE, C.SIX, C.SEVEN], [C.THREE] * 3]
    state = position(R1980, hands, total=95, tokens=[3, 1, 3])
    after, events = apply(state, Play(0, C.HOLD), rng())
    assert Busted(1, 95) in events
    assert TokenLost(1, 0) in events
    assert any(isinstance(e, RoundEnded) for e in events)
    dealt = [e for e in events if isinstance(e, RoundDealt)]
    assert dealt and dealt[0].starter == 1
    assert after.tokens == (3, 0, 3)
    assert after.round_no == 2 and after.total == 0
    assert all(after.alive)


def test_example_8_busting_with_no_token_left_eliminates() -> None:
    hands = [[C.HOLD, C.TWO, C.TWO, C.TWO], [C.FOUR, C.FIVE, C.SIX, C.SEVEN], [C.THREE] * 3]
    state = position(R1980, hands, total=95, tokens=[3, 0, 3])
    after, events = apply(state, Play(0, C.HOLD), rng())
    assert Eliminated(1, None) in events  # 1980: hands are not revealed
    assert not after.alive[1]
    dealt = [e for e in events if isinstance(e, RoundDealt)]
    # The next seat still in the match starts the new round.
    assert dealt and dealt[0].starter == 2
    assert after.hands[1] == ()
