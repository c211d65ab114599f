"""The rules engine: start a match, apply a move.

Pure functions over immutable `State` values; every random choice (deal, dealer,
reshuffles) comes from the `random.Random` the caller passes, so a match replays exactly
from its seed and its move list. Busts, round ends and new deals happen inside `apply`
(with the helpers of `rounds.py`); legality lives in `legal.py`, refusals in
`refusals.py`.
"""

from __future__ import annotations

import random
from typing import Any

from ono99tui.game.cards import Card
from ono99tui.game.errors import InvalidPlayerCount
from ono99tui.game.events import (
    Discarded,
    Event,
    MissedDraw,
    ObligationCleared,
    ObligationCreated,
    ObligationPassed,
    Reversed,
    SwappedFour,
    played,
)
from ono99tui.game.legal import acting_seats, legal_moves, legal_plays
from ono99tui.game.moves import Discard, Draw, Move, Play, SwapFour
from ono99tui.game.refusals import refusal
from ono99tui.game.rounds import (
    bust,
    deal,
    draw_cards,
    draw_into,
    end_points_round,
    next_alive,
    next_in_round,
    replaced,
    round_points,
)
from ono99tui.game.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, Ono99Card, Rules
from ono99tui.game.rules_lookup import RulesLookup, lookup_for
from ono99tui.game.state import (
    DIRECTION,
    DISCARD_PILE,
    DISCARDING,
    DISCARDING_SEAT,
    HANDS,
    IN_ROUND,
    LEGAL,
    LOOKUP,
    OBLIGATED,
    OBLIGATION_NEXT,
    ONO99_THIS_TURN,
    OWED,
    PENDING_DRAW,
    PHASE,
    PLAYING,
    PLAYS,
    TOTAL,
    TURN,
    State,
    _make_state,
)

_SET99 = Ono99Card.SET99  # a module global: reading it off the Enum class is slow

# Re-exported: callers import these from the engine.
__all__ = [
    "acting_seats",
    "apply",
    "legal_moves",
    "new_match",
    "refusal",
    "round_points",
    "start_match",
]

MINUS_TEN = Card.MINUS_TEN
REVERSE = Card.REVERSE
PLAY2 = Card.PLAY2
ONO99 = Card.ONO99

Events = tuple[Event, ...]
_new_tuple = tuple.__new__


# ---------------------------------------------------------------------------------------
# Starting a match


def start_match(rules: Rules, seats: int, rng: random.Random) -> tuple[State, Events]:
    """A new match: random dealer, first deal. Returns the state and the opening events."""
    if type(seats) is not int or not MIN_PLAYERS <= seats <= MAX_PLAYERS:
        raise InvalidPlayerCount(
            f"a match needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {seats!r}"
        )
    tab = lookup_for(rules)
    dealer = rng.randrange(seats)
    s: list[Any] = [
        rules,
        seats,
        ((),) * seats,
        (),
        0,
        (),
        0,
        1,
        0,
        1,
        False,
        False,
        False,
        -1,
        -1,
        (True,) * seats,
        (True,) * seats,
        (False,) * seats,
        (rules.tokens,) * seats,
        (0,) * seats,
        (None,) * seats,
        dealer,
        0,
        PLAYING,
        (),
        0,
        (),
        tab,
    ]
    events: list[Event] = []
    deal(s, dealer, next_alive(s, dealer), events, rng)
    return _settle(s, events, rng)


def new_match(rules: Rules, seats: int, rng: random.Random) -> State:
    """A new match ready for the first move (see `start_match` for the opening events)."""
    return start_match(rules, seats, rng)[0]


# ---------------------------------------------------------------------------------------
# Applying moves


def apply(state: State, move: Move, rng: random.Random) -> tuple[State, Events]:
    """Apply `move` and return the new state with the public events it caused.

    Busts that follow (a seat with no legal move), round ends and new deals are resolved
    here too. Raises MalformedMove or IllegalMove; the given state is never changed.
    """
    # Legal plays are the preallocated move objects of the rules' tables, so a move that
    # *is* one of them (what bots return) is well formed and legal: no further checks.
    for legal in state[LEGAL]:
        if legal is move:
            if type(move) is Play:
                return _apply_play(state, move.seat, move.card, rng)
            return _apply_swap(state, move.seat, rng)
    return _apply_checked(state, move, rng)


