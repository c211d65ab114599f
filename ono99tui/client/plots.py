"""What the plots draw, as values: the total after each play of a round (and where the
busts came), and each player's rating after each match at this table (the evening).

The front ends draw them: the terminal with textual-plotext (`ui/screens/plots.py`), the
phone page as an inline SVG (`web/phone/state.py` sends these values), line mode in a
sentence (`words/plots.py`).

Pure: no Textual, no sockets, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ono99tui.game import Busted, Event, MatchEnded, Played, RoundDealt, RoundEnded

# Matches remembered per player for the evening's plot (a long evening keeps its last ones).
EVENING_MATCHES = 64


@dataclass(frozen=True, slots=True)
class BustMark:
    """`seat` busted after the round's `play`-th play (0: before any), at `total`."""

    play: int
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class RoundTotals:
    """One round's total after each play (`totals[i]`: after play i + 1, by `seats[i]`),
    from 0 at the deal, and its busts; `ended`: the round is over."""

    round_no: int
    totals: tuple[int, ...]
    seats: tuple[int, ...]
    busts: tuple[BustMark, ...]
    ended: bool


def round_totals(events: Iterable[Event], *, finished: bool = False) -> RoundTotals | None:
    """The totals of the last round dealt among `events` (oldest first), or of the last one
    that ended (with its round or with the match) when `finished`; None when no such round
    was dealt among them."""
    best: RoundTotals | None = None
    round_no: int | None = None
    totals: list[int] = []
    seats: list[int] = []
    busts: list[BustMark] = []
    for event in events:
        if isinstance(event, RoundDealt):
            round_no, totals, seats, busts = event.round_no, [], [], []
        elif round_no is None:
            continue
        elif isinstance(event, Played):
            totals.append(event.total)
            seats.append(event.seat)
        elif isinstance(event, Busted):
            busts.append(BustMark(len(totals), event.seat, event.total))
        elif isinstance(event, RoundEnded | MatchEnded):
            # (A match of one round, as 2022's, ends with no round's end of its own.)
            best = RoundTotals(round_no, tuple(totals), tuple(seats), tuple(busts), True)
            round_no = None
    if round_no is not None and not finished:
        return RoundTotals(round_no, tuple(totals), tuple(seats), tuple(busts), False)
    return best


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after the `match`-th match of the evening."""

    match: int
    rating: int


@dataclass
class EveningRatings:
    """Each player's rating after each rated match at this table, by name, from each
    finished match's `results.ratings` (docs/PROTOCOL.md "Ratings"): the session keeps it
    for the evening's plot. A match told twice (the lobby is sent again while the table
    stays finished) is taken once: `record` replaces that match's entry."""

    matches: dict[int, dict[str, int]] = field(default_factory=dict)

    def record(self, match: int, names: Sequence[str], results: Mapping[str, Any]) -> bool:
        """Take the `match`-th match's ratings from its `results`, one per seat (`names`);
        False when it carries none (a table that rates nobody) or they do not fit."""
        ratings = results.get("ratings")
        if not isinstance(ratings, list) or len(ratings) != len(names):
            return False
        taken = {name: entry["rating"] for name, entry in zip(names, ratings, strict=True)
                 if isinstance(entry, dict) and type(entry.get("rating")) is int}
        if not taken:
            return False
        self.matches[match] = taken
        for old in sorted(self.matches)[:-EVENING_MATCHES]:
            del self.matches[old]
        return True

    def series(self) -> dict[str, list[RatingPoint]]:
        """Each player's ratings in match order (players in the order first rated)."""
        out: dict[str, list[RatingPoint]] = {}
        for match in sorted(self.matches):
            for name, rating in self.matches[match].items():
                out.setdefault(name, []).append(RatingPoint(match, rating))
        return out

    def clear(self) -> None:
        self.matches.clear()
