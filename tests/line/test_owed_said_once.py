"""Under a Play 2, line mode's turn says what the player owes once: "Your turn: you owe 2
cards." and then the hand, which does not say it again (a screen reader read the owing
three times: the event, the turn, and the hand). The `hand` command still says it."""

from __future__ import annotations

import random

from ono99tui.game import Card, Play, PlayerView, apply, legal_moves, preset, start_match, view
from ono99tui.line import sentences


def owing_view() -> PlayerView:
    """The view of the first seat to owe two cards in a 1980 match (Double Play)."""
    for seed in range(200):
        rng = random.Random(seed)
        state, _events = start_match(preset("1980"), 3, rng)
        for _turn in range(60):
            seat = next((s for s in range(3) if legal_moves(state, s)), None)
            if seat is None:
                break
            seen = view(state, seat)
            if seen.obligation_seat == seat and seen.turn == seat and seen.obligation_owed == 2:
                return seen
            moves = legal_moves(state, seat)
            double = [m for m in moves if isinstance(m, Play) and m.card is Card.PLAY2]
            state, _events = apply(state, (double or list(moves))[0], rng)
    raise AssertionError("no seed gave a Double Play")


def test_the_turn_says_the_owing_and_the_hand_does_not_repeat_it() -> None:
    seen = owing_view()
    turn = sentences.turn_line(seen, None)
    assert turn == "Your turn: you owe 2 cards."
    assert sentences.turn_tells_owed(seen)
    told = sentences.hand_lines(seen, None, owed_told=sentences.turn_tells_owed(seen))
    assert not any("owe" in line for line in told)
    assert len(told) == 1 + len(seen.hand)  # the total, then one line per card
    # Asked for with `hand`, the hand says it on its own.
    asked = sentences.hand_lines(seen, None)
    assert "Double Play: you owe 2 cards." in asked
