"""Dealing, drawing, busts, round ends and the end of the match.

These work on a state being rebuilt as a list (see `state.py`): the engine copies the
state with `list(state)`, these change it in place, the engine freezes it again.
"""

from __future__ import annotations

import random
from typing import Any

from ono99tui.game.cards import Card, hand_points
from ono99tui.game.duplicate import DuplicateRandom
from ono99tui.game.events import (
    Busted,
    Eliminated,
    Event,
    MatchEnded,
    ObligationCleared,
    OutOfRound,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    TokenLost,
    drew,
)
from ono99tui.game.rules import HAND_SIZE, Scoring
from ono99tui.game.rules_lookup import RulesLookup
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
    LOOKUP,
    MATCH_OVER,
    OBLIGATED,
    OBLIGATION_NEXT,
    ONO99_THIS_TURN,
    OWED,
    PENDING_DRAW,
    PHASE,
    PLAYING,
    REVEALED,
    ROUND_NO,
    SCORES,
    TOKENS,
    TOTAL,
    TURN,
    WINNERS,
)

ONO99 = Card.ONO99


def deal(s: list[Any], dealer: int, starter: int, events: list[Event], rng: random.Random) -> None:
    """Collect every card, shuffle, deal four to each seat still in the match; `starter` leads."""
    tab: RulesLookup = s[LOOKUP]
    seats: int = s[1]
    first = dealer + 1
    if type(rng) is DuplicateRandom:
        # A duplicate set's match (docs/DUPLICATE.md): the round's deck is shuffled the
        # same in every rotation and dealt from seat 0, so each seat gets the same cards.
        rng.for_round(s[ROUND_NO] + 1)
        first = 0
    cards = shuffled(tab.deck, rng)
    alive = s[ALIVE]
    hands: list[list[Card]] = [[] for _ in range(seats)]
    order = [(first + k) % seats for k in range(seats)]
    index = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            if alive[seat]:
                hands[seat].append(cards[index])
                index += 1
    s[HANDS] = tuple(tuple(hand) for hand in hands)
    s[DRAW_PILE] = tuple(cards)
    s[DRAW_INDEX] = index
    s[DISCARD_PILE] = ()
    s[TOTAL] = 0
    s[DIRECTION] = 1
    s[TURN] = starter
    s[OWED] = 1
    s[OBLIGATED] = False
    s[OBLIGATION_NEXT] = False
    s[ONO99_THIS_TURN] = False
    s[PENDING_DRAW] = -1
    s[DISCARDING_SEAT] = -1
    s[IN_ROUND] = alive
    s[BUSTED] = (False,) * seats
    s[DEALER] = dealer
    s[ROUND_NO] += 1
    s[PHASE] = PLAYING
    events.append(
        RoundDealt(s[ROUND_NO], dealer, starter, tuple(map(len, s[HANDS])), len(cards) - index)
    )


# ---------------------------------------------------------------------------------------
# Seats


def next_in_round(s: list[Any], seat: int, direction: int) -> int:
    """The next seat after `seat` in `direction` that is still in the round."""
    in_round = s[IN_ROUND]
    seats: int = s[1]
    nxt = (seat + direction) % seats
    while not in_round[nxt]:
        nxt = (nxt + direction) % seats
    return nxt


def next_alive(s: list[Any], seat: int) -> int:
    """The next seat clockwise after `seat` that is still in the match."""
    alive = s[ALIVE]
    seats: int = s[1]
    nxt = (seat + 1) % seats
    while not alive[nxt]:
        nxt = (nxt + 1) % seats
    return nxt


def previous_alive(s: list[Any], seat: int) -> int:
    """The next seat counter-clockwise before `seat` that is still in the match."""
    alive = s[ALIVE]
    seats: int = s[1]
    prev = (seat - 1) % seats
    while not alive[prev]:
        prev = (prev - 1) % seats
    return prev


