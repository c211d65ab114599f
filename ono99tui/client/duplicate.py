"""A duplicate set as a table tells it (docs/DUPLICATE.md; PROTOCOL.md "lobby"): its
progress (`lobby.options.duplicate_set`) and its comparison (`lobby.results.duplicate`),
decoded once into frozen values. Read strictly, as every lobby field is: a value of the
wrong shape reads as "not said" (None), never as an exception."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class DuplicateProgress:
    """Where the table's set stands: the deal being played (or the last one played; 0
    before the first) of how many."""

    deal: int
    of: int
    complete: bool


@dataclass(frozen=True, slots=True)
class DuplicateScore:
    """One player's comparison: places better than those who held the same cards."""

    name: str
    edge: float
    mean_place: float


@dataclass(frozen=True, slots=True)
class DuplicateHand:
    """One seat's cards across the set: each holder's place, and who played them best."""

    hand: int
    places: tuple[tuple[str, int], ...]
    best: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DuplicateResults:
    """The set compared over the deals played so far (`complete`: all of them)."""

    played: int
    of: int
    complete: bool
    scores: tuple[DuplicateScore, ...]  # best first
    hands: tuple[DuplicateHand, ...]


def _count(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _name(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def progress_from_wire(options: Mapping[str, Any]) -> DuplicateProgress | None:
    """The set's progress in a lobby's options (None: no set, or not readable)."""
    value = options.get("duplicate_set")
    if not isinstance(value, Mapping):
        return None
    deal, of = _count(value.get("deal")), _count(value.get("of"))
    if deal is None or of is None or of < 2 or deal > of:
        return None
    return DuplicateProgress(deal=deal, of=of, complete=value.get("complete") is True)


def results_from_wire(results: Mapping[str, Any]) -> DuplicateResults | None:
    """The set's comparison in a lobby's results (None: none, or not readable)."""
    value = results.get("duplicate")
    if not isinstance(value, Mapping):
        return None
    played, of = _count(value.get("rotations")), _count(value.get("of"))
    raw_scores, raw_hands = value.get("scores"), value.get("hands")
    if (played is None or of is None or not 1 <= played <= of
            or not isinstance(raw_scores, list | tuple) or not isinstance(raw_hands, list | tuple)):
        return None
    scores = []
    for item in raw_scores:
        if not isinstance(item, Mapping):
            return None
        name, edge = _name(item.get("name")), _number(item.get("edge"))
        mean = _number(item.get("mean_place"))
        if name is None or edge is None or mean is None:
            return None
        scores.append(DuplicateScore(name=name, edge=edge, mean_place=mean))
    hands = []
    for item in raw_hands:
        if not isinstance(item, Mapping):
            return None
        hand, places, best = _count(item.get("hand")), item.get("places"), item.get("best")
        if hand is None or not isinstance(places, list | tuple) or not isinstance(
                best, list | tuple) or not all(_name(name) for name in best):
            return None
        held = []
        for pair in places:
            if (not isinstance(pair, list | tuple) or len(pair) != 2 or _name(pair[0]) is None
                    or _count(pair[1]) is None):
                return None
            held.append((str(pair[0]), int(pair[1])))
        hands.append(DuplicateHand(hand=hand, places=tuple(held), best=tuple(best)))
    return DuplicateResults(played=played, of=of, complete=value.get("complete") is True,
                            scores=tuple(scores), hands=tuple(hands))
