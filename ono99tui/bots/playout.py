"""A flat, mutable copy of the rules for fast play-outs (standard library only).

The engine (`ono99tui.game`) is built for a host: immutable states, events, move objects,
views. A search bot needs something else: hundreds of whole play-outs per decision. A
`World` is one match as plain lists and ints that `play` changes in place, with greedy's
choice (`greedy`) computed from the same numbers; play-outs cost a fraction of going
through `apply` + `view` + `GreedyBot` (bench/bots.py measures both).

It must never drift from the engine: tests/bots/test_playout_lockstep.py plays random
matches of every preset and player count through both, move for move, comparing every
field (and draws the same random numbers in the same order, so the deals and reshuffles
are the same cards). Cards are the ints of `Card`; `SWAP` stands for the four-ONO-99 swap.

One rule is not modelled: the late-draw penalty. A world always draws at once (what every
bot does anyway), so a search under that rule treats it as drawing at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ono99tui.game import Card, Rules, Scoring, deck, hand_points
from ono99tui.game.rules import HAND_SIZE, Ono99Card

MINUS_TEN = int(Card.MINUS_TEN)
REVERSE = int(Card.REVERSE)
PLAY2 = int(Card.PLAY2)
HOLD = int(Card.HOLD)
ONO99 = int(Card.ONO99)
SWAP = 16  # not a card: the four-ONO-99 swap in a list of legal plays

# Phases of a world. HALTED: a play-out asked to stop at the end of the round got there.
PLAYING, DISCARDING, OVER, HALTED = 0, 1, 2, 3

SINGLE, TOKENS, POINTS_ELIMINATION, POINTS_LOWEST = 0, 1, 2, 3
_SCORING = {
    Scoring.SINGLE: SINGLE,
    Scoring.TOKENS: TOKENS,
    Scoring.POINTS_ELIMINATION: POINTS_ELIMINATION,
    Scoring.POINTS_LOWEST: POINTS_LOWEST,
}
# Greedy's "Play 2 is an attack" distance from the limit (GreedyBot.ATTACK_ZONE).
ATTACK_ZONE = 10
_HAND_POINTS = tuple(hand_points(Card(c)) for c in range(16))


class Table:
    """The rule options of one `Rules` value as plain ints and bools."""

    __slots__ = (
        "rules",
        "deck",
        "bust_at",
        "floor",
        "set99",
        "tens",
        "swap",
        "dead_hand",
        "answer",
        "play2_first",
        "scoring",
        "target",
        "reveal",
        "attack",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.deck: tuple[int, ...] = tuple(int(c) for c in deck(rules))
        self.bust_at = rules.bust_at
        self.floor: int | None = None if rules.negative_totals else 0
        self.set99 = rules.ono99_card == Ono99Card.SET99
        self.tens = rules.ono99_card == Ono99Card.TENS
        self.swap = rules.four_ono99_swap
        self.dead_hand = rules.dead_hand_busts
        answers = rules.obligation_answers
        self.answer: tuple[bool, ...] = tuple(Card(c) in answers for c in range(16))
        self.play2_first = Card.PLAY2 in rules.obligation_answers or rules.obligation_card_first
        self.scoring = _SCORING[rules.scoring]
        self.target = rules.target
        self.reveal = rules.reveal_eliminated
        # GreedyBot plays Play 2 as an attack when total >= bust_at - 1 - ATTACK_ZONE.
        self.attack = rules.bust_at - 1 - ATTACK_ZONE


_TABLES: dict[Rules, Table] = {}


def table_for(rules: Rules) -> Table:
    """The shared `Table` of `rules` (built on first use)."""
    table = _TABLES.get(rules)
    if table is None:
        if len(_TABLES) > 64:
            _TABLES.clear()
        table = _TABLES[rules] = Table(rules)
    return table


def shuffled(cards: list[int], rng: random.Random) -> list[int]:
    """The engine's shuffle (`game.rounds.shuffled`): one `rng.random()` key per card."""
    key = rng.random
    return sorted(cards, key=lambda _card: key())


