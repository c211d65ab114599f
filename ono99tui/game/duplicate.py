"""Duplicate play: one deal played once per seat rotation, scored by comparison.

A duplicate *set* for N players is N matches ("rotations") of the same deals. The deals
are fixed by the set's seed (`DuplicateRandom`); what rotates is who sits where: in
rotation k, seat s is played by the set's player number (s - k) mod N
(`rotation_seating`), so over the set every player holds every seat's cards, against
the same cards in the other seats, once. Each player is then compared only with those
who held the same cards (`compare`): at each seat ("hand"), their finishing place
against the mean place of the other holders. docs/DUPLICATE.md states it in full.

Pure like the rest of the engine: standard library only, every random choice from the
set's seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ono99tui.game.events import Event
from ono99tui.game.finish import elimination_groups
from ono99tui.game.state import State

T = TypeVar("T")


class DuplicateRandom(random.Random):
    """The engine's generator for a match of a duplicate set.

    Seeded with the set's seed; at every deal the engine reseeds it for that round
    (`for_round`), so round r's deck is shuffled the same in every rotation of the set
    whatever was played before, and the engine deals it by seat number rather than from
    the dealer's left (`rounds.deal`), so the same seat gets the same cards. Reshuffles of
    the discard pile within a round go on from that round's generator. A match replays
    exactly from `DuplicateRandom(seed)` and its moves, as any match does from its seed.
    """

    def __init__(self, set_seed: int) -> None:
        if type(set_seed) is not int:
            raise TypeError(f"a duplicate set's seed is an int, not {set_seed!r}")
        self.set_seed = set_seed
        super().__init__(set_seed)

    def for_round(self, round_no: int) -> None:
        """Reseed for the deal of round `round_no` (1 for the first)."""
        self.seed(f"ono99-duplicate:{self.set_seed}:{round_no}", version=2)


def match_rng(seed: int, *, duplicate: bool = False) -> random.Random:
    """The engine's generator of a match dealt from `seed`: a plain `random.Random`, or
    a `DuplicateRandom` for a match of a duplicate set."""
    return DuplicateRandom(seed) if duplicate else random.Random(seed)


def rotation_seating(players: Sequence[T], rotation: int) -> tuple[T, ...]:
    """Who sits in each seat in rotation `rotation` (0-based) of a set of `players`
    (in the set's order): seat s gets players[(s - rotation) % N]."""
    n = len(players)
    if n < 1:
        raise ValueError("a duplicate set needs players")
    if type(rotation) is not int or not 0 <= rotation < n:
        raise ValueError(f"a set of {n} players has rotations 0 to {n - 1}, not {rotation!r}")
    return tuple(players[(seat - rotation) % n] for seat in range(n))


def hand_of(player: int, rotation: int, players: int) -> int:
    """The seat (the "hand") the set's player number `player` holds in `rotation`."""
    return (player + rotation) % players


class PlaceTracker:
    """Follows one match's events (in order, one `observe` per batch the engine returned)
    and gives every seat's finishing place at its end (`places`).

    Seats go out in the order the events tell, grouped as the ratings group them
    (`game.finish.elimination_groups`: eliminations with nothing between them went out
    together, as points players who reach the target in one round); a bust that follows
    another within one move (the next seat could not play either) went out later."""

    __slots__ = ("_told",)

    def __init__(self) -> None:
        self._told: list[tuple[str, int | None]] = []

    def observe(self, events: Iterable[Event]) -> None:
        """One batch of events (a deal, a move's, a resignation's)."""
        told = self._told
        told.append(("", None))  # a new batch: nothing in it went out with the last one
        for event in events:
            told.append((event.kind, getattr(event, "seat", None)))

    def places(self, state: State) -> tuple[int, ...]:
        """Each seat's place (1 = best) in the finished match `state`."""
        groups = elimination_groups(self._told)
        return finishing_places(state, {seat: moment for moment, group in enumerate(groups)
                                        for seat in group})


def finishing_places(state: State, out_at: dict[int, int]) -> tuple[int, ...]:
    """Each seat's place at the end of a match: 1 plus the number of seats that did
    strictly better. A winner beats everyone else; among the others, a seat that stayed in
    the match longer (`out_at`: the moment each left it, absent for none) did better, and
    seats that left at the same moment (or stayed to the end without winning) are told
    apart by their score, lower being better (points scoring; elsewhere scores are 0)."""
    seats = state.seats
    winners = set(state.winners)
    never = max(out_at.values(), default=0) + 1
    keys = [(seat in winners, out_at.get(seat, never), -state.scores[seat])
            for seat in range(seats)]
    return tuple(1 + sum(other > key for other in keys) for key in keys)


@dataclass(frozen=True, slots=True)
class HandResult:
    """One seat's cards ("hand") across the set: each holder's place, and the best."""

    hand: int
    places: tuple[tuple[str, int], ...]  # (player, place) in the order the rotations played
    best: tuple[str, ...]  # the holders with the best place (ties: all of them)


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's comparison over the set."""

    name: str
    edge: float  # the sum over the hands held of (others' mean place - own place)
    edges: tuple[float, ...]  # per hand (seat number), 0 where nobody else held it
    mean_place: float


@dataclass(frozen=True, slots=True)
class Comparison:
    """A duplicate set's results: the hands, and the players best first."""

    players: tuple[str, ...]  # the set's players, in the set's order
    rotations: int  # rotations played (N for a complete set)
    complete: bool
    hands: tuple[HandResult, ...]
    scores: tuple[PlayerScore, ...]  # best edge first (ties in the set's order)

    def order(self) -> tuple[tuple[str, ...], ...]:
        """The players best first, grouped where their edges tie: the set's finishing
        order, for a rating by finishing order (issue 28's ratings)."""
        return comparison_order(self)


def compare(players: Sequence[str], places: Sequence[Sequence[int]]) -> Comparison:
    """Compare the players of a set from each rotation's places (`places[k][s]`: the
    place of seat s in rotation k), rotations played in order from 0."""
    names = tuple(players)
    n = len(names)
    if n < 2 or len(set(names)) != n:
        raise ValueError("a duplicate set needs two or more players with distinct names")
    if not 1 <= len(places) <= n:
        raise ValueError(f"a set of {n} players has 1 to {n} rotations, not {len(places)}")
    for row in places:
        if len(row) != n or not all(type(p) is int and 1 <= p <= n for p in row):
            raise ValueError(f"each rotation gives a place from 1 to {n} to each of {n} seats")
    held: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # per hand: (player, place)
    for rotation, row in enumerate(places):
        for seat, place in enumerate(row):
            held[seat].append(((seat - rotation) % n, place))
    edges = [[0.0] * n for _ in range(n)]
    own_places: list[list[int]] = [[] for _ in range(n)]
    hands = []
    for seat, holders in enumerate(held):
        for player, place in holders:
            own_places[player].append(place)
            others = [other for who, other in holders if who != player]
            if others:
                edges[player][seat] = sum(others) / len(others) - place
        top = min(place for _, place in holders)
        hands.append(HandResult(
            hand=seat, places=tuple((names[player], place) for player, place in holders),
            best=tuple(names[player] for player, place in holders if place == top)))
    scores = [PlayerScore(name=names[p], edge=sum(edges[p]), edges=tuple(edges[p]),
                          mean_place=sum(own_places[p]) / len(own_places[p]))
              for p in range(n)]
    scores.sort(key=lambda score: -round(score.edge, 9))
    return Comparison(players=names, rotations=len(places), complete=len(places) == n,
                      hands=tuple(hands), scores=tuple(scores))


def comparison_order(comparison: Comparison) -> tuple[tuple[str, ...], ...]:
    """The set's players best first, in groups of equal edge (rounded to 1e-9)."""
    groups: list[list[str]] = []
    last: float | None = None
    for score in comparison.scores:
        edge = round(score.edge, 9)
        if last is None or edge != last:
            groups.append([])
            last = edge
        groups[-1].append(score.name)
    return tuple(tuple(group) for group in groups)

