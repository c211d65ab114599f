"""Deals consistent with one seat's knowledge: `sample_world(view, observed, rng)`.

A world keeps everything the seat knows (its hand, the total, every count, the discard
pile it watched being built, revealed hands) and deals every card it cannot see at random
among the places it cannot see into: the other hands, the draw pile (in random order) and
any part of the discard pile it did not watch. It reads nothing else: a search built on it
plays the same whatever the hidden cards really are.

One inference narrows the other hands: the search models every player as greedy, and a
greedy player's last play says what it did not keep. Playing a 4 at total 80 means no 5 to
10 that fitted; a −10 there means no number that fitted at all; a number as the first of
two owed cards means no Reverse or Play 2 to answer with. So of the cards a seat kept from
its last play (all its hand but the one it drew since), none is one greedy would have
preferred then (`kept_bans`); of those it kept through its last two plays (all but the two
it drew since), none is one greedy would have preferred at either; the card it drew last
is unconstrained.
"""

from __future__ import annotations

import random
from collections import Counter

from ono99tui.bots.observed import Observed
from ono99tui.bots.playout import (
    DISCARDING,
    MINUS_TEN,
    ONO99,
    PLAY2,
    PLAYING,
    Table,
    World,
    shuffled,
    table_for,
)
from ono99tui.game import Card, PlayerView


def _greedy_score(t: Table, card: int, total: int, answering: bool) -> int:
    """GreedyBot's score of playing `card` at `total` (playout.World.greedy's)."""
    if card <= 10:
        return 100 + card
    if answering and t.answer[card]:
        return 800
    if card == ONO99:
        return 45
    if card == PLAY2:
        return 60 if total >= t.attack else 3
    if card == MINUS_TEN:
        return 2
    return 1


def kept_bans(t: Table, played: Card, total: int, first_of_two: bool) -> frozenset[int]:
    """The cards a greedy player that played `played` at `total` (before it) cannot have
    kept: those it could have played then and would have preferred."""
    answering = first_of_two
    bar = _greedy_score(t, int(played), total, answering)
    banned = set()
    for card in range(16):
        if card <= 10:
            legal = total + card < t.bust_at
        elif card == ONO99:
            legal = t.set99 and t.bust_at > 99  # `tens` depends on the turn: never banned
        elif card == PLAY2:
            legal = not first_of_two or t.play2_first
        else:
            legal = True
        if legal and _greedy_score(t, card, total, answering) > bar:
            banned.add(card)
    return frozenset(banned)


class InconsistentView(ValueError):
    """The view's counts do not add up to the deck (a bot asked about a match it cannot
    model); callers fall back to a simpler choice."""


def sample_world(view: PlayerView, observed: Observed, rng: random.Random) -> World:
    """One full world the seat of `view` cannot tell from the real one."""
    return WorldSampler(view, observed).sample(rng)


