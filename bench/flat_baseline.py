"""Baseline for bench/engine.py: a minimal flat-list play-out of 4-player 2022 rules.

Mutable lists, no states, no views, no events, no validation: about the least work a
Python play-out of the same rules can do (random legal plays, Play 2 with Reverse/Play 2
answers, −10 floor, dead ONO 99 cards, the four-ONO-99 swap, reshuffles, elimination).
It is the yardstick the engine's speed is compared with, in the same run.
"""

from __future__ import annotations

import random

ZERO_TO_TEN = 10
MINUS_TEN, REVERSE, PLAY2, ONO99 = 11, 12, 13, 15
DECK_2022 = [0] * 8 + [1] * 6 + [v for v in range(2, 10) for _ in range(6)] + [10] * 10
DECK_2022 += [MINUS_TEN] * 10 + [REVERSE] * 10 + [PLAY2] * 10 + [ONO99] * 10
assert len(DECK_2022) == 112


def play_match(rng: random.Random, players: int = 4) -> int:
    """Play one match with uniformly random legal plays; return the number of plays."""
    key = rng.random  # shuffles sort by random keys, as the engine does
    pile = sorted(DECK_2022, key=lambda _card: key())
    hands = [[pile.pop() for _ in range(4)] for _ in range(players)]
    discard: list[int] = []
    alive = [True] * players
    left = players
    total = 0
    direction = 1
    seat = (rng.randrange(players) + 1) % players
    owed = 1
    obligated = False
    plays = 0
    while True:
        hand = hands[seat]
        options = []
        for i, card in enumerate(hand):
            if card <= ZERO_TO_TEN:
                if total + card < 99:
                    options.append(i)
            elif card != ONO99:
                options.append(i)
        if not options and hand.count(ONO99) == 4:
            options.append(-1)
        if not options:
            alive[seat] = False
            left -= 1
            if left == 1:
                return plays
            owed, obligated = 1, False
            seat = (seat + direction) % players
            while not alive[seat]:
                seat = (seat + direction) % players
            continue
        choice = options[int(rng.random() * len(options))]  # as the random bot picks
        plays += 1
        answered = False
        next_obligated = False
        if choice == -1:
            discard.extend(hand)
            hand.clear()
            draws = 4
        else:
            card = hand.pop(choice)
            discard.append(card)
            draws = 1
            if card <= ZERO_TO_TEN:
                total += card
            elif card == MINUS_TEN:
                total = max(0, total - 10)
            elif card in (REVERSE, PLAY2):
                if obligated and owed == 2:
                    answered = True
                if card == REVERSE and left > 2:
                    direction = -direction
                if card == PLAY2 and not answered:
                    next_obligated = True
        for _ in range(draws):
            if not pile:
                pile, discard = sorted(discard, key=lambda _card: key()), []
            if pile:
                hand.append(pile.pop())
        if answered:
            owed, obligated = 2, True
        elif owed == 2:
            owed = 1
            continue
        else:
            owed, obligated = (2, True) if next_obligated else (1, False)
        seat = (seat + direction) % players
        while not alive[seat]:
            seat = (seat + direction) % players
