"""Shared test helpers for the engine: play-outs and the invariants checked after every move.

Positions for hand-counted tests are built with `ono99tui.game.position(...)` (see its
docstring); this module only drives whole matches.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from ono99tui.bots import make_bot
from ono99tui.game import (
    MATCH_OVER,
    Busted,
    Card,
    Eliminated,
    Event,
    Move,
    Played,
    Resigned,
    RoundDealt,
    RoundEnded,
    Rules,
    State,
    SwappedFour,
    TokenLost,
    acting_seats,
    apply,
    deck,
    legal_moves,
    resign,
    start_match,
    view,
)


def cards_in_play(state: State) -> list[Card]:
    """Every card in hands, the draw pile and the discard pile, sorted."""
    cards = list(state.draw_cards)
    cards += state.discard_pile
    for hand in state.hands:
        cards += hand
    cards.sort()
    return cards


class InvariantChecker:
    """Follows one match move by move and asserts the rules' invariants after each."""

    def __init__(self, state: State, opening: tuple[Event, ...]) -> None:
        self.rules: Rules = state.rules
        self.deck = sorted(deck(state.rules))
        self.previous = state
        self.consecutive = 0
        self.last_player: int | None = None
        self.scores = [0] * state.seats
        self.token_losses = [0] * state.seats
        self.resigned: set[int] = set()
        self.check(state, opening)

    def check(self, state: State, events: tuple[Event, ...], move: Move | None = None) -> None:
        rules = self.rules
        previous = self.previous
        # The cards always add up to the deck.
        assert cards_in_play(state) == self.deck
        # The total stays within the limits.
        assert state.total < rules.bust_at
        if not rules.negative_totals:
            assert state.total >= 0
        # Hands never exceed four cards.
        assert all(len(hand) <= 4 for hand in state.hands)
        # Obligations: at most two cards, and only while obligated.
        assert state.owed in (1, 2)
        assert state.owed == 1 or state.obligated
        # Acting seats: alive, in the round (or the buster discarding), each with a legal
        # move; every other seat has none.
        acting = acting_seats(state)
        for seat in range(state.seats):
            if seat in acting:
                assert state.alive[seat], (seat, state)
                assert state.in_round[seat] or state.discarding == seat, (seat, state)
                assert legal_moves(state, seat), (seat, state)
            else:
                assert legal_moves(state, seat) == ()
        if move is not None:
            assert previous.alive[move.seat], "an eliminated seat acted"
            assert move.seat not in self.resigned, "a resigned seat acted"
        # Tokens and scores only move the way the rules say.
        for event in events:
            if isinstance(event, (Played, SwappedFour)):
                if event.seat == self.last_player:
                    self.consecutive += 1
                else:
                    self.consecutive = 1
                self.last_player = event.seat
                # A seat plays at most two cards in a row (a Play 2 obligation).
                assert self.consecutive <= 2, events
            elif isinstance(event, RoundDealt):
                self.last_player = None
            elif isinstance(event, RoundEnded):
                for seat, points in enumerate(event.points):
                    assert points >= 0
                    self.scores[seat] += points
                assert list(event.scores) == self.scores
            elif isinstance(event, TokenLost):
                self.token_losses[event.seat] += 1
            elif isinstance(event, Resigned):
                # Only a seat still in the match resigns, and it is eliminated at once.
                assert previous.alive[event.seat] and not state.alive[event.seat]
                assert Eliminated(event.seat, event_hand(events, event.seat)) in events
                self.resigned.add(event.seat)
            elif isinstance(event, Eliminated) and event.seat in self.resigned:
                if rules.reveal_eliminated:
                    assert event.hand is not None
            elif isinstance(event, Eliminated):
                if rules.scoring == "tokens":
                    assert self.token_losses[event.seat] == rules.tokens
                if rules.scoring == "points-elimination":
                    assert state.scores[event.seat] >= rules.target
                if rules.reveal_eliminated and rules.scoring in ("single", "tokens"):
                    assert event.hand is not None
            elif isinstance(event, Busted):
                # Only a seat that was in the round can bust.
                assert previous.in_round[event.seat] or any(
                    isinstance(e, RoundDealt) for e in events
                )
        assert list(state.scores) == self.scores
        assert all(
            tokens == rules.tokens - lost for tokens, lost in zip(state.tokens, self.token_losses, strict=True)
        )
        assert all(t >= 0 for t in state.tokens)
        if state.phase == MATCH_OVER:
            self.check_end(state)
        else:
            assert sum(state.alive) >= 2
            assert state.winners == ()
        self.previous = state

    def check_end(self, state: State) -> None:
        rules = self.rules
        assert state.winners
        assert acting_seats(state) == ()
        assert not self.resigned & set(state.winners), "a resigned seat won"
        if self.resigned and sum(state.alive) == 1:
            # The others resigned or were eliminated: the last seat in the match wins.
            assert [seat for seat, on in enumerate(state.alive) if on] == list(state.winners)
            return
        if rules.scoring in ("single", "tokens"):
            assert len(state.winners) == 1
            assert [seat for seat, on in enumerate(state.alive) if on] == list(state.winners)
        else:
            players = [seat for seat, on in enumerate(state.alive) if on]
            low = min(state.scores[seat] for seat in players)
            if len(state.winners) > 1 or rules.scoring == "points-lowest":
                # Shared wins only between equal lowest scores.
                assert all(state.scores[seat] == low for seat in state.winners)
                assert any(state.scores[seat] >= rules.target for seat in players)
            else:
                assert state.scores[state.winners[0]] == low


