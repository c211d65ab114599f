"""What one seat (or a spectator) may know about a match: `PlayerView`.

Only views leave the host. A view holds the seat's own hand and public facts; it never
holds another seat's cards (except hands revealed on elimination) or the draw-pile order.
"""

from __future__ import annotations

from dataclasses import dataclass

from ono99tui.game.cards import Card
from ono99tui.game.engine import legal_moves
from ono99tui.game.moves import Move
from ono99tui.game.rules import Rules
from ono99tui.game.state import (
    ALIVE,
    BUSTED,
    DEALER,
    DIRECTION,
    DISCARD_PILE,
    DISCARDING,
    DISCARDING_SEAT,
    DRAW_INDEX,
    DRAW_PILE,
    HANDS,
    IN_ROUND,
    LEGAL,
    OBLIGATED,
    OWED,
    PENDING_DRAW,
    PHASE,
    PLAYING,
    PLAYS,
    REVEALED,
    ROUND_NO,
    RULES,
    SCORES,
    TABLES,
    TOKENS,
    TOTAL,
    TURN,
    WINNERS,
    State,
)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of the match (seat None: a spectator, who holds no hand)."""

    rules: Rules
    seat: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    tokens: tuple[int, ...]
    scores: tuple[int, ...]
    eliminated: tuple[bool, ...]
    out_of_round: tuple[bool, ...]
    busted: tuple[bool, ...]  # busted during this round
    revealed: tuple[tuple[Card, ...] | None, ...]
    total: int
    bust_at: int
    direction: int  # +1 clockwise (seat order), -1 counter-clockwise
    turn: int | None  # the seat to play; None once the match is over
    obligation_seat: int | None  # the seat under a Play 2 obligation, if any
    obligation_owed: int  # cards that seat still owes this turn (0 without obligation)
    pending_draw: int | None  # late-draw rule: the seat that has not drawn yet
    discarding: int | None  # points scoring: the buster who must discard now
    dealer: int
    round_no: int
    phase: str  # "playing", "discarding" or "match_over"
    winners: tuple[int, ...]
    draw_pile_size: int
    discard_pile_size: int
    discard_top: Card | None
    plays: int  # plays made in the match so far
    legal_moves: tuple[Move, ...]  # this seat's legal moves now

    @property
    def preset(self) -> str:
        """The name of the rules preset the options came from."""
        return self.rules.name

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return len(self.hand_sizes)

    @property
    def my_turn(self) -> bool:
        """Does this seat have a move to make now?"""
        return bool(self.legal_moves)


_new_view = object.__new__
# Slot setters bypass the frozen __setattr__ check: building a view this way costs a
# fraction of the generated __init__, which matters because bots get one view per move.
_SETTERS = tuple(PlayerView.__dict__[name].__set__ for name in PlayerView.__dataclass_fields__)


def _build(values: tuple[object, ...]) -> PlayerView:
    view = _new_view(PlayerView)
    for setter, value in zip(_SETTERS, values):
        setter(view, value)
    return view


def _make(state: State, seat: int | None) -> PlayerView:
    phase = state[PHASE]
    turn = state[TURN]
    pending = state[PENDING_DRAW]
    discarding = state[DISCARDING_SEAT]
    discard_pile = state[DISCARD_PILE]
    if seat is None:
        hand: tuple[Card, ...] = ()
        moves: tuple[Move, ...] = ()
    else:
        hand = state[HANDS][seat]
        if phase == PLAYING and seat == turn and pending < 0:
            moves = state[LEGAL]
        else:
            moves = legal_moves(state, seat)
    alive = state[ALIVE]
    playing = phase == PLAYING
    return _build(
        (
            state[RULES],
            seat,
            hand,
            tuple(map(len, state[HANDS])),
            state[TOKENS],
            state[SCORES],
            tuple(not on for on in alive),
            tuple(on and not now for on, now in zip(alive, state[IN_ROUND])),
            state[BUSTED],
            state[REVEALED],
            state[TOTAL],
            state[TABLES].bust_at,
            state[DIRECTION],
            turn if turn >= 0 else None,
            turn if playing and state[OBLIGATED] else None,
            state[OWED] if playing and state[OBLIGATED] else 0,
            pending if pending >= 0 else None,
            discarding if phase == DISCARDING and discarding >= 0 else None,
            state[DEALER],
            state[ROUND_NO],
            phase,
            state[WINNERS],
            len(state[DRAW_PILE]) - state[DRAW_INDEX],
            len(discard_pile),
            discard_pile[-1] if discard_pile else None,
            state[PLAYS],
            moves,
        )
    )


def view(state: State, seat: int) -> PlayerView:
    """What `seat` may know: its own hand, public facts and its legal moves."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat!r} is not a seat at this table")
    return _make(state, seat)


def spectator_view(state: State) -> PlayerView:
    """What someone watching may know: public facts only, no hand, no moves."""
    return _make(state, None)
