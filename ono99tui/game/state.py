"""The full game state: an immutable NamedTuple, cheap to build and to copy-with-changes.

A state is what only the host holds (every hand, the draw-pile order). Nothing outside the
host should see one: players get `view(state, seat)`.

The engine copies a state with `list(state)`, changes a few slots by the index constants
below, and rebuilds it with `_make_state`; that is several times faster than
`dataclasses.replace` or `NamedTuple._replace` and keeps the hot path allocation-light.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ono99tui.game.cards import Card
from ono99tui.game.rules import Rules

if TYPE_CHECKING:
    from ono99tui.game.moves import Move
    from ono99tui.game.rules_lookup import RulesLookup



class Phase(enum.StrEnum):
    """Where a match stands (views carry it; on the wire, its string)."""

    PLAYING = "playing"
    DISCARDING = "discarding"  # points scoring: a buster must discard before play goes on
    MATCH_OVER = "match_over"


# Module constants for the engine's hot paths (and the names older code imports).
PLAYING, DISCARDING, MATCH_OVER = Phase.PLAYING, Phase.DISCARDING, Phase.MATCH_OVER
PHASES: tuple[Phase, ...] = tuple(Phase)


class State(NamedTuple):
    """One moment of a match. Build with `new_match`/`start_match` or `position` (tests)."""

    rules: Rules
    seats: int
    hands: tuple[tuple[Card, ...], ...]
    # The draw pile is `draw_pile[draw_index:]`, its top card is `draw_pile[draw_index]`.
    # Keeping an index instead of slicing makes a draw O(1).
    draw_pile: tuple[Card, ...]
    draw_index: int
    discard_pile: tuple[Card, ...]  # the last card is the top
    total: int
    direction: int  # +1 clockwise (seat order), -1 counter-clockwise
    turn: int  # the seat to play; -1 once the match is over
    owed: int  # cards the turn seat still has to play this turn (1, or 2 under obligation)
    obligated: bool  # is the turn seat playing an obligation (two-card) turn?
    obligation_next: bool  # an obligation card was played this turn: the next seat owes two
    ono99_this_turn: bool  # `tens` mode: at most one ONO 99 card per turn
    pending_draw: int  # late-draw penalty: the seat that still has to draw, or -1
    discarding: int  # points scoring: the buster who must discard now, or -1
    alive: tuple[bool, ...]  # still in the match
    in_round: tuple[bool, ...]  # still in this round (alive and not sat out)
    busted: tuple[bool, ...]  # busted during this round (points scoring: +25)
    tokens: tuple[int, ...]
    scores: tuple[int, ...]
    revealed: tuple[tuple[Card, ...] | None, ...]  # hands shown on elimination
    dealer: int
    round_no: int
    phase: Phase
    winners: tuple[int, ...]
    plays: int  # plays made in the match so far (Play and SwapFour)
    legal: tuple[Move, ...]  # cache: the turn seat's legal plays (no Draw)
    tables: RulesLookup  # cache: per-rules lookup tables (engine private)

    @property
    def draw_cards(self) -> tuple[Card, ...]:
        """The cards still in the draw pile, top first."""
        return self.draw_pile[self.draw_index :]

    def __repr__(self) -> str:
        return (
            f"State(rules={self.rules.name!r}, total={self.total}, turn={self.turn}, "
            f"owed={self.owed}, hands={[[c.token for c in h] for h in self.hands]}, "
            f"phase={str(self.phase)!r}, round={self.round_no})"
        )


# Index of each field, for the list-copy fast path in the engine. Literal `Final` ints, so a
# type checker knows the type of `state[TOTAL]` exactly as it knows `state.total`.
RULES: Final = 0
SEATS: Final = 1
HANDS: Final = 2
DRAW_PILE: Final = 3
DRAW_INDEX: Final = 4
DISCARD_PILE: Final = 5
TOTAL: Final = 6
DIRECTION: Final = 7
TURN: Final = 8
OWED: Final = 9
OBLIGATED: Final = 10
OBLIGATION_NEXT: Final = 11
ONO99_THIS_TURN: Final = 12
PENDING_DRAW: Final = 13
DISCARDING_SEAT: Final = 14
ALIVE: Final = 15
IN_ROUND: Final = 16
BUSTED: Final = 17
TOKENS: Final = 18
SCORES: Final = 19
REVEALED: Final = 20
DEALER: Final = 21
ROUND_NO: Final = 22
PHASE: Final = 23
WINNERS: Final = 24
PLAYS: Final = 25
LEGAL: Final = 26
LOOKUP: Final = 27

assert tuple(range(len(State._fields))) == (
    RULES, SEATS, HANDS, DRAW_PILE, DRAW_INDEX, DISCARD_PILE, TOTAL, DIRECTION, TURN, OWED,
    OBLIGATED, OBLIGATION_NEXT, ONO99_THIS_TURN, PENDING_DRAW, DISCARDING_SEAT, ALIVE,
    IN_ROUND, BUSTED, TOKENS, SCORES, REVEALED, DEALER, ROUND_NO, PHASE, WINNERS, PLAYS,
    LEGAL, LOOKUP,
)  # fmt: skip
assert State._fields[LOOKUP] == "tables" and State._fields[PHASE] == "phase"


def _make_state(fields: list[Any]) -> State:
    """Build a State from a full field list without per-field Python overhead."""
    return tuple.__new__(State, fields)
