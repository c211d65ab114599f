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
from ono99tui.game.state import DISCARDING, PLAYING, Phase, State


@dataclass(frozen=True)
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
    phase: Phase
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
_TEMPLATE: dict[str, object] = dict.fromkeys(PlayerView.__dataclass_fields__)
_set_attr = object.__setattr__
# The last (alive, in_round) tuples seen and the flags derived from them: these tuples are
# shared from state to state until someone is eliminated, so an identity check is enough.
_last_flags: tuple[object, object, tuple[bool, ...], tuple[bool, ...]] = ((), (), (), ())


def _flags(
    alive: tuple[bool, ...], in_round: tuple[bool, ...]
) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """(eliminated, out_of_round) per seat."""
    global _last_flags
    last = _last_flags
    if last[0] is alive and last[1] is in_round:
        return last[2], last[3]
    eliminated = tuple(not on for on in alive)
    out_of_round = tuple(on and not now for on, now in zip(alive, in_round, strict=True))
    _last_flags = (alive, in_round, eliminated, out_of_round)
    return eliminated, out_of_round


def _make(state: State, seat: int | None) -> PlayerView:
    (
        rules, _seats, hands, draw_pile, draw_index, discard_pile, total, direction, turn, owed,
        obligated, _obligation_next, _ono99_this_turn, pending, discarding, alive, in_round,
        busted, tokens, scores, revealed, dealer, round_no, phase, winners, plays, legal, tables,
    ) = state
    if seat is None:
        hand: tuple[Card, ...] = ()
        moves: tuple[Move, ...] = ()
    else:
        hand = hands[seat]
        if seat == turn and pending < 0 and phase == PLAYING:
            moves = legal
        else:
            moves = legal_moves(state, seat)
    eliminated, out_of_round = _flags(alive, in_round)
    obligation = phase == PLAYING and obligated
    # Copying a presized map and filling it is about three times faster than a 27-key
    # literal (which regrows its table as it fills); setting __dict__ in one step skips the
    # frozen dataclass's per-field __init__ checks. Bots get one view per move, so this is
    # on the simulator's hot path.
    fields = _TEMPLATE.copy()
    fields["rules"] = rules
    fields["seat"] = seat
    fields["hand"] = hand
    fields["hand_sizes"] = tuple(map(len, hands))
    fields["tokens"] = tokens
    fields["scores"] = scores
    fields["eliminated"] = eliminated
    fields["out_of_round"] = out_of_round
    fields["busted"] = busted
    fields["revealed"] = revealed
    fields["total"] = total
    fields["bust_at"] = tables.bust_at
    fields["direction"] = direction
    fields["turn"] = turn if turn >= 0 else None
    fields["obligation_seat"] = turn if obligation else None
    fields["obligation_owed"] = owed if obligation else 0
    fields["pending_draw"] = pending if pending >= 0 else None
    fields["discarding"] = discarding if phase == DISCARDING and discarding >= 0 else None
    fields["dealer"] = dealer
    fields["round_no"] = round_no
    fields["phase"] = phase
    fields["winners"] = winners
    fields["draw_pile_size"] = len(draw_pile) - draw_index
    fields["discard_pile_size"] = len(discard_pile)
    fields["discard_top"] = discard_pile[-1] if discard_pile else None
    fields["plays"] = plays
    fields["legal_moves"] = moves
    view = _new_view(PlayerView)
    _set_attr(view, "__dict__", fields)
    return view


# The fields every view of a state shares, in PlayerView's order: all but the rules, the
# seat's own head (seat, hand) and its own tail (legal moves).
PUBLIC_FIELDS: tuple[str, ...] = tuple(PlayerView.__dataclass_fields__)[3:-1]


def public_view_fields(state: State) -> tuple[object, ...]:
    """The values of PUBLIC_FIELDS in every view of `state`, in that order: what
    `spectator_view(state)` holds in them (tests/game/test_views.py), without a view. A
    sender that encodes one state for many seats takes them once per state."""
    (
        _rules, _seats, hands, draw_pile, draw_index, discard_pile, total, direction, turn,
        owed, obligated, _obligation_next, _ono99_this_turn, pending, discarding, alive,
        in_round, busted, tokens, scores, revealed, dealer, round_no, phase, winners, plays,
        _legal, tables,
    ) = state
    eliminated, out_of_round = _flags(alive, in_round)
    obligation = phase == PLAYING and obligated
    return (
        tuple(map(len, hands)), tokens, scores, eliminated, out_of_round, busted, revealed,
        total, tables.bust_at, direction, turn if turn >= 0 else None,
        turn if obligation else None, owed if obligation else 0,
        pending if pending >= 0 else None,
        discarding if phase == DISCARDING and discarding >= 0 else None,
        dealer, round_no, phase, winners, len(draw_pile) - draw_index, len(discard_pile),
        discard_pile[-1] if discard_pile else None, plays,
    )


def view(state: State, seat: int) -> PlayerView:
    """What `seat` may know: its own hand, public facts and its legal moves."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat!r} is not a seat at this table")
    return _make(state, seat)


def spectator_view(state: State) -> PlayerView:
    """What someone watching may know: public facts only, no hand, no moves."""
    return _make(state, None)
