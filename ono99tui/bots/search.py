"""Determinized Monte-Carlo over the play-out model: how each candidate play fares.

`evaluate` deals worlds the seat cannot tell from the real one (`worlds.sample_world`),
plays each candidate in every world and lets greedy play everybody on to the horizon:

- single scoring (2022): the end of the match (value 1 for a win, shared wins split);
  with the 2022 cards and three or more in, the first bust instead (0 for the seat that
  busts, `bust_value`'s self-play win chance for a survivor): the card played now shows
  mostly in who busts first, and the rest of the match is mostly noise;
- tokens: the end of the round (value 1 unless this seat is the one who busts);
- points: the end of the round (value: the share of the others who scored more).

Every candidate is played in the same worlds with the same later random numbers (paired
samples), so the difference between two candidates is measured far more precisely than
either value alone. The choice is never worse than greedy by construction: greedy's card
stays unless another beats it by MARGIN_SE paired standard errors.

The budget is counted in model plays, not seconds, so a choice is a pure function of the
view, the observed events and the generator (a fixed `PLAYS_PER_SECOND`, measured by
bench/bots.py on the reference machine, converts a time budget).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ono99tui.bots.bust_value import applies_to, bust_value
from ono99tui.bots.observed import Observed
from ono99tui.bots.playout import DISCARDING, PLAYING, SINGLE, TOKENS, World, table_for
from ono99tui.bots.worlds import WorldSampler
from ono99tui.game import PlayerView

# Budget units (model plays plus the overheads below) the search spends per second of CPU
# on the reference machine: bench/bots.py's "search_budget_units_per_cpu_s" measured
# 449,000 on a quiet 2-core machine; 405,000 leaves room for a busier core. It converts a
# time budget into a play budget, so choices stay deterministic.
PLAYS_PER_SECOND = 405_000
# The fixed cost of one play-out (copying a world) in model plays, and of dealing a world.
PLAYOUT_OVERHEAD = 1
WORLD_OVERHEAD = 4
# A play-out stopped at the first bust (single scoring, bust_value) pays this many model
# plays for the table lookup.
BUST_VALUE_COST = 1
# Points play-outs cost more CPU per model play (busters discard, rounds are scored, the
# smaller 1980 deck reshuffles often): their play budget is scaled down to fit the same time.
POINTS_BUDGET_SCALE = 0.65
# Fewest worlds before a choice may leave greedy's card, and most worlds ever dealt.
MIN_WORLDS = 12
MAX_WORLDS = 4_000
# How many paired standard errors a card must beat greedy's by to be chosen: a one-sided
# 95% test (is it better than greedy's card?).
MARGIN_SE = 1.645
# Every CHECKPOINT worlds, drop a card whose edge is below -DROP_SE standard errors.
CHECKPOINT = 16
DROP_SE = 2.0


@dataclass(frozen=True, slots=True)
class CardStats:
    """What the play-outs of one candidate showed."""

    card: int  # a card int, or playout.SWAP
    samples: int
    value: float  # mean play-out value: the chance to win (or to get through the round)
    next_bust: float  # how often the next player busted at once
    edge: float  # mean paired difference to greedy's card (0 for greedy's own)
    edge_se: float  # its standard error


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The stats of every candidate, greedy's card and the card the search chooses."""

    cards: tuple[CardStats, ...]
    greedy: int
    chosen: int
    worlds: int
    plays: int  # model plays spent


def playout(world: World, me: int, card: int, at_bust: bool = False) -> tuple[float, bool]:
    """Play `card` for `me` in `world` (changed in place), let greedy play on to the
    horizon; (value for `me`, did the next player bust at once). With `at_bust` (single
    scoring, three or more in) the horizon is the first bust, valued by `bust_value`."""
    t = world.t
    world.halt_at_round_end = t.scoring != SINGLE
    busts = world.busts
    first = len(busts)
    world.act(card)
    # The rest of my turn (the second of two owed cards) is greedy's too.
    while world.phase == PLAYING and world.turn == me and world.owed == 1 and world.obligated:
        world.step()
    next_bust = len(busts) > first and busts[first] != me
    if t.scoring == SINGLE:
        alive = world.alive
        if at_bust and sum(alive) >= 3:
            # Stop at the first bust: who it is shows the card's effect, the table says
            # what surviving it is worth (bust_value's module doc).
            while world.phase <= DISCARDING and len(busts) == first:
                world.step()
            if world.phase <= DISCARDING:
                return (bust_value(world, me) if alive[me] else 0.0), next_bust
        while world.phase <= DISCARDING and alive[me]:
            world.step()
        if not alive[me]:
            return 0.0, next_bust
        winners = world.winners
        return (1.0 / len(winners) if me in winners else 0.0), next_bust
    while world.phase <= DISCARDING:
        world.step()
        if t.scoring == TOKENS and len(busts) > first:
            break
    if t.scoring == TOKENS:
        return (0.0 if me in busts[first:] else 1.0), next_bust
    points = world.round_points
    if not points:
        return 0.5, next_bust
    mine = points[me]
    others = [p for seat, p in enumerate(points) if seat != me and world.alive[seat]]
    if not others:
        return 1.0, next_bust
    better = sum(1.0 if p > mine else 0.5 if p == mine else 0.0 for p in others)
    return better / len(others), next_bust


