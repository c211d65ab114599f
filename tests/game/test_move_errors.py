"""Typed refusals: malformed versus illegal moves, each with a code and a readable reason."""

from __future__ import annotations

import random

import pytest

from ono99tui.game import (
    Card,
    Discard,
    Draw,
    IllegalMove,
    MalformedMove,
    MoveError,
    Play,
    SwapFour,
    apply,
    position,
    preset,
)

C = Card
R2022 = preset("2022")
R1980 = preset("1980")


def refuse(state, move) -> MoveError:
    before = state
    snapshot = tuple(state)
    with pytest.raises(MoveError) as caught:
        apply(state, move, random.Random(0))
    # The state given is unchanged (and still usable).
    assert tuple(before) == snapshot
    return caught.value


PLAIN = position(R2022, [[C.SEVEN, C.ONO99, C.ONE, C.PLAY2], [C.TWO] * 4, [C.THREE] * 4], total=92)


@pytest.mark.parametrize(
    ("state", "move", "code", "reason"),
    [
        (PLAIN, Play(1, C.TWO), "not_your_turn", "it is seat 0's turn"),
        (PLAIN, Play(0, C.SEVEN), "would_bust", "7 would make the total 99"),
        (PLAIN, Play(0, C.NINE), "not_in_hand", "you hold no 9"),
        (PLAIN, Play(0, C.ONO99), "dead_card", "the ONO 99 card can never be played"),
        (PLAIN, SwapFour(0), "no_swap", "you need four ONO 99 cards to swap"),
        (PLAIN, Draw(0), "no_late_draw", "cards are drawn automatically in these rules"),
        (PLAIN, Discard(0, C.SEVEN), "no_discard",
         "only a player who busted in points scoring discards"),
        (
            position(R1980, [[C.PLAY2, C.TWO], [C.TWO]], total=10, owed=2),
            Play(0, C.PLAY2),
            "not_first_card",
            "Double Play may not be the first of your two cards",
        ),
        (
            position(R1980.replace(ono99_card="tens"), [[C.ONO99, C.TWO], [C.TWO]], total=15),
            Play(0, C.ONO99),
            "ono99_needs_tens",
            "ONO 99 needs a total ending in 0, not 15",
        ),
        (
            position(R1980, [[C.ONO99, C.ONO99], [C.TWO]], total=15),
            Play(0, C.ONO99),
            "dead_hand",
            "a hand of only ONO 99 cards is dead",
        ),
        (
            position(R1980, [[C.TWO], [C.TWO], [C.THREE]], alive=[True, False, True]),
            Play(1, C.TWO),
            "eliminated",
            "seat 1 is out of the match",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_illegal_moves_have_codes_and_reasons(state, move, code, reason) -> None:
    error = refuse(state, move)
    assert type(error) is IllegalMove
    assert (error.code, error.reason) == (code, reason)
    assert str(error) == reason


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("play 7", "not_a_move"),
        (None, "not_a_move"),
        (Play("0", C.SEVEN), "bad_seat"),  # type: ignore[arg-type]
        (Play(True, C.ONE), "bad_seat"),  # type: ignore[arg-type]
        (Play(7, C.ONE), "bad_seat"),
        (Play(-1, C.ONE), "bad_seat"),
        (Play(0, 1), "bad_card"),  # type: ignore[arg-type]
        (Play(0, "1"), "bad_card"),  # type: ignore[arg-type]
        (Discard(0, None), "bad_card"),  # type: ignore[arg-type]
    ],
)
def test_malformed_moves(move, code) -> None:
    error = refuse(PLAIN, move)
    assert type(error) is MalformedMove
    assert error.code == code
    assert error.reason


def test_error_classes_are_distinct_value_errors() -> None:
    assert issubclass(MalformedMove, MoveError) and issubclass(IllegalMove, MoveError)
    assert issubclass(MoveError, ValueError)
    assert not issubclass(MalformedMove, IllegalMove) and not issubclass(IllegalMove, MalformedMove)


def test_an_equal_but_separately_built_move_is_accepted() -> None:
    # Moves from the wire are new objects: they must work like the engine's own.
    state, _events = apply(PLAIN, Play(0, Card(1)), random.Random(0))
    assert state.total == 93


def test_match_over_refuses_everything() -> None:
    state = position(R2022, [[C.ZERO, C.ONE, C.ONE, C.ONE], [C.NINE] * 4], total=92)
    over, _ = apply(state, Play(0, C.ZERO), random.Random(0))
    assert over.phase == "match_over" and over.winners == (0,)
    assert refuse(over, Play(0, C.ONE)).code == "match_over"
