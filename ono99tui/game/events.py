"""Events `apply` reports. They hold public information only: anyone at the table may see them.

A draw says who drew and how many, never which card. Every event class has a `kind` string
used by the codec.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import ClassVar

from ono99tui.game.cards import Card


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """A round was dealt: who dealt, who starts, how many cards each seat holds."""

    kind: ClassVar[str] = "round_dealt"
    round_no: int
    dealer: int
    starter: int
    hand_sizes: tuple[int, ...]
    draw_pile_size: int


@dataclass(frozen=True, slots=True)
class Played:
    """`seat` played `card`; the total is now `total`."""

    kind: ClassVar[str] = "played"
    seat: int
    card: Card
    total: int


@dataclass(frozen=True, slots=True)
class SwappedFour:
    """`seat` discarded four ONO 99 cards at once (total unchanged)."""

    kind: ClassVar[str] = "swapped_four"
    seat: int


@dataclass(frozen=True, slots=True)
class Drew:
    """`seat` drew `count` cards (which ones is private)."""

    kind: ClassVar[str] = "drew"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile was shuffled into a new draw pile of `draw_pile_size` cards."""

    kind: ClassVar[str] = "reshuffled"
    draw_pile_size: int


@dataclass(frozen=True, slots=True)
class MissedDraw:
    """Late-draw penalty: `seat` did not draw in time and stays one card short."""

    kind: ClassVar[str] = "missed_draw"
    seat: int


@dataclass(frozen=True, slots=True)
class Reversed:
    """The direction of play is now `direction` (+1 clockwise, -1 counter-clockwise)."""

    kind: ClassVar[str] = "reversed"
    direction: int


@dataclass(frozen=True, slots=True)
class ObligationCreated:
    """`seat` must now play two cards (a Play 2 / Double Play was played)."""

    kind: ClassVar[str] = "obligation_created"
    seat: int


@dataclass(frozen=True, slots=True)
class ObligationPassed:
    """`from_seat` answered the obligation; `to_seat` now owes two cards."""

    kind: ClassVar[str] = "obligation_passed"
    from_seat: int
    to_seat: int


@dataclass(frozen=True, slots=True)
class ObligationCleared:
    """The obligation `seat` owed is over (both cards played, or the seat busted)."""

    kind: ClassVar[str] = "obligation_cleared"
    seat: int


@dataclass(frozen=True, slots=True)
class Busted:
    """`seat` had no legal move at total `total`."""

    kind: ClassVar[str] = "busted"
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class Eliminated:
    """`seat` is out of the match; `hand` is their revealed hand, or None if not revealed."""

    kind: ClassVar[str] = "eliminated"
    seat: int
    hand: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class Resigned:
    """`seat` left the match (its player abandoned the table); `Eliminated` follows."""

    kind: ClassVar[str] = "resigned"
    seat: int


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The table's turn clock ran out for `seat`, `in_a_row` times in a row now: a stand-in
    plays its turn (the table reports this; the engine never does)."""

    kind: ClassVar[str] = "timed_out"
    seat: int
    in_a_row: int


@dataclass(frozen=True, slots=True)
class OutOfRound:
    """Points scoring: `seat` busted and sits out the rest of the round."""

    kind: ClassVar[str] = "out_of_round"
    seat: int


@dataclass(frozen=True, slots=True)
class Discarded:
    """Points scoring: the buster `seat` discarded `card` (total unchanged)."""

    kind: ClassVar[str] = "discarded"
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TokenLost:
    """Tokens scoring: `seat` lost a token and has `tokens_left`."""

    kind: ClassVar[str] = "token_lost"
    seat: int
    tokens_left: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round is over. `points` scored this round (points modes, else zeros), match
    `scores` after it, and `tokens` per seat."""

    kind: ClassVar[str] = "round_ended"
    round_no: int
    points: tuple[int, ...]
    scores: tuple[int, ...]
    tokens: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over; `winners` has one seat, or several for a shared points-lowest win."""

    kind: ClassVar[str] = "match_ended"
    winners: tuple[int, ...]


Event = (
    RoundDealt
    | Played
    | SwappedFour
    | Drew
    | Reshuffled
    | MissedDraw
    | Reversed
    | ObligationCreated
    | ObligationPassed
    | ObligationCleared
    | Busted
    | Eliminated
    | Resigned
    | TimedOut
    | OutOfRound
    | Discarded
    | TokenLost
    | RoundEnded
    | MatchEnded
)
EVENT_TYPES: tuple[type[Event], ...] = typing.get_args(Event)
EVENTS_BY_KIND: dict[str, type[Event]] = {cls.kind: cls for cls in EVENT_TYPES}


# Hot-path constructors: a played card and its draw happen on every turn, and setting the
# slots directly costs about half of the frozen dataclass __init__.
_new = object.__new__
_played_seat = Played.__dict__["seat"].__set__
_played_card = Played.__dict__["card"].__set__
_played_total = Played.__dict__["total"].__set__
_drew_seat = Drew.__dict__["seat"].__set__
_drew_count = Drew.__dict__["count"].__set__


def played(seat: int, card: Card, total: int) -> Played:
    """Played(seat, card, total), built without the dataclass __init__."""
    event = _new(Played)
    _played_seat(event, seat)
    _played_card(event, card)
    _played_total(event, total)
    return event


def drew(seat: int, count: int) -> Drew:
    """Drew(seat, count), built without the dataclass __init__."""
    event = _new(Drew)
    _drew_seat(event, seat)
    _drew_count(event, count)
    return event