def _apply_checked(state: State, move: Move, rng: random.Random) -> tuple[State, Events]:
    """`apply` for a move object built elsewhere (the wire, a test): check, then apply."""
    kind = type(move)
    if kind is Play or kind is SwapFour:
        seat = move.seat
        card: Card | None = getattr(move, "card", None)  # a SwapFour has no card
        if type(seat) is int and 0 <= seat < state[1] and (kind is SwapFour or type(card) is Card):
            tab: RulesLookup = state[LOOKUP]
            canonical = tab.swap_move[seat] if card is None else tab.play[seat][card]
            if any(legal is canonical for legal in state[LEGAL]):
                return apply(state, canonical, rng)
    elif kind is Draw:
        seat = move.seat
        if type(seat) is int and seat == state[PENDING_DRAW] and state[PHASE] == PLAYING:
            return _apply_draw(state, seat, rng)
    elif (
        type(move) is Discard  # `type(move)`, not `kind`, so a type checker narrows `move`
        and state[PHASE] == DISCARDING
        and type(move.card) is Card
        and type(move.seat) is int
        and move.seat == state[DISCARDING_SEAT]
        and move.card in state[HANDS][move.seat]
    ):
        return _apply_discard(state, move.seat, move.card, rng)
    raise refusal(state, move)


def _apply_play(state: State, seat: int, card: Card, rng: random.Random) -> tuple[State, Events]:
    """Play `card` (already known legal): the hot path of every simulation.

    The state is unpacked into locals and one new tuple is built, with no per-field
    copies; only a bust (no legal move for the next seat) goes through `_settle`.
    """
    (
        rules, seats, hands, pile, index, discard, total, direction, _turn, owed, obligated,
        obligation_next, ono_turn, pending, discarding, alive, in_round, busted, tokens,
        scores, revealed, dealer, round_no, phase, winners, plays, _legal, tab,
    ) = state
    events: list[Event] = []
    if pending >= 0:
        # Late-draw penalty: a play made before the pending draw forfeits it.
        events.append(MissedDraw(pending))
        pending = -1
    hand = hands[seat]
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1 :]
    if card <= 10:
        total += card
    elif card == MINUS_TEN:
        total -= 10
        if total < 0 and tab.floor is not None:
            total = tab.floor
    elif card == ONO99:
        if tab.ono99_mode == _SET99:
            total = 99
        ono_turn = True
    discard += (card,)
    events.append(played(seat, card, total))
    answered = owed == 2 and tab.is_answer[card]
    if card == REVERSE:
        # With two players in the round a Reverse changes nothing (RULES.md §2).
        if sum(in_round) > 2:
            direction = -direction
            events.append(Reversed(direction))
    elif card == PLAY2 and not answered:
        obligation_next = True
    if tab.late_draw:
        pending = seat
    elif index < len(pile):
        hand += (pile[index],)
        index += 1
        events.append(tab.drew_one[seat])
    else:
        hand, pile, index, discard = draw_cards(hand, 1, seat, pile, index, discard, events, rng)
    hands = hands[:seat] + (hand,) + hands[seat + 1 :]
    if owed == 2 and not answered:
        nxt = seat  # the first of two owed cards: the same seat plays again
        owed = 1
    else:
        nxt = (seat + direction) % seats
        while not in_round[nxt]:
            nxt = (nxt + direction) % seats
        ono_turn = False
        if answered:
            obligation_next = False  # owed stays 2, obligated stays True: passed on
            events.append(ObligationPassed(seat, nxt))
        else:
            if obligated:
                events.append(ObligationCleared(seat))
            if obligation_next:
                owed, obligated, obligation_next = 2, True, False
                events.append(ObligationCreated(nxt))
            else:
                obligated = False
    legal = legal_plays(tab, nxt, hands[nxt], total, owed, obligated, ono_turn)
    fields = (
        rules, seats, hands, pile, index, discard, total, direction, nxt, owed, obligated,
        obligation_next, ono_turn, pending, discarding, alive, in_round, busted, tokens,
        scores, revealed, dealer, round_no, phase, winners, plays + 1, legal, tab,
    )  # fmt: skip
    if legal or pending == nxt:
        return _new_tuple(State, fields), tuple(events)
    return _settle(list(fields), events, rng)