class WorldSampler:
    """Deals many worlds for one decision: what the seat knows is worked out once."""

    def __init__(self, view: PlayerView, observed: Observed) -> None:
        me = view.seat
        if me is None or view.turn is None:
            raise InconsistentView("only a seated player's view of a match in play")
        t = table_for(view.rules)
        seats = view.seats
        pool = Counter(t.deck)
        pool.subtract(int(c) for c in view.hand)
        held_revealed: list[bool] = []
        for seat in range(seats):
            shown = view.revealed[seat]
            held = (
                shown is not None
                and view.eliminated[seat]
                and seat != me
                and view.hand_sizes[seat] == len(shown)
            )
            held_revealed.append(held)
            if held and shown is not None:
                pool.subtract(int(c) for c in shown)
        known = observed.discard_pile(view.round_no, view.discard_pile_size, view.discard_top)
        if known is not None:
            pool.subtract(int(c) for c in known)
        if any(n < 0 for n in pool.values()):
            raise InconsistentView("the seen cards are more than the deck holds")
        self.unknown = list(pool.elements())
        hidden_hands = sum(
            view.hand_sizes[seat]
            for seat in range(seats)
            if seat != me and not held_revealed[seat]
        )
        self.hidden_discard = view.discard_pile_size - (len(known) if known is not None else 0)
        if hidden_hands + self.hidden_discard + view.draw_pile_size != len(self.unknown):
            raise InconsistentView("the view's counts do not add up to the deck")
        # Each seat's hand: a fixed list (mine, a revealed one) or a count of unseen cards.
        self.fixed: list[list[int] | None] = []
        self.sizes: list[int] = []
        for seat in range(seats):
            shown = view.revealed[seat]
            if seat == me:
                self.fixed.append([int(c) for c in view.hand])
            elif held_revealed[seat] and shown is not None:
                self.fixed.append([int(c) for c in shown])
            else:
                self.fixed.append(None)
            self.sizes.append(view.hand_sizes[seat])
        self.known_discard = [int(c) for c in known] if known is not None else []
        # Per hidden seat: the cards its kept ones cannot be (empty: no inference), and the
        # cards those it kept through its last two plays cannot be (all but the two it drew
        # after them: one of those two may have been played).
        self.bans: list[frozenset[int]] = []
        self.old_bans: list[frozenset[int]] = []
        for seat in range(seats):
            last = observed.last_plays.get(seat) if self.fixed[seat] is None else None
            earlier = observed.earlier_plays.get(seat) if last is not None else None
            if last is None or known is None or self.sizes[seat] < 2:
                self.bans.append(frozenset())
                self.old_bans.append(frozenset())
                continue
            banned = kept_bans(t, *last)
            self.bans.append(banned)
            if earlier is None or self.sizes[seat] < 3:
                self.old_bans.append(banned)
            else:
                self.old_bans.append(banned | kept_bans(t, *earlier))
        self.inferring = any(self.bans)
        # The rest of a world is the same every time: build it once, copy it per world.
        w = World.__new__(World)
        w.t = t
        w.seats = seats
        w.hands = []
        w.pile = []
        w.index = 0
        w.discard = []
        w.total = view.total
        w.direction = view.direction
        w.turn = view.turn
        obligated = view.obligation_seat is not None
        w.owed = view.obligation_owed if obligated else 1
        w.obligated = obligated
        first = observed.first_of_two(view.turn) if obligated and w.owed == 1 else None
        w.obligation_next = first is not None and int(first) == PLAY2
        w.ono_turn = first is not None and int(first) == ONO99
        w.discarding = -1 if view.discarding is None else view.discarding
        w.alive = [not out for out in view.eliminated]
        w.in_round = [
            not out and not sat
            for out, sat in zip(view.eliminated, view.out_of_round, strict=True)
        ]
        w.busted = list(view.busted)
        w.tokens = list(view.tokens)
        w.scores = list(view.scores)
        w.revealed = [None if h is None else tuple(int(c) for c in h) for h in view.revealed]
        w.dealer = view.dealer
        w.round_no = view.round_no
        w.phase = DISCARDING if view.discarding is not None else PLAYING
        w.winners = ()
        w.plays = view.plays
        w.busts = []
        w.halt_at_round_end = False
        w.round_points = ()
        w.hands = [hand[:] if hand is not None else [] for hand in self.fixed]
        # The seat to play is (nearly always) the seat asking: its plays are known now.
        known_turn = w.phase == PLAYING and self.fixed[view.turn] is not None
        w.moves = w.legal(view.turn) if known_turn else []
        self.template = w

    def sample(self, rng: random.Random) -> World:
        """A new world: the unseen cards shuffled into the unseen places."""
        cards = shuffled(self.unknown, rng)
        hands: list[list[int]] = []
        if self.inferring:
            hands = self._inferred_hands(cards)
            at = 0
        else:
            at = 0
            for fixed, size in zip(self.fixed, self.sizes, strict=True):
                if fixed is not None:
                    hands.append(fixed[:])
                else:
                    hands.append(cards[at : at + size])
                    at += size
        w = self.template.copy(rng)
        w.hands = hands
        w.discard = self.known_discard + cards[at : at + self.hidden_discard]
        at += self.hidden_discard
        w.pile = cards[at:]
        if w.phase == PLAYING and self.fixed[w.turn] is None:
            w.moves = w.legal(w.turn)
        return w

    def _inferred_hands(self, cards: list[int]) -> list[list[int]]:
        """Deal the hidden hands from the shuffled `cards`, each seat's kept cards avoiding
        its bans (when the cards allow it); what is dealt is removed from `cards`."""
        taken = [False] * len(cards)
        hands: list[list[int]] = []
        for fixed, size, banned, old in zip(
            self.fixed, self.sizes, self.bans, self.old_bans, strict=True
        ):
            if fixed is not None:
                hands.append(fixed[:])
                continue
            hand: list[int] = []
            kept = size - 1 if banned else 0
            # Kept through both plays: all but the last two cards drawn (when old differs).
            kept_long = max(0, size - 2) if banned and old != banned else 0
            for i, card in enumerate(cards):
                if len(hand) == kept_long:
                    break
                if not taken[i] and card not in old:
                    taken[i] = True
                    hand.append(card)
            for i, card in enumerate(cards):
                if len(hand) >= kept:
                    break
                if not taken[i] and card not in banned:
                    taken[i] = True
                    hand.append(card)
            for i in range(len(cards)):
                if len(hand) == size:
                    break
                if not taken[i]:
                    taken[i] = True
                    hand.append(cards[i])
            hands.append(hand)
        cards[:] = [card for i, card in enumerate(cards) if not taken[i]]
        return hands
