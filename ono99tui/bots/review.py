"""A coach's review of a finished match: for each of one seat's plays, every card it held
then and the hint engine's chance to win with each; the costliest choices first.

    decisions = decisions_in_replay(steps, seat)      # a journal's match, replayed
    review = review_decisions(decisions, budget_s=REVIEW_BUDGET_S, seed=0)
    for play in review.costliest(): play.view.total, play.move, play.best, play.cost

A `Decision` is what the seat knew when it chose: its own `PlayerView` at that moment, the
public events of the deal so far, and the move it made. The chances come from
`hints.advise` on exactly those, so a review never looks at another seat's cards or the
draw pile, even though a replayed journal holds them: `decisions_in_replay` keeps only the
seat's view and the public events of each step (every engine event is public). A front end
that watched the match from its seat builds the same decisions from the views it was sent
(`client/review_plays.py`).

Only a finished match is reviewed: `decisions_in_replay` refuses steps that do not end the
match (`MatchNotOver`), and so does the client's recorder. The cost of a choice is the best
card's chance minus the played card's (0 when the played card was the best); every card is
played in the same sampled deals (paired samples), so the difference is measured more
precisely than either chance. Deterministic: each decision is searched with its own
generator, seeded from `seed` and its place in the match, and the budget is counted in
model plays (`search.PLAYS_PER_SECOND` converts a time). Slow (a search per play): run it
on a worker thread, never on a table's event loop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ono99tui.bots.hints import CardAdvice, NoAdvice, advise
from ono99tui.bots.observed import Observed
from ono99tui.game import (
    MATCH_OVER,
    Event,
    Move,
    Play,
    PlayerView,
    RoundDealt,
    State,
    SwapFour,
    view,
)
from ono99tui.game.codec import move_from_wire

# The search's budget per play reviewed: the app's hint key's (300 ms of the reference
# machine's model plays, to the end of the match: a card's chance within ±3 points of a
# 4,000-deal reference 96% of the time, docs/BOTS.md).
REVIEW_BUDGET_S = 0.3


class MatchNotOver(ValueError):
    """A review was asked for a match that has not ended: none is given while it is played."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One play the seat made: its view when it chose, the public events of the deal
    before it (from the deal on), and the move."""

    view: PlayerView
    events: tuple[Event, ...]
    move: Move


@dataclass(frozen=True, slots=True)
class ReviewedPlay:
    """One reviewed play: where it came in the seat's plays (from 0), its position, every
    card's chance, the move played and the best one, and the cost (in chance, 0 to 1)."""

    number: int
    view: PlayerView
    move: Move
    cards: tuple[CardAdvice, ...]
    best: Move
    cost: float
    measures: str  # as hints.Advice.measures: "match", "round" or "points"

    @property
    def played(self) -> CardAdvice:
        """The played card's figures."""
        return next(card for card in self.cards if card.move == self.move)

    @property
    def best_card(self) -> CardAdvice:
        """The best card's figures."""
        return next(card for card in self.cards if card.move == self.best)


@dataclass(frozen=True, slots=True)
class Review:
    """Every reviewed play of one seat, in the order played; `skipped`: plays with no
    choice (one card, or every card the same)."""

    seat: int
    plays: tuple[ReviewedPlay, ...]
    skipped: int

    def costliest(self, limit: int | None = None) -> list[ReviewedPlay]:
        """The plays that cost something, costliest first (earlier first among equals)."""
        costly = sorted((play for play in self.plays if play.cost > 0),
                        key=lambda play: (-play.cost, play.number))
        return costly if limit is None else costly[:limit]

    @property
    def total_cost(self) -> float:
        """The chance given away over the match, summed."""
        return sum(play.cost for play in self.plays)


class StepLike(Protocol):
    """A replayed step (`host.journal.history.ReplayStep`): the seat that moved, its move's
    wire map, the events it caused and the state after it."""

    @property
    def seat(self) -> int | None: ...
    @property
    def move(self) -> dict[str, Any] | None: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    @property
    def state(self) -> State: ...


def decisions_in_replay(steps: Sequence[StepLike], seat: int) -> list[Decision]:
    """The plays (cards and swaps) `seat` made in a finished, replayed match, each with the
    seat's own view before it and the public events of that deal so far. Raises
    MatchNotOver unless the steps end the match, ValueError for a seat not at the table."""
    if not steps or steps[-1].state.phase != MATCH_OVER:
        raise MatchNotOver("the match is not over: a review comes once it has ended")
    if not 0 <= seat < steps[0].state.seats:
        raise ValueError(f"seat {seat!r} is not a seat of this match")
    decisions: list[Decision] = []
    deal: list[Event] = []
    before: State | None = None
    for step in steps:
        wire = step.move
        if before is not None and wire is not None and step.seat == seat:
            move = _move(wire)
            if type(move) is Play or type(move) is SwapFour:
                decisions.append(Decision(view(before, seat), tuple(deal), move))
        for event in step.events:
            if type(event) is RoundDealt:
                deal.clear()
            deal.append(event)
        before = step.state
    return decisions


def _move(wire: dict[str, Any]) -> Move | None:
    try:
        return move_from_wire(wire)
    except (ValueError, KeyError, TypeError):
        return None  # a resignation's record: no card was chosen


def review_decision(decision: Decision, number: int, *, budget_s: float = REVIEW_BUDGET_S,
                    seed: int = 0, worlds: int | None = None) -> ReviewedPlay | None:
    """One play reviewed (None when it left no choice: one card, or the hint engine has no
    advice for that view). `worlds` deals exactly that many worlds instead of spending
    `budget_s` (a reference)."""
    seen = decision.view
    plays = {move for move in seen.legal_moves if type(move) in (Play, SwapFour)}
    if len(plays) < 2 or decision.move not in plays:
        return None
    observed = Observed()
    observed.observe(decision.events)
    try:
        advice = advise(seen, observed, budget_s=budget_s, rng=_rng(seed, number),
                        worlds=worlds, first_bust=False)
    except NoAdvice:
        return None
    played = next(card for card in advice.cards if card.move == decision.move)
    best = max(advice.cards, key=lambda card: card.win)
    if best.win <= played.win:
        best = played  # the card played was (one of) the best
    return ReviewedPlay(number, seen, decision.move, advice.cards, best.move,
                        best.win - played.win, advice.measures)


def _rng(seed: int, number: int) -> random.Random:
    # One generator per play, from the seed and the play's place: the same figures whether
    # the review runs whole, in parts or in another order.
    return random.Random(f"ono99-review:{seed}:{number}")


def review_decisions(decisions: Iterable[Decision], *, seat: int | None = None,
                     budget_s: float = REVIEW_BUDGET_S, seed: int = 0,
                     worlds: int | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     cancelled: Callable[[], bool] | None = None) -> Review:
    """Review every decision (slow: a search each). `progress(done, of)` after each;
    `cancelled()` is asked before each and stops the review early (what is done so far
    is returned)."""
    chosen = list(decisions)
    if seat is None:
        seat = chosen[0].view.seat if chosen and chosen[0].view.seat is not None else 0
    plays: list[ReviewedPlay] = []
    skipped = 0
    for number, decision in enumerate(chosen):
        if cancelled is not None and cancelled():
            break
        reviewed = review_decision(decision, number, budget_s=budget_s, seed=seed,
                                   worlds=worlds)
        if reviewed is None:
            skipped += 1
        else:
            plays.append(reviewed)
        if progress is not None:
            progress(number + 1, len(chosen))
    return Review(seat, tuple(plays), skipped)
