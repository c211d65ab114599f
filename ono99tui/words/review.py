"""A coach's review in words (`bots/review.py`'s figures), shared by the app's review
screen, `ono99 replay --review` and line mode's `review` command.

Whole sentences through `ono99tui.i18n`, with named placeholders and plural forms where a
number of points or plays is said: "At 84 you played 10; 7 kept you 12 percentage points
more likely to win." (Percentage points of chance, said so: "12 points" read like a
points match's score.)
"""

from __future__ import annotations

from collections.abc import Sequence

from ono99tui.bots.hints import shown_percent
from ono99tui.bots.review import Review, ReviewedPlay
from ono99tui.game import Move, Play, PlayerView
from ono99tui.i18n import _, ngettext
from ono99tui.words.rule_labels import card_label

# Choices closer than this (in chance, 0 to 1) are not listed: at a point or less, the
# deals tried cannot tell the cards apart.
SHOWN_COST = 0.01


def move_label(move: Move, view: PlayerView) -> str:
    """A play as the player knows it: the card ("10", "Reverse") or the swap."""
    if type(move) is Play:
        return card_label(move.card, view.rules)
    return _("the swap of four ONO 99")


def hand_text(view: PlayerView) -> str:
    """The hand as it was, cards apart by two spaces."""
    return "  ".join(card_label(card, view.rules) for card in view.hand)


def cost_points(play: ReviewedPlay) -> int:
    """The cost in whole points of chance, as a person reads it."""
    return shown_percent(play.best_card.win) - shown_percent(play.played.win)


def listed(review: Review) -> list[ReviewedPlay]:
    """The choices worth telling, costliest first as the points are said (then by the
    unrounded cost): those that cost a point or more."""
    worth = [play for play in review.costliest() if play.cost >= SHOWN_COST
             and cost_points(play) >= 1]
    return sorted(worth, key=lambda play: -cost_points(play))  # stable: costliest() order


def play_sentence(play: ReviewedPlay) -> str:
    """"At 84 you played 10; 7 kept you 12 percentage points more likely to win." """
    seen = play.view
    points = max(1, cost_points(play))
    values = {"total": seen.total, "played": move_label(play.move, seen),
              "better": move_label(play.best, seen), "points": points}
    if play.measures == "round":
        return ngettext(
            "At {total} you played {played}; {better} kept you {points} percentage point "
            "more likely to get through the round.",
            "At {total} you played {played}; {better} kept you {points} percentage points "
            "more likely to get through the round.", points).format(**values)
    if play.measures == "points":
        return ngettext(
            "At {total} you played {played}; {better} kept you {points} percentage point "
            "more likely to score less than an opponent this round.",
            "At {total} you played {played}; {better} kept you {points} percentage points "
            "more likely to score less than an opponent this round.", points).format(**values)
    return ngettext(
        "At {total} you played {played}; {better} kept you {points} percentage point "
        "more likely to win.",
        "At {total} you played {played}; {better} kept you {points} percentage points "
        "more likely to win.", points).format(**values)


def position_sentence(play: ReviewedPlay) -> str:
    """The position as it was: "Round 2, total 84 of 99; you held 10, 7, 2, -10." """
    seen = play.view
    return _("Round {round}, total {total} of {limit}; you held {hand}.").format(
        round=seen.round_no, total=seen.total, limit=seen.bust_at,
        hand=", ".join(card_label(card, seen.rules) for card in seen.hand))


def chances_sentence(play: ReviewedPlay) -> str:
    """Every card's chance: "Chances: 10 38%, 7 50%, 2 41%." """
    seen = play.view
    cards = ", ".join(
        _("{card} {chance}%").format(card=move_label(card.move, seen),
                                     chance=shown_percent(card.win))
        for card in play.cards)
    return _("Chances: {cards}.").format(cards=cards)


def summary_sentence(review: Review) -> str:
    """How many plays were looked at and how many cost a percentage point or more."""
    looked = len(review.plays)
    costly = len(listed(review))
    if looked == 0:
        return _("None of your plays left a choice: there is nothing to review.")
    if costly == 0:
        return ngettext("Of your {looked} play with a choice, none cost you a percentage "
                        "point: well played.",
                        "Of your {looked} plays with a choice, none cost you a percentage "
                        "point: well played.", looked).format(looked=looked)
    return ngettext("Of your {looked} plays with a choice, {costly} cost you a percentage "
                    "point or more; the costliest first.",
                    "Of your {looked} plays with a choice, {costly} cost you a percentage "
                    "point or more; the costliest first.", costly).format(looked=looked,
                                                                          costly=costly)


def progress_sentence(done: int, of: int) -> str:
    """"Reviewing your plays: 4 of 13..." """
    return _("Reviewing your plays: {done} of {total}...").format(done=done, total=of)


def review_lines(review: Review, limit: int | None = None) -> list[str]:
    """The review as sentences (line mode, `ono99 replay --review`): the summary, then each
    costly choice with its position and every card's chance."""
    lines = [summary_sentence(review)]
    for play in listed(review)[:limit]:
        lines.append(f"{play_sentence(play)} {position_sentence(play)} "
                     f"{chances_sentence(play)}")
    return lines


def measure_note(measures: Sequence[str]) -> str:
    """What the chances are chances of, as the hint panel says."""
    if "round" in measures:
        return _("Chances: to get through the round without busting, from your own cards "
                 "and what was played.")
    if "points" in measures:
        return _("Chances: to score less than an opponent this round, from your own cards "
                 "and what was played.")
    return _("Chances: to win the match, from your own cards and what was played then.")
