"""Hints for the player at the table: what each playable card is worth, worked out by the
app from the player's own view and the public events it was sent (`bots.hints.advise`,
the hard bot's search), never from anything hidden.

The session's story keeps the events of the current deal as they arrive
(`ono99tui.client.story.SeenEvents`); `work_out_hint` (slow:
run it on a worker thread, never on the UI's) turns a view and those events into a
`Hint`, plain values the hint panel shows. Whether the table allows hints at all is its
`lobby.options.hints` (an honour setting: this app hides its key when it is off).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ono99tui.game import Event, Move, PlayerView

from ono99tui.i18n import N_, _
from ono99tui.words.rule_labels import card_label

# How long the search behind a hint may take (on a worker thread: the table stays live).
HINT_BUDGET_S = 0.3

# What the win chance measures, by scoring (`Advice.measures`), in words.
MEASURES = {
    "match": N_("chance to win the match"),
    "round": N_("chance to get through the round without busting"),
    "points": N_("chance to score less than an opponent this round"),
}


class NoHint(Exception):
    """There is no hint to give now (not the player's turn to play a card); in words."""


@dataclass(frozen=True, slots=True)
class HintRow:
    """One playable card: the key that plays it, its name, the chance to win, the chance
    the next player busts."""

    key: str
    card: str
    win: float
    next_bust: float
    suggested: bool


@dataclass(frozen=True, slots=True)
class Hint:
    """What the hint panel shows: a row per playable card, the suggestion and why."""

    rows: tuple[HintRow, ...]
    suggested: str
    reason: str
    measures: str  # MEASURES' key
    deals: int  # the deals tried per card


def move_name(move: Move, view: PlayerView) -> str:
    """A playable move as the player knows it ("10", "Reverse", "Swap four ONO 99")."""
    from ono99tui.game import Card, Play, SwapFour

    if type(move) is SwapFour:
        return _("Swap four ONO 99")
    assert type(move) is Play
    return card_label(Card(move.card), view.rules)


def move_key(move: Move, view: PlayerView) -> str:
    """The table key that makes `move`: the card's position in the hand ("1"-"4"), or "s"
    for the swap."""
    from ono99tui.game import Play

    if type(move) is Play and move.card in view.hand:
        return str(view.hand.index(move.card) + 1)
    return "s"


def work_out_hint(view: PlayerView, events: Iterable[Event], *,
                  budget_s: float = HINT_BUDGET_S, rng: random.Random | None = None) -> Hint:
    """The hint for `view` from the events seen this deal; NoHint when there is none.
    Slow (the search): call it on a worker thread."""
    from ono99tui.bots.hints import NoAdvice, advise
    from ono99tui.bots.observed import Observed

    observed = Observed()
    observed.observe(list(events))
    try:
        # With 300 ms, play-outs to the end of the match are precise (a card's figure within
        # ±3 points of a 4,000-world reference 96% of the time, docs/BOTS.md) and carry none
        # of the first-bust table's bias (about 2 points a card): a person reads these.
        advice = advise(view, observed, budget_s=budget_s, rng=rng or random.Random(),
                        first_bust=False)
    except NoAdvice:
        raise NoHint(_("A hint is for your own turn to play a card.")) from None
    rows = tuple(HintRow(move_key(card.move, view), move_name(card.move, view), card.win,
                         card.next_bust,
                         card.move == advice.suggested) for card in advice.cards)
    from ono99tui.words.hints import reason_text

    return Hint(rows, move_name(advice.suggested, view), reason_text(advice.reason, view.rules),
                advice.measures,
                advice.samples)
