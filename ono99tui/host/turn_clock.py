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

The pure decisions are functions; `TableClock` holds the clock's own state (the turn it
times, each arming's serial) and arms and cancels its `TurnTimeout` in the core's
`TimerBook`; the core tells it whom the table waits for (`follow`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from netproto.wire.messages import TurnClock
from ono99tui.game import State as GameState
from ono99tui.game import acting_seats
from ono99tui.host.outputs import TurnTimeout
from ono99tui.host.timers import TimerBook

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


class TableClock:
    """The turn clock of one table: the turn it times (`timed`) and its timer."""

    __slots__ = ("_serials", "_timers", "timed")

    def __init__(self, timers: TimerBook) -> None:
        self._timers = timers
        self._serials = itertools.count(1)
        self.timed: TimedTurn | None = None

    def follow(self, index: int | None, seat_id: int, *, seconds: float | None, away: bool,
               new_turn: bool) -> bool:
        """Keep the clock on seat `index` (`seat_id`), the human seat the table waits for
        (None: nobody is clocked now, e.g. a bot's turn, or no turn time): a new seat or
        `new_turn` (that seat moved) restarts it, an `away` player stops it with the time
        that was left. True when it was (re)armed now."""
        timed, timers = self.timed, self._timers
        if index is None or seconds is None:
            self.stop()
            return False
        if timed is None or timed.seat_id != seat_id or new_turn:
            if timed is not None and timed.key is not None:
                timers.cancel(timed.key)
            timed = self.timed = TimedTurn(seat_id, index, left=seconds)
        if away:  # the grace period runs instead; the clock stands still
            if timed.key is not None:
                timed.left = timers.left(timed.key)
                timers.cancel(timed.key)
                timed.key = None
            return False
        if timed.key is not None:
            return False
        timed.key = TurnTimeout(seat_id, next(self._serials))
        timers.arm(timed.key, seconds_on_return(timed.left, seconds))
        return True

    def stop(self) -> None:
        """No turn is timed any more (its timer, if armed, is cancelled)."""
        timed = self.timed
        if timed is not None and timed.key is not None:
            self._timers.cancel(timed.key)
        self.timed = None

    def ran_out(self, key: TurnTimeout) -> TimedTurn | None:
        """The timer `key` fired: the turn it timed, now no longer timed; None if the clock
        has moved on since (a stale key)."""
        timed = self.timed
        if timed is None or timed.key != key:
            return None
        self.timed = None
        return timed

    def for_views(self, seconds: float | None) -> TurnClock | None:
        """The running clock as views tell it (seconds left from now), if one runs."""
        timed = self.timed
        if timed is None or timed.key is None or seconds is None:
            return None
        deadline = self._timers.deadline(timed.key)
        if deadline is None:
            return None
        return TurnClock(seat=timed.index, seconds=seconds,
                         left=max(0.0, deadline - self._timers.now))
