"""Hints for people: how each playable card fares, and which to play.

    advice = advise(view, observed, rng=random.Random(seed))  # budget_s=HINT_BUDGET_S
    for card in advice.cards: card.move, card.win, card.next_bust
    advice.suggested, advice.reason  # a Reason: ono99tui.words.hints puts it into words

The same search as the hard bot (`search.evaluate`) from the asking seat's view and the
public events it observed: it never looks at hidden cards. `win` is the chance to win the
match in single scoring (2022), and the chance to get through the round without busting
(tokens) or to score less than an opponent (points) in the round-based modes, as
`Advice.measures` says. The suggestion is a card with the highest chance as shown (whole
percents): the hard bot's choice (greedy's card unless another is significantly better)
where it shows as high as any, else the one that shows highest, and the reason then says
the lead may be chance. Deterministic given `rng` (the budget is counted in model plays).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from ono99tui.bots.greedy import GreedyBot
from ono99tui.bots.hard import move_code
from ono99tui.bots.observed import Observed
from ono99tui.bots.playout import SINGLE, TOKENS, table_for
from ono99tui.bots.search import MAX_WORLDS, MIN_WORLDS, PLAYS_PER_SECOND, evaluate
from ono99tui.bots.worlds import InconsistentView
from ono99tui.game import Card, Move, Play, PlayerView

# The advice's budget: the hard bot's (4,050 budget units). All cards are played in every
# world (no pruning), so its CPU per advice runs above the budget: p50 10-13 ms, p99 14-20
# ms on the team machine (bench/bots.py --only hints).
HINT_BUDGET_S = 0.010


# Why the suggested card (see `_reason`).
Why = Literal["clearly", "greedy", "ahead"]
# The kinds of reason a hint gives (`Reason.kind`), each one sentence in `ono99tui.words.hints`.
ReasonKind = Literal["only", "clearly", "level", "ahead", "next_bust", "biggest", "no_better"]


@dataclass(frozen=True, slots=True)
class Reason:
    """Why the suggested card, as values: the front ends put it into words
    (`ono99tui.words.hints.reason_text`), in the player's language.

    `only`: the one card that can be played; `clearly`: the search found it clearly better
    than greedy's card (`runner`, the best of the others); `level`: it and `runner` show the
    same chance; `ahead`: it shows a higher chance than `runner` by less than the deals tried
    can tell apart; `next_bust`: greedy's card, after which the next player busts
    `next_bust` of the time; `biggest`: greedy's card, the biggest number that fits;
    `no_better`: greedy's card, and no other does clearly better. `measures` as in
    `Advice.measures`.
    """

    kind: ReasonKind
    move: Move
    win: float
    measures: str
    runner: Move | None = None
    runner_win: float = 0.0
    next_bust: float = 0.0


class NoAdvice(ValueError):
    """There is nothing to advise: not this seat's play, or a view the model cannot use."""


@dataclass(frozen=True, slots=True)
class CardAdvice:
    """One playable card (or the four-ONO-99 swap) and how it fared."""

    move: Move
    win: float  # chance to win (see Advice.measures)
    next_bust: float  # chance the next player busts at once
    samples: int


@dataclass(frozen=True, slots=True)
class Advice:
    """Every playable card's chances, the suggested move and why (as values)."""

    cards: tuple[CardAdvice, ...]
    suggested: Move
    reason: Reason
    measures: str  # "match" (win the match), "round" (get through the round), "points"
    samples: int  # worlds dealt per card


def advise(
    view: PlayerView,
    observed: Observed,
    *,
    budget_s: float = HINT_BUDGET_S,
    rng: random.Random,
    worlds: int | None = None,
    first_bust: bool = True,
) -> Advice:
    """Per playable card: win chance and next-player-bust chance; the suggested card and
    why. `worlds` deals exactly that many worlds instead of spending `budget_s` (a
    reference for measuring the budgeted figures); `first_bust` as in `search.evaluate`.
    Raises NoAdvice when the view's seat has no play to choose now."""
    plays = [m for m in view.legal_moves if move_code(m) is not None]
    if not plays or view.seat is None or view.turn != view.seat or view.discarding is not None:
        raise NoAdvice("there is no play to choose now")
    greedy_code = move_code(GreedyBot().choose(view, rng))
    codes = [code for code in map(move_code, plays) if code is not None]
    if greedy_code is None:  # greedy would draw first (late-draw rule): compare the plays
        greedy_code = codes[0]
    try:
        result = evaluate(
            view,
            observed,
            codes,
            greedy_code,
            rng,
            int(budget_s * PLAYS_PER_SECOND),
            prune=False,  # every card's chances are shown: none is dropped early
            first_bust=first_bust,
            min_worlds=MIN_WORLDS if worlds is None else worlds,
            max_worlds=MAX_WORLDS if worlds is None else worlds,
        )
    except InconsistentView as error:
        raise NoAdvice(str(error)) from None
    cards = tuple(
        CardAdvice(plays[i], s.value, s.next_bust, s.samples) for i, s in enumerate(result.cards)
    )
    chosen_at = codes.index(result.chosen)
    suggested_at = highest_shown(cards, chosen_at)
    scoring = table_for(view.rules).scoring
    measures = "match" if scoring == SINGLE else "round" if scoring == TOKENS else "points"
    why: Why = ("ahead" if suggested_at != chosen_at
                else "clearly" if result.chosen != result.greedy else "greedy")
    reason = _reason(cards, suggested_at, why, measures)
    return Advice(cards, plays[suggested_at], reason, measures, result.worlds)


def shown_percent(win: float) -> int:
    """A chance as a person reads it: whole percents, rounded as the hint shows them."""
    return int(f"{win:.0%}".removesuffix("%"))


def highest_shown(cards: tuple[CardAdvice, ...], preferred: int) -> int:
    """The card to suggest: one with the highest chance as shown (a person who reads "6 22%"
    under "Suggested: 10 (21%)" is told two things); among those equal to the eye, the
    search's own choice (`preferred`), else the first."""
    top = max(shown_percent(card.win) for card in cards)
    if shown_percent(cards[preferred].win) == top:
        return preferred
    return next(i for i, card in enumerate(cards) if shown_percent(card.win) == top)


def _reason(cards: tuple[CardAdvice, ...], at: int, why: Why, measures: str) -> Reason:
    """Why the suggested card: the search found it `clearly` better than greedy's card, or
    it is greedy's card and no other is, or it shows the highest chance (`ahead`) by less
    than the deals tried can tell apart."""
    best = cards[at]
    if len(cards) == 1:
        return Reason("only", best.move, best.win, measures)
    others = [c for i, c in enumerate(cards) if i != at]
    runner = max(others, key=lambda c: c.win)
    if why == "clearly":
        return Reason("clearly", best.move, best.win, measures, runner.move, runner.win)
    if why == "ahead":
        kind: ReasonKind = ("level" if shown_percent(runner.win) == shown_percent(best.win)
                            else "ahead")
        return Reason(kind, best.move, best.win, measures, runner.move, runner.win)
    if best.next_bust >= 0.25 and best.next_bust >= max(c.next_bust for c in others):
        return Reason("next_bust", best.move, best.win, measures, next_bust=best.next_bust)
    if type(best.move) is Play and best.move.card <= Card.TEN:
        return Reason("biggest", best.move, best.win, measures)
    return Reason("no_better", best.move, best.win, measures)
