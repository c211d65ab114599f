"""Hand-made positions whose legal moves were counted by hand, for each preset.

Each case: (rules, hand, total, owed, ono99_this_turn, expected plays). `owed=2` means the
seat is taking a Play 2 obligation and has not played yet; obligated with owed=1 means the
first of the two cards is down. "swap" stands for SwapFour.
"""

from __future__ import annotations

import pytest

from ono99tui.game import Card, Play, SwapFour, legal_moves, position, preset

C = Card
R2022 = preset("2022")
R1980 = preset("1980")
SET99 = preset("1980-set99")
TENS = preset("1980").replace(ono99_card="tens")

CASES = [
    # 2022 ----------------------------------------------------------------------------
    ("2022 four ONO 99 may swap", R2022, [C.ONO99] * 4, 0, 1, False, {"swap"}),
    ("2022 ONO 99 is dead", R2022, [C.ONO99, C.ONO99, C.ONO99, C.FIVE], 0, 1, False, {C.FIVE}),
    ("2022 95: 3 fits, 4 does not", R2022, [C.THREE, C.FOUR, C.MINUS_TEN, C.PLAY2], 95, 1, False,
     {C.THREE, C.MINUS_TEN, C.PLAY2}),
    ("2022 98: only 0", R2022, [C.ZERO, C.ONE, C.TEN, C.ONO99], 98, 1, False, {C.ZERO}),
    ("2022 duplicates listed once", R2022, [C.NINE, C.NINE, C.TWO, C.TWO], 50, 1, False,
     {C.NINE, C.TWO}),
    ("2022 obligation: Play 2 answers", R2022, [C.PLAY2, C.REVERSE, C.NINE, C.TEN], 50, 2, False,
     {C.PLAY2, C.REVERSE, C.NINE, C.TEN}),
    ("2022 obligation, swap first", R2022, [C.ONO99] * 4, 50, 2, False, {"swap"}),
    ("2022 three ONO 99 and nothing else", R2022, [C.ONO99] * 3, 10, 1, False, set()),
    # 1980 ----------------------------------------------------------------------------
    ("1980 Double Play not first", R1980, [C.PLAY2, C.HOLD, C.FIVE, C.ONO99], 50, 2, False,
     {C.HOLD, C.FIVE}),
    ("1980 Double Play second", R1980, [C.PLAY2, C.HOLD, C.FIVE, C.ONO99], 50, "second", False,
     {C.PLAY2, C.HOLD, C.FIVE}),
    ("1980 Double Play on a plain turn", R1980, [C.PLAY2, C.TWO, C.ONO99, C.ONO99], 50, 1, False,
     {C.PLAY2, C.TWO}),
    ("1980 dead hand", R1980, [C.ONO99, C.ONO99], 0, 1, False, set()),
    ("1980 four ONO 99: no swap", R1980, [C.ONO99] * 4, 0, 1, False, set()),
    ("1980 negative totals", R1980, [C.MINUS_TEN, C.TEN], -30, 1, False, {C.MINUS_TEN, C.TEN}),
    ("1980 90: 8 and Hold", R1980, [C.NINE, C.EIGHT, C.TEN, C.HOLD], 90, 1, False,
     {C.EIGHT, C.HOLD}),
    # 1980-set99 ----------------------------------------------------------------------
    ("set99 at 99", SET99, [C.ONO99, C.TWO, C.HOLD, C.MINUS_TEN], 99, 1, False,
     {C.ONO99, C.HOLD, C.MINUS_TEN}),
    ("set99 90: 9 reaches 99 exactly", SET99, [C.NINE, C.TEN, C.ONO99, C.TWO], 90, 1, False,
     {C.NINE, C.ONO99, C.TWO}),
    ("set99 four ONO 99 still play", SET99, [C.ONO99] * 4, 50, 1, False, {C.ONO99}),
    ("set99 obligation: Hold answers, DP not first", SET99, [C.HOLD, C.PLAY2, C.REVERSE, C.TEN],
     95, 2, False, {C.HOLD, C.REVERSE}),
    # 1980 with the `tens` house rule -------------------------------------------------
    ("tens at 20", TENS, [C.ONO99, C.FIVE], 20, 1, False, {C.ONO99, C.FIVE}),
    ("tens at 25", TENS, [C.ONO99, C.FIVE], 25, 1, False, {C.FIVE}),
    ("tens at -10", TENS, [C.ONO99, C.FIVE], -10, 1, False, {C.ONO99, C.FIVE}),
    ("tens: one per turn", TENS, [C.ONO99, C.FIVE], 20, "second", True, {C.FIVE}),
    ("tens: a dead hand still busts", TENS, [C.ONO99, C.ONO99], 20, 1, False, set()),
]


@pytest.mark.parametrize(
    ("rules", "hand", "total", "owed", "ono99_this_turn", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_hand_counted_legal_moves(rules, hand, total, owed, ono99_this_turn, expected) -> None:
    obligated = owed in (2, "second")
    state = position(
        rules,
        [hand, [C.TEN, C.TEN]],
        total=total,
        owed=2 if owed == 2 else 1,
        obligated=obligated,
        ono99_this_turn=ono99_this_turn,
    )
    moves = legal_moves(state, 0)
    found = {"swap" if isinstance(move, SwapFour) else move.card for move in moves}
    assert found == expected
    assert len(moves) == len(expected)  # each distinct card once
    assert all(move.seat == 0 for move in moves)
    assert legal_moves(state, 1) == ()  # not seat 1's turn


def test_legal_moves_are_play_values() -> None:
    state = position(R2022, [[C.FIVE, C.ONE], [C.TWO]], total=10)
    assert legal_moves(state, 0) == (Play(0, C.FIVE), Play(0, C.ONE))
