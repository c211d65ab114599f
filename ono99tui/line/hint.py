"""A hint in line mode: the bots' advice on the viewer's playable cards, in sentences.

The same search the terminal's hint panel shows (`ono99tui.bots.hints.advise`, from the
player's own view and the public events of the deal): the card it suggests and why, then
each playable card's chances. Slow (a search): the front end calls it on a thread.
"""

from __future__ import annotations

import random

from ono99tui.game import Event, Play, PlayerView
from ono99tui.i18n import _
from ono99tui.words.hints import reason_text
from ono99tui.words.rule_labels import card_label


def hint_lines(view: PlayerView, events: list[Event], budget_s: float) -> list[str]:
    """The hint for `view` in sentences, thinking `budget_s` seconds (slow: on a thread)."""
    from ono99tui.bots.hints import NoAdvice, advise, shown_percent
    from ono99tui.bots.observed import Observed
    from ono99tui.game import Card

    observed = Observed()
    observed.observe(events)
    try:
        advice = advise(view, observed, budget_s=budget_s, rng=random.Random(),
                        first_bust=False)
    except NoAdvice:
        return [_("A hint is for your own turn to play a card.")]

    def name(move: object) -> str:
        if isinstance(move, Play) and move.card in view.hand:
            return _("Card {number}, {card}").format(number=view.hand.index(move.card) + 1,
                                                     card=card_label(Card(move.card), view.rules))
        return _("The swap")

    suggested = name(advice.suggested)
    lines = [_("Hint: {move}.").format(move=suggested[0].lower() + suggested[1:]),
             reason_text(advice.reason, view.rules)]
    for card in advice.cards:
        lines.append(_("{move}: {win}% to win, next player busts {bust}%.").format(
            move=name(card.move), win=shown_percent(card.win),
            bust=shown_percent(card.next_bust)))
    return lines
