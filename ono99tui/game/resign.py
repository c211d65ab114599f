"""A seat leaving the match for good: its player abandoned the table (RULES.md §3, Resign).

Resigning is not a move: no seat chooses it through `legal_moves`, the host decides it
(e.g. when a dropped player's grace period runs out). It never touches the hot path of
`apply`; it rebuilds the state once, like a bust does.
"""

from __future__ import annotations

import random
from typing import Any

from ono99tui.game.engine import _settle
from ono99tui.game.errors import CannotResign, MalformedMove
from ono99tui.game.events import Event, ObligationCleared, Resigned
from ono99tui.game.rounds import eliminate, end_points_round, match_decided, next_in_round
from ono99tui.game.state import (
    DIRECTION,
    DISCARDING_SEAT,
    IN_ROUND,
    LOOKUP,
    MATCH_OVER,
    OBLIGATED,
    OBLIGATION_NEXT,
    ONO99_THIS_TURN,
    OWED,
    PHASE,
    PLAYING,
    TURN,
    State,
)


def resign(state: State, seat: int, rng: random.Random) -> tuple[State, tuple[Event, ...]]:
    """`seat` leaves the match: it is eliminated whatever the scoring mode.

    Its hand is revealed when the rules reveal a bust elimination and stays where an
    eliminated hand stays (with the seat, until the next deal collects it). If it was the
    seat to play, its turn ends like a bust's: a Play 2 obligation it owed (or had just
    created) ends with it and the next seat in the round plays normally. A points-mode
    buster that resigns before discarding discards nothing. With one seat left the match
    ends; in points modes a round left with one seat in it is scored. `rng` is needed
    because that can deal a new round (and the next seat may bust into one).

    Raises MalformedMove for a seat number that is not a seat, CannotResign for a seat
    already out of the match or a match that is over; the given state is never changed.
    """
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise MalformedMove("bad_seat", f"seat {seat!r} is not a seat at this table")
    if state.phase == MATCH_OVER:
        raise CannotResign("match_over", "the match is over: nobody can resign from it")
    if not state.alive[seat]:
        raise CannotResign("eliminated", f"seat {seat} is already out of the match")
    s: list[Any] = list(state)
    events: list[Event] = [Resigned(seat)]
    if s[DISCARDING_SEAT] == seat:
        s[DISCARDING_SEAT] = -1
        s[PHASE] = PLAYING
    was_turn = s[TURN] == seat
    if was_turn:
        if s[OBLIGATED]:
            events.append(ObligationCleared(seat))
        s[OWED] = 1
        s[OBLIGATED] = False
        s[OBLIGATION_NEXT] = False
        s[ONO99_THIS_TURN] = False
    eliminate(s, seat, events)
    if match_decided(s, events):
        return _settle(s, events, rng)  # play has stopped: it only freezes the state
    in_round = sum(s[IN_ROUND])
    if s[LOOKUP].scoring.counts_points and s[PHASE] == PLAYING and in_round <= 1:
        end_points_round(s, events, rng)
    elif was_turn and in_round >= 1:
        s[TURN] = next_in_round(s, seat, s[DIRECTION])
    return _settle(s, events, rng)
