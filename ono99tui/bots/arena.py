"""Headless matches between bots: the engine of `ono99 sim` and bench/bots.py.

`play_matches` plays a series with the seats rotated from match to match (seat i of
match m gets `bot_names[(i - m) % players % len(bot_names)]`, so no bot keeps the seat
that starts more often) and reports each bot's wins with a 95% interval. `play_same_deals`
plays every deal twice, once as given and once with greedy (or another baseline) in the
first bot's seats, and reports the paired edge: the deal's luck cancels out.
`play_duplicate_sets` plays duplicate sets (docs/DUPLICATE.md): each deal once per seat
rotation, every bot compared with the bots that held the same cards.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ono99tui.bots import make_bot
from ono99tui.bots.base import Bot
from ono99tui.game import MATCH_OVER, Rules, State, acting_seats, apply, start_match, view
from ono99tui.game.duplicate import DuplicateRandom, PlaceTracker, compare, rotation_seating
from ono99tui.game.finish import elimination_groups, finishing_ranks

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """What a series of matches showed. Shared wins count as a fraction per winner."""

    rules: str
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]  # the bot of each seat in the first match (later ones rotate)
    wins: dict[str, float]  # per bot name
    win_rates: dict[str, float]  # wins / games, per bot name
    intervals: dict[str, float]  # ± half-width of the 95% interval of each win rate
    seat_shares: dict[str, float]  # the share of seats each bot held (a fair win rate)
    mean_turns: float  # plays per match
    mean_rounds: float
    seconds: float
    matches_per_s: float
    decision_ms: dict[str, tuple[float, float]]  # per bot: (p50, p99) CPU ms per decision


@dataclass(frozen=True, slots=True)
class SameDealResult:
    """The paired comparison of `play_same_deals`."""

    rules: str
    players: int
    games: int
    seed: int
    bot: str
    baseline: str
    bot_rate: float  # the bot's seats' share of the wins
    bot_interval: float  # ± half-width of its 95% interval
    baseline_rate: float  # the baseline's in the same deals
    edge: float  # bot_rate - baseline_rate
    edge_interval: float  # ± half-width of its 95% interval (paired by deal)
    seconds: float
    decision_ms: tuple[float, float]  # the bot's CPU ms per decision with a choice, p50/p99


@dataclass(frozen=True, slots=True)
class DuplicateLevel:
    """One bot's results over the duplicate sets of `play_duplicate_sets`."""

    edge: float  # mean per hand held: the other holders' mean place minus its own
    edge_interval: float  # ± half-width of its 95% interval (over sets)
    mean_place: float
    best_share: float  # the share of the hands it held on which it had the best place


@dataclass(frozen=True, slots=True)
class DuplicateSimResult:
    """What `play_duplicate_sets` showed, per bot name."""

    rules: str
    players: int
    sets: int
    seed: int
    bots: tuple[str, ...]  # the players of the first set, in the set's order
    levels: dict[str, DuplicateLevel]
    matches: int
    seconds: float