class LazyRandom(random.Random):
    """A generator seeded on first use: most play-outs never reshuffle, and seeding (or
    copying a generator's state) costs more than a whole play-out's plays."""

    def __init__(self, seed: int) -> None:  # deliberately not seeding yet
        self._pending_seed: int | None = seed

    def random(self) -> float:
        """The next float, seeding first if this is the first number asked for."""
        if self._pending_seed is not None:
            super().seed(self._pending_seed)
            self._pending_seed = None
        return super().random()


def _mean_se(total: float, squares: float, k: int) -> tuple[float, float]:
    """Mean and standard error of k paired differences from their sum and sum of squares."""
    mean = total / k
    var = max(0.0, squares / k - mean * mean) * k / max(1, k - 1)
    return mean, math.sqrt(var / k)


def _clearly_worse(total: float, squares: float, k: int) -> bool:
    mean, se = _mean_se(total, squares, k)
    return mean + DROP_SE * se < 0


def evaluate(
    view: PlayerView,
    observed: Observed,
    candidates: list[int],
    greedy_card: int,
    rng: random.Random,
    play_budget: int,
    *,
    min_worlds: int = MIN_WORLDS,
    max_worlds: int = MAX_WORLDS,
    prune: bool = True,
    first_bust: bool = True,
    sampler: WorldSampler | None = None,
) -> Evaluation:
    """Deal worlds until `play_budget` model plays are spent (at least `min_worlds`, at
    most `max_worlds`) and play every candidate in each (with `prune`, only those not yet
    clearly worse than greedy's card). With `first_bust`, single-scoring play-outs under the
    2022 cards stop at the first bust with three or more in (bust_value); without, they run
    to the end of the match. `sampler` deals the worlds (default: a `WorldSampler` of the
    view and the observed events; bench/oracle.py gives one that knows every hand).
    Raises InconsistentView."""
    me = view.seat
    assert me is not None
    if table_for(view.rules).scoring not in (SINGLE, TOKENS):
        play_budget = int(play_budget * POINTS_BUDGET_SCALE)
    n = len(candidates)
    greedy_at = candidates.index(greedy_card)
    sums = [0.0] * n
    busts = [0] * n
    diff_sums = [0.0] * n
    diff_squares = [0.0] * n
    samples = [0] * n
    spent = 0
    worlds = 0
    if sampler is None:
        sampler = WorldSampler(view, observed)
    at_bust = first_bust and applies_to(view.rules)
    # Candidates still being played: one clearly worse than greedy's card is dropped at
    # the next checkpoint, so the budget goes to the cards that may still beat it.
    live = list(range(n))
    while worlds < max_worlds and (worlds < min_worlds or spent < play_budget):
        if prune and worlds % CHECKPOINT == 0 and worlds >= min_worlds:
            live = [i for i in live if i == greedy_at or not _clearly_worse(
                diff_sums[i], diff_squares[i], samples[i])]
            if len(live) == 1:
                break  # only greedy's card is left: nothing can beat it
        root = sampler.sample(rng)
        # The random numbers after the root (reshuffles) are the same for every candidate.
        seed = rng.getrandbits(32)
        values = [0.0] * n
        # A table lookup ends each play-out only with three or more in.
        lookup_cost = BUST_VALUE_COST if at_bust and sum(root.alive) >= 3 else 0
        for i in live:
            card = candidates[i]
            world = root.copy(LazyRandom(seed))
            start = world.plays
            value, next_bust = playout(world, me, card, at_bust)
            spent += world.plays - start + PLAYOUT_OVERHEAD + lookup_cost
            values[i] = value
            sums[i] += value
            busts[i] += next_bust
        spent += WORLD_OVERHEAD
        base = values[greedy_at]
        for i in live:
            samples[i] += 1
            d = values[i] - base
            diff_sums[i] += d
            diff_squares[i] += d * d
        worlds += 1
    stats = []
    for i, card in enumerate(candidates):
        k = max(1, samples[i])
        mean_d, se = _mean_se(diff_sums[i], diff_squares[i], k)
        stats.append(CardStats(card, samples[i], sums[i] / k, busts[i] / k, mean_d, se))
    chosen = greedy_card
    best_edge = 0.0
    for s in stats:
        if s.card != greedy_card and s.edge > best_edge and s.edge > MARGIN_SE * s.edge_se:
            chosen, best_edge = s.card, s.edge
    return Evaluation(tuple(stats), greedy_card, chosen, worlds, spent)