def event_hand(events: tuple[Event, ...], seat: int) -> tuple[Card, ...] | None:
    """The hand the Eliminated event of `seat` among `events` revealed."""
    return next(e.hand for e in events if isinstance(e, Eliminated) and e.seat == seat)


Chooser = Callable[[State, int, random.Random], Move]


def bot_chooser(names: tuple[str, ...]) -> Chooser:
    """Seat i plays with bot names[i % len(names)], through its view only."""
    bots = [make_bot(name) for name in names]

    def choose(state: State, seat: int, rng: random.Random) -> Move:
        return bots[seat % len(bots)].choose(view(state, seat), rng)

    return choose


def play_match(
    rules: Rules,
    seats: int,
    seed: int,
    choose: Chooser,
    check: bool = True,
    max_moves: int = 200_000,
    resign_chance: float = 0.0,
) -> Iterator[tuple[State, tuple[Event, ...], Move | None]]:
    """Yield (state, events, move) after the deal and after every move of one match.

    With `resign_chance`, before each move a random seat still in the match resigns with
    that probability (the move is then None), from a generator of its own.
    The engine draws from `random.Random(seed)` only; the bots have their own generator,
    so the match replays from the seed and the move list alone.
    """
    rng = random.Random(seed)
    bot_rng = random.Random(seed + 1)
    resign_rng = random.Random(seed + 2)
    state, events = start_match(rules, seats, rng)
    checker = InvariantChecker(state, events) if check else None
    yield state, events, None
    for _ in range(max_moves):
        if state.phase == MATCH_OVER:
            return
        if resign_chance and resign_rng.random() < resign_chance:
            leaver = resign_rng.choice([seat for seat, on in enumerate(state.alive) if on])
            state, events = resign(state, leaver, rng)
            if checker is not None:
                checker.check(state, events)
            yield state, events, None
            continue
        # Any acting seat may move first: with the late-draw rule the next player sometimes
        # plays before the last one drew (a missed draw), sometimes not.
        acting = acting_seats(state)
        seat = acting[0] if len(acting) == 1 else bot_rng.choice(acting)
        move = choose(state, seat, bot_rng)
        state, events = apply(state, move, rng)
        if checker is not None:
            checker.check(state, events, move)
        yield state, events, move
    raise AssertionError("the match did not end")


def final_state(
    rules: Rules,
    seats: int,
    seed: int,
    names: tuple[str, ...] = ("random",),
    resign_chance: float = 0.0,
) -> State:
    """Play a match to its end (with invariant checks) and return the last state."""
    state = None
    matches = play_match(rules, seats, seed, bot_chooser(names), resign_chance=resign_chance)
    for step in matches:
        state = step[0]  # the last step's state is the match's end
    assert state is not None
    return state
