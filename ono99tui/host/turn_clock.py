"""The turn clock's decisions, for the table core: whom the table waits for, and for how long.

A table with a turn time gives the human seat it waits for that many seconds for each move.
When they run out, a stand-in bot (the table's takeover kind) plays the rest of that turn
for the seat: both cards of a Play 2, the draw the late-draw rule owes, a points-mode
discard. After `timeouts_to_abandon` timed-out turns in a row the seat counts as abandoned
and the table's abandon policy applies: a bot plays on (waiting `IDLE_RECLAIM_SECONDS`
before each move while the player is still connected: a move of theirs takes the seat
back), or the seat resigns. A move by the player resets the count.

Only a seat whose move the table cannot go on without is clocked: the seat to play, or the
buster choosing a discard. A late draw owed by the previous player is not waited for (the
next player may play on, and the draw is lost). Bots, seats a bot stands in for, and
spectators are never clocked. While the clocked seat's player is away the clock stands
still (the grace period runs instead); when they come back it runs on with what was left,
but never less than `RESUME_FLOOR_SECONDS` (or the whole turn time, if shorter): enough to
see the table again.

The core (`ono99tui.host.core`) owns the timers; this module only decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from ono99tui.game import State as GameState
from ono99tui.game import acting_seats
from ono99tui.host.outputs import TurnTimeout

RESUME_FLOOR_SECONDS = 10.0
# A bot playing on for a player abandoned for idling, who is still connected, waits this
# long before each move: a move of the player's own in that time takes the seat back.
IDLE_RECLAIM_SECONDS = 5.0
# The most moves a stand-in makes for one timed-out turn (a Play 2's two cards, their
# late draws, a discard): a bound, so that no engine surprise can loop the table.
MAX_STAND_IN_MOVES = 6


def waited_seat(state: GameState) -> int | None:
    """The seat the table cannot go on without (the last acting seat: a pending late draw
    of another seat comes first and is not waited for), or None once the match is over."""
    seats = acting_seats(state)
    return seats[-1] if seats else None


def stand_in_goes_on(state: GameState, seat: int, round_no: int) -> bool:
    """After a stand-in's move for `seat` in round `round_no`: is the timed-out turn still
    unfinished (the seat still to play or to discard, or its late draw still owed)?

    A new round is a new turn, even when the seat starts it: its player gets a new clock.
    """
    if state.round_no != round_no or seat not in acting_seats(state):
        return False
    return waited_seat(state) == seat or state.pending_draw == seat


def seconds_on_return(left: float, turn_seconds: float) -> float:
    """What the clock gives a seat whose player is back mid-turn (all of it on a new turn,
    where `left` is the whole turn time)."""
    return max(left, min(RESUME_FLOOR_SECONDS, turn_seconds))


@dataclass(slots=True)
class TimedTurn:
    """The turn the clock is timing: whose (`seat_id`, and its index), the timer armed for
    it (None while its player is away) and, while away, the seconds that were left."""

    seat_id: int
    index: int
    left: float
    key: TurnTimeout | None = None
