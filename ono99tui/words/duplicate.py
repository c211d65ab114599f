"""A duplicate set in words (docs/DUPLICATE.md), shared by the app's match-over dialog and
waiting room and by line mode: the set's progress, its comparison as sentences, and the
rows of its results table. Every sentence goes through `ono99tui.i18n` whole."""

from __future__ import annotations

from ono99tui.client.duplicate import DuplicateProgress, DuplicateResults
from ono99tui.i18n import _


def edge_text(edge: float) -> str:
    """An edge as a signed number of places: "+1.50", "-0.50", "0.00"."""
    return "0.00" if round(edge, 2) == 0 else f"{edge:+.2f}"


def progress_text(progress: DuplicateProgress, *, playing: bool) -> str:
    """"Duplicate set: deal 2 of 4." (`playing`: the deal is being played; else the last
    one played, or, before the first, the set to come)."""
    if playing:
        return _("Duplicate set: deal {deal} of {of}.").format(deal=progress.deal,
                                                              of=progress.of)
    if progress.complete:
        return _("Duplicate set: all {of} deals played.").format(of=progress.of)
    if progress.deal == 0:
        return _("Duplicate set: {of} deals to play.").format(of=progress.of)
    return _("Duplicate set: deal {deal} of {of} played.").format(deal=progress.deal,
                                                                 of=progress.of)


def results_title(results: DuplicateResults) -> str:
    """The heading of the set's comparison."""
    if results.complete:
        return _("Duplicate set over: each player against those who held the same cards")
    return _("Duplicate set, {played} of {of} deals: against those who held the same "
             "cards").format(played=results.played, of=results.of)


def score_rows(results: DuplicateResults) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The comparison's header and rows, best first: place, player, edge, mean place."""
    header: tuple[str, ...] = (_("Player"), _("Edge"), _("Mean place"))
    rows: list[tuple[str, ...]] = [
        (f"{rank}. {score.name}", edge_text(score.edge), f"{score.mean_place:.2f}")
        for rank, score in zip(ranks(results), results.scores, strict=True)]
    return header, rows


def ranks(results: DuplicateResults) -> list[int]:
    """Each score's rank, best first; equal edges share one (1, 1, 3)."""
    edges = [round(score.edge, 4) for score in results.scores]
    return [1 + sum(other > edge for other in edges) for edge in edges]


def compared(results: DuplicateResults) -> bool:
    """Has any seat's cards been held by two players yet? Until then (the set's first
    deal) there is nothing to compare: every edge is 0 and each holder the "best"."""
    return any(len(hand.places) > 1 for hand in results.hands)


def not_yet_compared() -> str:
    """What the set says after its first deal, in place of a comparison of one."""
    return _("The comparison begins with the next deal, when other players hold the same "
             "cards.")


def best_lines(results: DuplicateResults) -> list[str]:
    """Who played each seat's cards best: "Seat 1's cards: best played by ana." (only
    cards more than one player has held)."""
    return [_("Seat {seat}'s cards: best played by {names}.").format(
        seat=hand.hand + 1, names=", ".join(hand.best))
        for hand in results.hands if hand.best and len(hand.places) > 1]


def comparison_sentences(results: DuplicateResults) -> list[str]:
    """The set's comparison as line mode says it: the heading, the order with the edges,
    and who played each seat's cards best."""
    if not compared(results):
        return [results_title(results) + ":", not_yet_compared()]
    order = ", ".join(f"{rank}. {score.name} {edge_text(score.edge)}"
                      for rank, score in zip(ranks(results), results.scores, strict=True))
    return [results_title(results) + ":",
            _("Edges, in places: {order}.").format(order=order), *best_lines(results)]