def interval(values: list[float]) -> tuple[float, float]:
    """(mean, ± half-width of its normal 95% interval)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def seating(bot_names: tuple[str, ...], players: int, match: int) -> tuple[str, ...]:
    """The bot of each seat in match number `match` (rotated one seat per match)."""
    return tuple(bot_names[((seat - match) % players) % len(bot_names)] for seat in range(players))


def play_one(
    rules: Rules,
    seat_bots: tuple[Bot, ...],
    engine_seed: int,
    bot_seed: int,
    timings: list[list[float]] | None = None,
    places: list[tuple[int, ...]] | None = None,
) -> tuple[tuple[int, ...], int, int]:
    """One match; (winners, plays, rounds). Every seat's bot has its own generator (so a
    replay with one seat's bot changed deals the others the same random numbers), sees
    only its view and, through `observe`, the public events. `timings[seat]` collects the
    CPU seconds of each decision that had a choice; `places` gets the match's finishing
    order (`game.finish.finishing_ranks`)."""
    rng = random.Random(engine_seed)
    bot_rngs = [random.Random(bot_seed + seat) for seat in range(len(seat_bots))]
    state, events = start_match(rules, len(seat_bots), rng)
    clock = time.process_time
    told: list[tuple[str, int | None]] = []
    while True:
        for bot in seat_bots:
            bot.observe(events)
        if places is not None:
            told.extend((event.kind, getattr(event, "seat", None)) for event in events)
        if state.phase == MATCH_OVER:
            if places is not None:
                places.append(finishing_ranks(state, elimination_groups(told)))
            return state.winners, state.plays, state.round_no
        seat = acting_seats(state)[0]
        seen = view(state, seat)
        if timings is not None and len(seen.legal_moves) > 1:
            started = clock()
            move = seat_bots[seat].choose(seen, bot_rngs[seat])
            timings[seat].append(clock() - started)
        else:
            move = seat_bots[seat].choose(seen, bot_rngs[seat])
        state, events = apply(state, move, rng)


def play_matches(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    bot_names: tuple[str, ...],
    *,
    rotate: bool = True,
    on_result: Callable[[tuple[str, ...], tuple[int, ...]], None] | None = None,
) -> ArenaResult:
    """Play `games` full matches, seats rotated (unless `rotate` is False: then seat i
    always gets bot_names[i % len(bot_names)]). `on_result(seat_names, places)` is told
    every match's finishing order (`ono99 sim --rate`).

    Each match has its own engine and bot generators drawn from `seed`, so any single
    match can be replayed.
    """
    master = random.Random(seed)
    wins = {name: 0.0 for name in bot_names}
    per_match: dict[str, list[float]] = {name: [] for name in bot_names}
    times: dict[str, list[float]] = {name: [] for name in bot_names}
    turns = rounds = 0
    start = time.perf_counter()
    for match in range(games):
        names = seating(bot_names, players, match if rotate else 0)
        engine_seed, bot_seed = master.getrandbits(64), master.getrandbits(32)
        timings: list[list[float]] = [[] for _ in range(players)]
        bots = tuple(make_bot(name) for name in names)
        places: list[tuple[int, ...]] | None = [] if on_result is not None else None
        winners, plays, dealt = play_one(rules, bots, engine_seed, bot_seed, timings, places)
        if on_result is not None and places:
            on_result(names, places[0])
        share = dict.fromkeys(bot_names, 0.0)
        for winner in winners:
            share[names[winner]] += 1 / len(winners)
        for name in bot_names:
            wins[name] += share[name]
            per_match[name].append(share[name])
        for seat, name in enumerate(names):
            times[name].extend(timings[seat])
        turns += plays
        rounds += dealt
    seconds = time.perf_counter() - start
    first = seating(bot_names, players, 0)
    return ArenaResult(
        rules=rules.name,
        players=players,
        games=games,
        seed=seed,
        bots=first,
        wins=wins,
        win_rates={name: count / games for name, count in wins.items()},
        intervals={name: interval(values)[1] for name, values in per_match.items()},
        seat_shares={name: first.count(name) / players for name in bot_names},
        mean_turns=turns / games,
        mean_rounds=rounds / games,
        seconds=seconds,
        matches_per_s=games / seconds if seconds > 0 else float("inf"),
        decision_ms={
            name: (1000 * _percentile(values, 0.5), 1000 * _percentile(values, 0.99))
            for name, values in times.items()
        },
    )


def play_same_deals(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    bot_names: tuple[str, ...],
    baseline: str = "greedy",
) -> SameDealResult:
    """Play every deal twice: as seated (rotated), then with `baseline` in the seats of
    bot_names[0]; the paired difference of those seats' wins is the bot's edge."""
    bot = bot_names[0]
    master = random.Random(seed)
    edges: list[float] = []
    bot_results: list[float] = []
    base_total = 0.0
    times: list[float] = []
    start = time.perf_counter()
    for match in range(games):
        names = seating(bot_names, players, match)
        engine_seed, bot_seed = master.getrandbits(64), master.getrandbits(32)
        results = []
        for replaced in (False, True):
            seated = tuple(baseline if replaced and name == bot else name for name in names)
            timings: list[list[float]] = [[] for _ in range(players)]
            winners, _, _ = play_one(
                rules, tuple(make_bot(name) for name in seated), engine_seed, bot_seed, timings
            )
            results.append(sum(1 / len(winners) for w in winners if names[w] == bot))
            if not replaced:
                times.extend(t for seat, name in enumerate(names) if name == bot
                             for t in timings[seat])
        bot_results.append(results[0])
        base_total += results[1]
        edges.append(results[0] - results[1])
    edge, half = interval(edges)
    bot_rate, bot_half = interval(bot_results)
    return SameDealResult(
        rules=rules.name,
        players=players,
        games=games,
        seed=seed,
        bot=bot,
        baseline=baseline,
        bot_rate=bot_rate,
        bot_interval=bot_half,
        baseline_rate=base_total / games,
        edge=edge,
        edge_interval=half,
        seconds=time.perf_counter() - start,
        decision_ms=(1000 * _percentile(times, 0.5), 1000 * _percentile(times, 0.99)),
    )


def play_duplicate_set(
    rules: Rules, names: tuple[str, ...], set_seed: int, bot_seed: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[State, ...]]:
    """One duplicate set of bots: the places of each rotation (by seat) and its end.

    Player p (a bot named `names[p]`) keeps its own generator, seeded from `bot_seed + p`,
    across the rotations; every rotation's engine generator is the set's."""
    players = len(names)
    places: list[tuple[int, ...]] = []
    ends: list[State] = []
    for rotation in range(players):
        order = rotation_seating(tuple(range(players)), rotation)
        bots = [make_bot(names[player]) for player in order]
        bot_rngs = [random.Random(bot_seed + player) for player in order]
        rng = DuplicateRandom(set_seed)
        tracker = PlaceTracker()
        state, events = start_match(rules, players, rng)
        while True:
            tracker.observe(events)
            for bot in bots:
                bot.observe(events)
            if state.phase == MATCH_OVER:
                break
            seat = acting_seats(state)[0]
            state, events = apply(state, bots[seat].choose(view(state, seat), bot_rngs[seat]),
                                  rng)
        places.append(tracker.places(state))
        ends.append(state)
    return tuple(places), tuple(ends)


def play_duplicate_sets(
    rules: Rules,
    players: int,
    sets: int,
    seed: int,
    bot_names: tuple[str, ...],
) -> DuplicateSimResult:
    """Play `sets` duplicate sets; the set's players are `bot_names` given to the seats in
    turn (shifted by one each set, as `play_matches` rotates), and each bot's edge per hand
    is averaged over its players in a set, then over sets with a 95% interval."""
    master = random.Random(seed)
    per_set: dict[str, list[float]] = {name: [] for name in bot_names}
    placed: dict[str, list[int]] = {name: [] for name in bot_names}
    best: dict[str, list[bool]] = {name: [] for name in bot_names}
    start = time.perf_counter()
    for number in range(sets):
        names = seating(bot_names, players, number)
        set_seed, bot_seed = master.getrandbits(64), master.getrandbits(32)
        places, _ = play_duplicate_set(rules, names, set_seed, bot_seed)
        labels = tuple(f"{name}#{player}" for player, name in enumerate(names))
        result = compare(labels, places)
        edges: dict[str, list[float]] = {}
        for score in result.scores:
            name = score.name.rpartition("#")[0]
            edges.setdefault(name, []).append(score.edge / players)
        for name, values in edges.items():
            per_set[name].append(sum(values) / len(values))
        for hand in result.hands:
            for label, place in hand.places:
                name = label.rpartition("#")[0]
                placed[name].append(place)
                best[name].append(label in hand.best)
    seconds = time.perf_counter() - start
    levels = {}
    for name in bot_names:
        if not per_set[name]:
            continue  # more bots named than seats: this one never sat
        edge, half = interval(per_set[name])
        levels[name] = DuplicateLevel(
            edge=edge, edge_interval=half,
            mean_place=sum(placed[name]) / len(placed[name]),
            best_share=sum(best[name]) / len(best[name]))
    return DuplicateSimResult(rules=rules.name, players=players, sets=sets, seed=seed,
                              bots=seating(bot_names, players, 0), levels=levels,
                              matches=sets * players, seconds=seconds)
