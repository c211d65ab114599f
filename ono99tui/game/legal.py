"""Which moves a seat may make: the legality rules of RULES.md §2 and §4."""

from __future__ import annotations

from ono99tui.game.cards import Card
from ono99tui.game.moves import Move
from ono99tui.game.rules import HAND_SIZE, Ono99Card
from ono99tui.game.rules_lookup import ONO99_BIT, RulesLookup
from ono99tui.game.state import (
    DISCARDING,
    DISCARDING_SEAT,
    HANDS,
    LEGAL,
    LOOKUP,
    PENDING_DRAW,
    PHASE,
    PLAYING,
    TURN,
    State,
)

# Module names for the members the hot loop compares with (reading an Enum member off its
# class costs ~0.5 µs on Python 3.11; a module global, a few ns).
_SET99, _TENS = Ono99Card.SET99, Ono99Card.TENS

ONO99 = Card.ONO99
PLAY2 = Card.PLAY2


def legal_plays(
    tab: RulesLookup,
    seat: int,
    hand: tuple[Card, ...],
    total: int,
    owed: int,
    obligated: bool,
    ono_turn: bool,
) -> tuple[Move, ...]:
    """The plays (and swap) open to `seat` holding `hand`; Draw and Discard are not plays."""
    bust_at = tab.bust_at
    row = tab.play[seat]
    moves: list[Move] = []
    seen = 0
    for card in hand:
        bit = 1 << card
        if seen & bit:
            continue
        seen |= bit
        if card <= 10:
            if total + card < bust_at:
                moves.append(row[card])
        elif card == ONO99:
            mode = tab.ono99_mode
            if mode == _SET99:
                if bust_at > 99:
                    moves.append(row[card])
            elif mode == _TENS and total % 10 == 0 and not ono_turn:
                moves.append(row[card])
        elif card == PLAY2:
            if not (obligated and owed == 2) or tab.play2_first:
                moves.append(row[card])
        else:  # −10, Reverse and Hold never break the limit
            moves.append(row[card])
    if seen == ONO99_BIT:
        if tab.swap and len(hand) == HAND_SIZE:
            moves.append(tab.swap_move[seat])
        elif tab.dead_hand:
            return ()
    return tuple(moves)


def legal_moves(state: State, seat: int) -> tuple[Move, ...]:
    """Every move `seat` may make now (empty if it is not that seat's moment to act)."""
    phase = state[PHASE]
    if phase == PLAYING:
        moves = state[LEGAL] if seat == state[TURN] else ()
        if seat == state[PENDING_DRAW]:
            return (state[LOOKUP].draw_move[seat],) + moves
        return moves
    if phase == DISCARDING and seat == state[DISCARDING_SEAT]:
        row = state[LOOKUP].discard_move[seat]
        return tuple(row[card] for card in dict.fromkeys(state[HANDS][seat]))
    return ()


def acting_seats(state: State) -> tuple[int, ...]:
    """The seats that have a legal move now. A pending late draw comes first, then the turn."""
    phase = state[PHASE]
    if phase == PLAYING:
        turn = state[TURN]
        pending = state[PENDING_DRAW]
        if pending >= 0 and pending != turn:
            return (pending, turn)
        return (turn,)
    if phase == DISCARDING:
        return (state[DISCARDING_SEAT],)
    return ()
