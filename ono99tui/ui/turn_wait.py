"""The host's reminder that a turn clock can be started: the table has waited a minute for
somebody else's move and no clock runs (`TurnWait.check`, called by the table screen).

At a table hosted with the app there is no clock unless the host sets one, so a player who
walked away mid-turn holds everyone up; the host may start one mid-match (`k`), but has to
know it can. Pure: the caller passes the time, so tests need no waiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from netproto.wire.messages import SeatInfo, SeatKind

if TYPE_CHECKING:
    from ono99tui.game import PlayerView

# How long the table waits on one move before the host is reminded (once per move).
WAIT_NOTICE_SECONDS = 60.0


@dataclass(slots=True)
class TurnWait:
    """Which move the table waits for, since when, and whether the host was told."""

    waiting_on: tuple[int, int, int] | None = None  # (round, plays so far, seat)
    since: float = 0.0
    told: bool = False

    def check(self, view: PlayerView, seats: Sequence[SeatInfo], clock_running: bool,
              now: float) -> str | None:
        """The name of the player the table has waited for WAIT_NOTICE_SECONDS or more
        with no clock running, the first time that is so for this move; else None. Only
        another human who is connected counts (an away one has its grace period, a bot
        plays by itself, and the host's own turn is the host's business)."""
        waited = view.discarding if view.discarding is not None else view.turn
        if waited is None or waited == view.seat or view.phase == "match_over":
            self.waiting_on = None
            return None
        key = (view.round_no, view.plays, waited)
        if key != self.waiting_on:
            self.waiting_on, self.since, self.told = key, now, False
        seat = next((s for s in seats if s.seat == waited), None)
        if (self.told or clock_running or seat is None or seat.kind != SeatKind.HUMAN
                or not seat.connected or now - self.since < WAIT_NOTICE_SECONDS):
            return None
        self.told = True
        return seat.name
