"""The player's own plays of the match, as this program saw them, for a coach's review
afterwards (`bots/review.py`).

Each view that asks the player to play a card is kept with the public events of its deal
so far; the next `Played` (or four-ONO-99 swap) of the player's seat says which move was
made there. Nothing else is kept: a review from these decisions knows what the player knew
and no more (only the player's own views ever reach this program). The decisions are
handed out only once a `MatchEnded` was seen (`decisions()` raises `MatchNotOver` before):
a review is never offered for a match still being played. A new match's deal forgets them.

Pure: no Textual, no sockets, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence

from ono99tui.bots.review import Decision, MatchNotOver
from ono99tui.game import (
    Event,
    MatchEnded,
    Play,
    Played,
    PlayerView,
    RoundDealt,
    SwapFour,
    SwappedFour,
)


class PlaysSeen:
    """The seat's decisions in the match being watched (see the module docstring)."""

    def __init__(self) -> None:
        self._decisions: list[Decision] = []
        # The view that asked for a play, and the deal's events before it, until the
        # seat's play comes.
        self._pending: tuple[PlayerView, tuple[Event, ...]] | None = None
        self._over = False
        self._seat: int | None = None

    def clear(self) -> None:
        """Forget everything (a new match, another table)."""
        self.__init__()  # type: ignore[misc]

    def take(self, events: Sequence[Event], view: PlayerView,
             deal_events: Sequence[Event]) -> None:
        """One view and the events that came with it; `deal_events`: the public events of
        the current deal so far, these included."""
        for event in events:
            if type(event) is RoundDealt and event.round_no == 1:
                self.clear()
            elif type(event) is MatchEnded:
                self._over = True
            elif self._pending is not None:
                seen = self._pending[0]
                seat = seen.seat
                move: Play | SwapFour | None = None
                if type(event) is Played and event.seat == seat:
                    move = Play(event.seat, event.card)
                elif type(event) is SwappedFour and event.seat == seat:
                    move = SwapFour(event.seat)
                if move is not None:
                    if move in seen.legal_moves:
                        self._decisions.append(Decision(seen, self._pending[1], move))
                    self._pending = None
        if view.seat is None:
            self._pending = None
            return
        self._seat = view.seat
        plays = [move for move in view.legal_moves if type(move) in (Play, SwapFour)]
        if plays and view.turn == view.seat and view.discarding is None:
            self._pending = (view, tuple(deal_events))
        elif not plays:
            self._pending = None

    @property
    def match_over(self) -> bool:
        """Has the match these plays belong to ended?"""
        return self._over

    @property
    def seat(self) -> int | None:
        """The seat the plays are of (None: none was seen)."""
        return self._seat

    def decisions(self) -> list[Decision]:
        """The seat's plays of the finished match; MatchNotOver while it is played."""
        if not self._over:
            raise MatchNotOver("the match is not over: a review comes once it has ended")
        return list(self._decisions)
