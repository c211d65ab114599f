"""Each round's busts, kept for the round-end and match-end dialogs.

In tokens scoring a bust ends the round, and its view also deals the next one, so the
table itself no longer shows who busted by the time the dialog opens; in points scoring
busts happen all through a round. This keeps, per finished round, one line per bust
("bob busted at 97 and lost a token (1 left)") and who was out of the match at its end
(a seat with 0 tokens plays on; an eliminated one is out).
"""

from __future__ import annotations

from collections.abc import Sequence

from ono99tui.game import Eliminated, Event, PlayerView, RoundDealt, RoundEnded
from ono99tui.ui.present import BustNotice, bust_lines


class RoundBusts:
    """Busts per finished round of the current match (filled by `record`)."""

    def __init__(self) -> None:
        self.lines: dict[int, list[str]] = {}  # round number -> one line per bust
        self.eliminated: dict[int, tuple[bool, ...]] = {}  # round number -> out of the match
        self._this_round: list[str] = []
        # Round number -> the viewer's own bust that ended it (its dialog shows the hand).
        self.yours: dict[int, BustNotice] = {}

    def record(self, events: Sequence[Event], names: Sequence[str], view: PlayerView,
               after: Sequence[Event] = ()) -> None:
        """Take in the events that led to `view` (oldest first); `after`: the events that
        followed them up to `view`, when these are a (re)joined view's history (several
        rounds at once)."""
        start = 0
        for index, event in enumerate(events):
            if isinstance(event, RoundDealt) and event.round_no == 1:  # a new match
                self.lines.clear()
                self.eliminated.clear()
                self.yours.clear()
                self._this_round, start = [], index + 1
            elif isinstance(event, RoundEnded):
                this = bust_lines(events[start:index], names, view.seat)
                self.lines[event.round_no] = [*self._this_round, *this]
                self.eliminated[event.round_no] = _out_at_end(
                    view.eliminated, [*events[index + 1:], *after])
                self._this_round, start = [], index + 1
        self._this_round += bust_lines(events[start:], names, view.seat)

    def keep_yours(self, notice: BustNotice, events: Sequence[Event]) -> None:
        """Keep the viewer's bust that ended the round among `events`, for its dialog."""
        ended = next((e.round_no for e in events if isinstance(e, RoundEnded)), None)
        if ended is not None:
            self.yours[ended] = notice


def _out_at_end(now: tuple[bool, ...], later: Sequence[Event]) -> tuple[bool, ...]:
    """Who was out of the match at the end of a round, given who is out `now` and the
    events from that round's end on: those out now, less the ones eliminated once the next
    round was dealt (whoever a round's end put out of the match is out at its end). Within
    one view only one round ends, so that is the view's own flags."""
    dealt = next((index for index, event in enumerate(later) if isinstance(event, RoundDealt)),
                 len(later))
    gone_since = {event.seat for event in later[dealt:] if isinstance(event, Eliminated)}
    return tuple(out and seat not in gone_since for seat, out in enumerate(now))