def replaced(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


# ---------------------------------------------------------------------------------------
# Drawing


def shuffled(cards: tuple[Card, ...], rng: random.Random) -> list[Card]:
    """The cards in a uniformly random order drawn from `rng`.

    Sorting by one `rng.random()` key per card is a uniform shuffle (a tie between two
    53-bit keys has a chance near 1e-12 per deal) and costs about a third of
    `rng.shuffle`, whose per-card `_randbelow` runs in Python: a deal is a tenth of a
    simulated match.
    """
    key = rng.random
    return sorted(cards, key=lambda _card: key())


def draw_cards(
    hand: tuple[Card, ...],
    count: int,
    seat: int,
    pile: tuple[Card, ...],
    index: int,
    discard: tuple[Card, ...],
    events: list[Event],
    rng: random.Random,
) -> tuple[tuple[Card, ...], tuple[Card, ...], int, tuple[Card, ...]]:
    """Draw `count` cards into `hand`, reshuffling the discard pile when the draw pile is
    empty. Returns the new (hand, draw pile, draw index, discard pile)."""
    drawn = 0
    while drawn < count:
        if index >= len(pile):
            if not discard:
                break  # both piles empty: the player simply does not draw
            pile = tuple(shuffled(discard, rng))
            index = 0
            discard = ()
            events.append(Reshuffled(len(pile)))
        take = min(count - drawn, len(pile) - index)
        hand = hand + pile[index : index + take]
        index += take
        drawn += take
    if drawn:
        events.append(drew(seat, drawn))
    return hand, pile, index, discard


def draw_into(
    s: list[Any],
    hand: tuple[Card, ...],
    count: int,
    seat: int,
    events: list[Event],
    rng: random.Random,
) -> tuple[Card, ...]:
    """`_draw_cards` on a state being built as a list."""
    hand, s[DRAW_PILE], s[DRAW_INDEX], s[DISCARD_PILE] = draw_cards(
        hand, count, seat, s[DRAW_PILE], s[DRAW_INDEX], s[DISCARD_PILE], events, rng
    )
    return hand


# ---------------------------------------------------------------------------------------
# Busts, rounds and the end of the match


def bust(s: list[Any], seat: int, events: list[Event], rng: random.Random) -> None:
    """`seat` has no legal move: resolve it by the scoring mode."""
    tab: RulesLookup = s[LOOKUP]
    events.append(Busted(seat, s[TOTAL]))
    if s[OBLIGATED]:
        # The obligation ends with the buster: the next player plays normally.
        events.append(ObligationCleared(seat))
    s[OWED] = 1
    s[OBLIGATED] = False
    s[OBLIGATION_NEXT] = False
    s[ONO99_THIS_TURN] = False
    scoring = tab.scoring
    if scoring == Scoring.SINGLE:
        eliminate(s, seat, events)
        if not match_decided(s, events):
            s[TURN] = next_in_round(s, seat, s[DIRECTION])
    elif scoring == Scoring.TOKENS:
        tokens = s[TOKENS][seat]
        if tokens > 0:
            s[TOKENS] = replaced(s[TOKENS], seat, tokens - 1)
            events.append(TokenLost(seat, tokens - 1))
            round_over(s, events)
            deal(s, previous_alive(s, seat), seat, events, rng)
        else:
            eliminate(s, seat, events)
            round_over(s, events)
            if not match_decided(s, events):
                starter = next_alive(s, seat)
                deal(s, previous_alive(s, starter), starter, events, rng)
    else:  # points-elimination / points-lowest: out of this round only
        s[IN_ROUND] = replaced(s[IN_ROUND], seat, False)
        s[BUSTED] = replaced(s[BUSTED], seat, True)
        events.append(OutOfRound(seat))
        if sum(s[IN_ROUND]) >= 1:
            s[TURN] = next_in_round(s, seat, s[DIRECTION])
        hand = s[HANDS][seat]
        if hand and not (len(hand) == HAND_SIZE and all(card == ONO99 for card in hand)):
            # Another seat's pending late draw waits until the discard is done.
            s[PHASE] = DISCARDING
            s[DISCARDING_SEAT] = seat
        elif sum(s[IN_ROUND]) <= 1:
            end_points_round(s, events, rng)


def eliminate(s: list[Any], seat: int, events: list[Event]) -> None:
    hand = s[HANDS][seat]
    revealed = hand if s[LOOKUP].rules.reveal_eliminated else None
    s[ALIVE] = replaced(s[ALIVE], seat, False)
    s[IN_ROUND] = replaced(s[IN_ROUND], seat, False)
    if revealed is not None:
        s[REVEALED] = replaced(s[REVEALED], seat, revealed)
    if s[PENDING_DRAW] == seat:
        s[PENDING_DRAW] = -1
    events.append(Eliminated(seat, revealed))


def match_decided(s: list[Any], events: list[Event]) -> bool:
    """End the match if one seat is left in it."""
    alive = s[ALIVE]
    if sum(alive) > 1:
        return False
    end_match(s, tuple(seat for seat, on in enumerate(alive) if on), events)
    return True


def end_match(s: list[Any], winners: tuple[int, ...], events: list[Event]) -> None:
    s[PHASE] = MATCH_OVER
    s[WINNERS] = winners
    s[TURN] = -1
    s[PENDING_DRAW] = -1
    s[DISCARDING_SEAT] = -1
    events.append(MatchEnded(winners))


def round_over(s: list[Any], events: list[Event], points: tuple[int, ...] | None = None) -> None:
    seats: int = s[1]
    events.append(RoundEnded(s[ROUND_NO], points or (0,) * seats, s[SCORES], s[TOKENS]))


def round_points(hand: tuple[Card, ...], busted: bool) -> int:
    """Points a hand scores at the end of a points round (RULES.md §3)."""
    missing = max(0, HAND_SIZE - len(hand))
    return sum(map(hand_points, hand)) + 15 * missing + (25 if busted else 0)


def end_points_round(s: list[Any], events: list[Event], rng: random.Random) -> None:
    """Everyone still in the match scores their hand; then the match goes on or ends."""
    tab: RulesLookup = s[LOOKUP]
    alive = s[ALIVE]
    owed = s[PENDING_DRAW]
    if owed >= 0:
        # A late draw still owed when the round ends was never lost: nobody played before
        # it (a bust ended the round, and Draw waits while a buster discards). RULES.md
        # charges only a draw missed that way, so the seat draws its card before scoring.
        s[PENDING_DRAW] = -1
        s[HANDS] = replaced(s[HANDS], owed, draw_into(s, s[HANDS][owed], 1, owed, events, rng))
    points = tuple(
        round_points(hand, busted) if on else 0
        for hand, busted, on in zip(s[HANDS], s[BUSTED], alive, strict=True)
    )
    scores = s[SCORES] = tuple(a + b for a, b in zip(s[SCORES], points, strict=True))
    round_over(s, events, points)
    target = tab.rules.target
    players = [seat for seat, on in enumerate(alive) if on]
    reached = [seat for seat in players if scores[seat] >= target]
    if tab.scoring == Scoring.POINTS_LOWEST:
        if reached:
            low = min(scores[seat] for seat in players)
            end_match(s, tuple(seat for seat in players if scores[seat] == low), events)
            return
    elif reached:
        left = [seat for seat in players if seat not in reached]
        if not left:
            # Everyone reached the target in the same round: the lowest score wins.
            low = min(scores[seat] for seat in players)
            end_match(s, tuple(seat for seat in players if scores[seat] == low), events)
            return
        for seat in reached:
            eliminate(s, seat, events)
        if match_decided(s, events):
            return
    dealer = next_alive(s, s[DEALER])
    deal(s, dealer, next_alive(s, dealer), events, rng)