class World:
    """One match, every hidden card included, as mutable plain values.

    Fields mirror `game.State` (same names, same meanings); `moves` is the turn seat's
    legal plays (cards, `SWAP`), `busts` lists the seats that busted, in order. With
    `halt_at_round_end` a bust that ends a round (tokens) or a scored round (points) stops
    the world in HALTED instead of dealing the next round: a play-out's horizon.
    """

    __slots__ = (
        "t",
        "rng",
        "seats",
        "hands",
        "pile",
        "index",
        "discard",
        "total",
        "direction",
        "turn",
        "owed",
        "obligated",
        "obligation_next",
        "ono_turn",
        "discarding",
        "alive",
        "in_round",
        "busted",
        "tokens",
        "scores",
        "revealed",
        "dealer",
        "round_no",
        "phase",
        "winners",
        "plays",
        "moves",
        "busts",
        "halt_at_round_end",
        "round_points",
    )

    t: Table
    rng: random.Random
    seats: int
    hands: list[list[int]]
    pile: list[int]
    index: int
    discard: list[int]
    total: int
    direction: int
    turn: int
    owed: int
    obligated: bool
    obligation_next: bool
    ono_turn: bool
    discarding: int
    alive: list[bool]
    in_round: list[bool]
    busted: list[bool]
    tokens: list[int]
    scores: list[int]
    revealed: list[tuple[int, ...] | None]
    dealer: int
    round_no: int
    phase: int
    winners: tuple[int, ...]
    plays: int
    moves: list[int]
    busts: list[int]
    halt_at_round_end: bool
    round_points: tuple[int, ...]

    # --- building ------------------------------------------------------------------------

    @classmethod
    def start(cls, rules: Rules, seats: int, rng: random.Random) -> World:
        """A new match, drawing the same random numbers as `game.start_match`."""
        w = cls()
        w.t = table_for(rules)
        w.rng = rng
        w.seats = seats
        w.hands = [[] for _ in range(seats)]
        w.pile, w.index, w.discard = [], 0, []
        w.total, w.direction, w.turn, w.owed = 0, 1, 0, 1
        w.obligated = w.obligation_next = w.ono_turn = False
        w.discarding = -1
        w.alive = [True] * seats
        w.in_round = [True] * seats
        w.busted = [False] * seats
        w.tokens = [rules.tokens] * seats
        w.scores = [0] * seats
        w.revealed = [None] * seats
        w.dealer = rng.randrange(seats)
        w.round_no = 0
        w.phase = PLAYING
        w.winners = ()
        w.plays = 0
        w.moves = []
        w.busts = []
        w.halt_at_round_end = False
        w.round_points = ()
        w._deal(w.dealer, w._next_alive(w.dealer))
        w._settle()
        return w

    def copy(self, rng: random.Random | None = None) -> World:
        """An independent copy (optionally drawing from another generator)."""
        w = World.__new__(World)
        w.t = self.t
        w.rng = self.rng if rng is None else rng
        w.seats = self.seats
        w.hands = [hand[:] for hand in self.hands]
        w.pile = self.pile  # never changed in place: a reshuffle builds a new list
        w.index = self.index
        w.discard = self.discard[:]
        w.total = self.total
        w.direction = self.direction
        w.turn = self.turn
        w.owed = self.owed
        w.obligated = self.obligated
        w.obligation_next = self.obligation_next
        w.ono_turn = self.ono_turn
        w.discarding = self.discarding
        w.alive = self.alive[:]
        w.in_round = self.in_round[:]
        w.busted = self.busted[:]
        w.tokens = self.tokens[:]
        w.scores = self.scores[:]
        w.revealed = self.revealed[:]
        w.dealer = self.dealer
        w.round_no = self.round_no
        w.phase = self.phase
        w.winners = self.winners
        w.plays = self.plays
        w.moves = self.moves
        w.busts = self.busts[:]
        w.halt_at_round_end = self.halt_at_round_end
        w.round_points = self.round_points
        return w

    # --- legality and greedy -------------------------------------------------------------

    def legal(self, seat: int) -> list[int]:
        """`game.legal.legal_plays` for `seat` in the world's current facts."""
        t = self.t
        bust_at = t.bust_at
        total = self.total
        hand = self.hands[seat]
        moves: list[int] = []
        seen = 0
        for card in hand:
            bit = 1 << card
            if seen & bit:
                continue
            seen |= bit
            if card <= 10:
                if total + card < bust_at:
                    moves.append(card)
            elif card == ONO99:
                if t.set99:
                    if bust_at > 99:
                        moves.append(card)
                elif t.tens and total % 10 == 0 and not self.ono_turn:
                    moves.append(card)
            elif card == PLAY2:
                if not (self.obligated and self.owed == 2) or t.play2_first:
                    moves.append(card)
            else:
                moves.append(card)
        if seen == 1 << ONO99:
            if t.swap and len(hand) == HAND_SIZE:
                moves.append(SWAP)
            elif t.dead_hand:
                return []
        return moves

    def greedy(self) -> int:
        """The play `GreedyBot` makes here (the turn seat's), or its discard in DISCARDING."""
        if self.phase == DISCARDING:
            best, best_score = -1, -1
            for card in self.hands[self.discarding]:
                score = _HAND_POINTS[card]
                if score > best_score:
                    best, best_score = card, score
            return best
        moves = self.moves
        if len(moves) == 1:
            return moves[0]
        t = self.t
        answering = self.obligated and self.owed == 2
        best, best_score = moves[0], -1
        for card in moves:
            if card <= 10:
                score = 100 + card
            elif card == SWAP:
                score = 900
            elif answering and t.answer[card]:
                score = 800
            elif card == ONO99:
                score = 45
            elif card == PLAY2:
                score = 60 if self.total >= t.attack else 3
            elif card == MINUS_TEN:
                score = 2
            else:
                score = 1
            if score > best_score:
                best, best_score = card, score
        return best

    def step(self) -> None:
        """Greedy's move for whoever acts: `act(greedy())` in one call (the play-out loop)."""
        if self.phase == DISCARDING:
            self.discard_card(self.greedy())
            return
        moves = self.moves
        if len(moves) == 1:
            card = moves[0]
        else:
            # `greedy()`'s scoring, inlined: this loop runs for every move of every play-out
            # (≈ 2–5 % of the play-out rate measured against calling `greedy()`); keep the
            # two the same.
            t = self.t
            answering = self.obligated and self.owed == 2
            card, best_score = moves[0], -1
            for move in moves:
                if move <= 10:
                    score = 100 + move
                elif move == SWAP:
                    score = 900
                elif answering and t.answer[move]:
                    score = 800
                elif move == ONO99:
                    score = 45
                elif move == PLAY2:
                    score = 60 if self.total >= t.attack else 3
                elif move == MINUS_TEN:
                    score = 2
                else:
                    score = 1
                if score > best_score:
                    card, best_score = move, score
        if card == SWAP:
            self.swap()
        else:
            self.play(card)

    def act(self, card: int) -> None:
        """The acting seat's move: a play (or SWAP) in PLAYING, the discard in DISCARDING."""
        if self.phase == DISCARDING:
            self.discard_card(card)
        elif card == SWAP:
            self.swap()
        else:
            self.play(card)

    # --- moves ---------------------------------------------------------------------------

    def play(self, card: int) -> None:
        """The turn seat plays `card` (legal: one of `moves`); `game.engine._apply_play`."""
        t = self.t
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(card)
        owed = self.owed
        if card <= 10:
            self.total += card
        elif card == MINUS_TEN:
            total = self.total - 10
            if total < 0 and t.floor is not None:
                total = t.floor
            self.total = total
        elif card == ONO99:
            if t.set99:
                self.total = 99
            self.ono_turn = True
        self.discard.append(card)
        answered = owed == 2 and t.answer[card]
        if card == REVERSE:
            if sum(self.in_round) > 2:
                self.direction = -self.direction
        elif card == PLAY2 and not answered:
            self.obligation_next = True
        if self.index < len(self.pile):
            hand.append(self.pile[self.index])
            self.index += 1
        else:
            self._draw(hand, 1)
        if owed == 2 and not answered:
            self.owed = 1  # the first of two owed cards: the same seat plays again
        else:
            nxt = (seat + self.direction) % self.seats
            in_round = self.in_round
            while not in_round[nxt]:
                nxt = (nxt + self.direction) % self.seats
            self.turn = nxt
            self.ono_turn = False
            if answered:
                self.obligation_next = False
            elif self.obligation_next:
                self.owed, self.obligated, self.obligation_next = 2, True, False
            else:
                self.obligated = False
        self.plays += 1
        moves = self.legal(self.turn)
        if moves:
            self.moves = moves  # the common case: no bust to resolve
        else:
            self._settle()

    def swap(self) -> None:
        """The turn seat swaps its four ONO 99 cards (`game.engine._apply_swap`)."""
        seat = self.turn
        self.discard.extend(self.hands[seat])
        self.plays += 1
        hand: list[int] = []
        self.hands[seat] = hand
        self._draw(hand, HAND_SIZE)
        if self.owed == 2:
            self.owed = 1
        else:
            self._end_turn(seat)
        self._settle()

    def discard_card(self, card: int) -> None:
        """Points scoring: the buster discards `card` (`game.engine._apply_discard`)."""
        seat = self.discarding
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        self._draw(hand, HAND_SIZE - len(hand))
        self.discarding = -1
        self.phase = PLAYING
        if sum(self.in_round) <= 1:
            self._end_points_round()
        self._settle()

    # --- helpers (game.rounds) -----------------------------------------------------------

    def _end_turn(self, seat: int) -> None:
        self.turn = self._next_in_round(seat)
        self.ono_turn = False
        if self.obligation_next:
            self.owed, self.obligated, self.obligation_next = 2, True, False
        else:
            self.owed, self.obligated = 1, False

    def _draw(self, hand: list[int], count: int) -> None:
        """Draw `count` cards into `hand`, reshuffling the discard pile when needed."""
        drawn = 0
        while drawn < count:
            if self.index >= len(self.pile):
                if not self.discard:
                    break
                self.pile = shuffled(self.discard, self.rng)
                self.index = 0
                self.discard = []
            take = min(count - drawn, len(self.pile) - self.index)
            hand.extend(self.pile[self.index : self.index + take])
            self.index += take
            drawn += take

    def _next_in_round(self, seat: int) -> int:
        in_round = self.in_round
        nxt = (seat + self.direction) % self.seats
        while not in_round[nxt]:
            nxt = (nxt + self.direction) % self.seats
        return nxt

    def _next_alive(self, seat: int) -> int:
        alive = self.alive
        nxt = (seat + 1) % self.seats
        while not alive[nxt]:
            nxt = (nxt + 1) % self.seats
        return nxt

    def _previous_alive(self, seat: int) -> int:
        alive = self.alive
        prev = (seat - 1) % self.seats
        while not alive[prev]:
            prev = (prev - 1) % self.seats
        return prev

    def _settle(self) -> None:
        """Resolve busts until the turn seat has a legal play (`game.engine._settle`)."""
        while self.phase == PLAYING:
            moves = self.legal(self.turn)
            if moves:
                self.moves = moves
                return
            self._bust(self.turn)
        self.moves = []

    def _bust(self, seat: int) -> None:
        t = self.t
        self.busts.append(seat)
        self.owed = 1
        self.obligated = self.obligation_next = self.ono_turn = False
        scoring = t.scoring
        if scoring == SINGLE:
            self._eliminate(seat)
            if not self._match_decided():
                self.turn = self._next_in_round(seat)
        elif scoring == TOKENS:
            tokens = self.tokens[seat]
            if tokens > 0:
                self.tokens[seat] = tokens - 1
                if self.halt_at_round_end:
                    self.phase = HALTED
                    return
                self._deal(self._previous_alive(seat), seat)
            else:
                self._eliminate(seat)
                if not self._match_decided():
                    if self.halt_at_round_end:
                        self.phase = HALTED
                        return
                    starter = self._next_alive(seat)
                    self._deal(self._previous_alive(starter), starter)
        else:
            self.in_round[seat] = False
            self.busted[seat] = True
            left = sum(self.in_round)
            if left >= 1:
                self.turn = self._next_in_round(seat)
            hand = self.hands[seat]
            if hand and not (len(hand) == HAND_SIZE and all(c == ONO99 for c in hand)):
                self.phase = DISCARDING
                self.discarding = seat
            elif left <= 1:
                self._end_points_round()

    def _eliminate(self, seat: int) -> None:
        self.alive[seat] = False
        self.in_round[seat] = False
        if self.t.reveal:
            self.revealed[seat] = tuple(self.hands[seat])

    def _match_decided(self) -> bool:
        if sum(self.alive) > 1:
            return False
        self._end_match(tuple(seat for seat, on in enumerate(self.alive) if on))
        return True

    def _end_match(self, winners: tuple[int, ...]) -> None:
        self.phase = OVER
        self.winners = winners
        self.turn = -1
        self.discarding = -1

    def _deal(self, dealer: int, starter: int) -> None:
        cards = shuffled(list(self.t.deck), self.rng)
        seats = self.seats
        alive = self.alive
        hands: list[list[int]] = [[] for _ in range(seats)]
        order = [(dealer + 1 + k) % seats for k in range(seats)]
        index = 0
        for _ in range(HAND_SIZE):
            for seat in order:
                if alive[seat]:
                    hands[seat].append(cards[index])
                    index += 1
        self.hands = hands
        self.pile = cards
        self.index = index
        self.discard = []
        self.total = 0
        self.direction = 1
        self.turn = starter
        self.owed = 1
        self.obligated = self.obligation_next = self.ono_turn = False
        self.discarding = -1
        self.in_round = alive[:]
        self.busted = [False] * seats
        self.dealer = dealer
        self.round_no += 1
        self.phase = PLAYING

    def _end_points_round(self) -> None:
        alive = self.alive
        points = tuple(
            _points(hand, busted) if on else 0
            for hand, busted, on in zip(self.hands, self.busted, alive, strict=True)
        )
        self.round_points = points
        self.scores = scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        players = [seat for seat, on in enumerate(alive) if on]
        reached = [seat for seat in players if scores[seat] >= self.t.target]
        if self.t.scoring == POINTS_LOWEST:
            if reached:
                low = min(scores[seat] for seat in players)
                self._end_match(tuple(seat for seat in players if scores[seat] == low))
                return
        elif reached:
            left = [seat for seat in players if seat not in reached]
            if not left:
                low = min(scores[seat] for seat in players)
                self._end_match(tuple(seat for seat in players if scores[seat] == low))
                return
            for seat in reached:
                self._eliminate(seat)
            if self._match_decided():
                return
        if self.halt_at_round_end:
            self.phase = HALTED
            return
        dealer = self._next_alive(self.dealer)
        self._deal(dealer, self._next_alive(dealer))


def _points(hand: list[int], busted: bool) -> int:
    """`game.rounds.round_points` for a hand of ints."""
    missing = max(0, HAND_SIZE - len(hand))
    return sum(_HAND_POINTS[c] for c in hand) + 15 * missing + (25 if busted else 0)


def play_greedy(world: World, stop: Callable[[World], bool] | None = None) -> None:
    """Let greedy play every seat until the world stops (match over or halted)."""
    while world.phase <= DISCARDING:
        world.step()
        if stop is not None and stop(world):
            return
