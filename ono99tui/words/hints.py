"""A hint's reason in words: the sentence under the suggested card, in the player's language.

The bots say why they suggest a card as values (`ono99tui.bots.hints.Reason`: what kind of
reason, the cards and their chances); this module writes the sentence, one whole sentence
per kind of reason and per thing the chance is of (the match, getting through the round,
beating an opponent), so that each language orders it its own way. The terminal's hint
panel and the line mode both read it.
"""

from __future__ import annotations

from ono99tui.bots.hints import Reason
from ono99tui.game import Card, Move, Play, Rules
from ono99tui.i18n import _
from ono99tui.words.rule_labels import card_label


def move_label(move: Move | None, rules: Rules) -> str:
    """A move as a hint names it: the card's name, or "the swap" (four ONO 99 swapped)."""
    if type(move) is Play:
        return card_label(Card(move.card), rules)
    return _("the swap")


def percent(chance: float) -> str:
    """A chance in whole percents, as the hint shows it ("21%")."""
    return f"{chance:.0%}"


def reason_text(reason: Reason, rules: Rules) -> str:
    """The one line that says why `reason.move` is suggested."""
    fields = {"card": move_label(reason.move, rules), "win": percent(reason.win),
              "other": move_label(reason.runner, rules), "other_win": percent(reason.runner_win),
              "bust": percent(reason.next_bust)}
    return _sentence(reason).format(**fields)


def _sentence(reason: Reason) -> str:
    kind, measures = reason.kind, reason.measures
    if kind == "only":
        return _("{card} is the only card you can play.")
    if kind == "next_bust":
        return _("{card}: the next player busts {bust} of the time.")
    if kind == "biggest":
        return _("{card} is the biggest number that fits ({win}); keep small cards and "
                 "specials for when the total is high.")
    if kind == "clearly":
        if measures == "round":
            return _("{card} gets through the round {win} of the time, clearly more than "
                     "{other} ({other_win}).")
        if measures == "points":
            return _("{card} beats an opponent {win} of the time, clearly more than "
                     "{other} ({other_win}).")
        return _("{card} wins {win} of the time, clearly more than {other} ({other_win}).")
    if kind == "level":
        if measures == "round":
            return _("{card} and {other} both get through the round {win} of the time: "
                     "either will do.")
        if measures == "points":
            return _("{card} and {other} both beat an opponent {win} of the time: either "
                     "will do.")
        return _("{card} and {other} both win {win} of the time: either will do.")
    if kind == "ahead":
        if measures == "round":
            return _("{card} gets through the round {win} of the time, a little more than "
                     "{other} ({other_win}): so small a lead may be chance.")
        if measures == "points":
            return _("{card} beats an opponent {win} of the time, a little more than "
                     "{other} ({other_win}): so small a lead may be chance.")
        return _("{card} wins {win} of the time, a little more than {other} ({other_win}): "
                 "so small a lead may be chance.")
    if measures == "round":
        return _("{card} gets through the round {win} of the time; no other card does "
                 "clearly better.")
    if measures == "points":
        return _("{card} beats an opponent {win} of the time; no other card does clearly "
                 "better.")
    return _("{card} wins {win} of the time; no other card does clearly better.")