def _end_turn(s: list[Any], seat: int, direction: int, events: list[Event]) -> None:
    """The turn seat has played everything it owed: pass the turn on."""
    if s[OBLIGATED]:
        events.append(ObligationCleared(seat))
    nxt = next_in_round(s, seat, direction)
    s[TURN] = nxt
    s[ONO99_THIS_TURN] = False
    if s[OBLIGATION_NEXT]:
        s[OWED] = 2
        s[OBLIGATED] = True
        s[OBLIGATION_NEXT] = False
        events.append(ObligationCreated(nxt))
    else:
        s[OWED] = 1
        s[OBLIGATED] = False


def _apply_swap(state: State, seat: int, rng: random.Random) -> tuple[State, Events]:
    s: list[Any] = list(state)  # the list-copy fast path: slots by index (state.py)
    events: list[Event] = []
    pending = s[PENDING_DRAW]
    if pending >= 0:
        events.append(MissedDraw(pending))
        s[PENDING_DRAW] = -1
    s[DISCARD_PILE] += s[HANDS][seat]
    s[PLAYS] += 1
    events.append(SwappedFour(seat))
    # The swap draws its four cards at once, even under the late-draw rule.
    hand = draw_into(s, (), HAND_SIZE, seat, events, rng)
    s[HANDS] = replaced(s[HANDS], seat, hand)
    if s[OWED] == 2:
        s[OWED] = 1  # the swap is the first of the two owed plays
    else:
        _end_turn(s, seat, s[DIRECTION], events)
    return _settle(s, events, rng)


def _apply_draw(state: State, seat: int, rng: random.Random) -> tuple[State, Events]:
    s: list[Any] = list(state)  # the list-copy fast path: slots by index (state.py)
    events: list[Event] = []
    s[PENDING_DRAW] = -1
    s[HANDS] = replaced(s[HANDS], seat, draw_into(s, s[HANDS][seat], 1, seat, events, rng))
    return _settle(s, events, rng)


def _apply_discard(state: State, seat: int, card: Card, rng: random.Random) -> tuple[State, Events]:
    s: list[Any] = list(state)  # the list-copy fast path: slots by index (state.py)
    events: list[Event] = []
    hand = s[HANDS][seat]
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1 :]
    s[DISCARD_PILE] += (card,)
    events.append(Discarded(seat, card))
    hand = draw_into(s, hand, HAND_SIZE - len(hand), seat, events, rng)
    s[HANDS] = replaced(s[HANDS], seat, hand)
    s[DISCARDING_SEAT] = -1
    s[PHASE] = PLAYING
    if sum(s[IN_ROUND]) <= 1:
        end_points_round(s, events, rng)
    return _settle(s, events, rng)


# ---------------------------------------------------------------------------------------
# Busts


def _settle(s: list[Any], events: list[Event], rng: random.Random) -> tuple[State, Events]:
    """Resolve busts until the seat to play has a legal move (or play stops), then freeze."""
    tab: RulesLookup = s[LOOKUP]
    while s[PHASE] == PLAYING:
        turn = s[TURN]
        legal = legal_plays(
            tab, turn, s[HANDS][turn], s[TOTAL], s[OWED], s[OBLIGATED], s[ONO99_THIS_TURN]
        )
        # A seat still owed its late draw may draw first and find a legal card.
        if legal or s[PENDING_DRAW] == turn:
            s[LEGAL] = legal
            return _make_state(s), tuple(events)
        bust(s, turn, events, rng)
    s[LEGAL] = ()
    return _make_state(s), tuple(events)
