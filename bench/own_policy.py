"""Issue 15's "learned policy" experiment: a distilled own policy for the hard bot.

A tried-and-not-kept direction (docs/BOTS.md, "A learned own policy"). It reproduces the
figures there; nothing in the bot uses it.

1. label: greedy matches in the play-out model (4 seats, 2022, and 2 seats); at every play
   with two or more legal cards, every candidate card kind (the biggest number, the
   smallest, 0, −10, Reverse, Play 2, the swap) is played from the TRUE position (a copy of
   the world, the same later random numbers for every candidate) and played out with
   `search.playout` (first-bust horizon with three or more in, else the end of the match).
   Averaged over the positions that share a key, that is an unbiased paired estimate of
   each kind's edge over greedy's card given what the key says (the key reads only the
   seat's own hand and public facts).
2. table: per (key, greedy's kind), the kind with the largest mean edge among those with
   at least MIN_POSITIONS positions and an edge above Z standard errors.
3. self-play: the table as a one-line policy for one seat against greedy in the model,
   each match replayed with greedy in that seat (paired).
4. --arms N: the same deals as `arena.play_same_deals` (4 seats, seats rotated, seed
   --seed), played by the current hard bot, by greedy, and by two variants of the hard
   bot: `own` (its own later moves in play-outs follow the table) and `default` (the
   table's card is the one the search must beat, instead of greedy's).

    PYTHONPATH=$PWD nice -n 10 python bench/own_policy.py [--arms 1200 --seed 1]

Deterministic given its arguments. Labelling at the defaults takes about 6 CPU minutes,
--arms 1200 about 8 more.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ono99tui.bots.search as search
from ono99tui.bots import make_bot
from ono99tui.bots.arena import _percentile, interval, play_one, seating
from ono99tui.bots.base import Bot
from ono99tui.bots.bust_value import applies_to, bust_value
from ono99tui.bots.greedy import GreedyBot
from ono99tui.bots.hard import HardBot
from ono99tui.bots.playout import (
    DISCARDING,
    MINUS_TEN,
    PLAY2,
    PLAYING,
    REVERSE,
    SWAP,
    World,
)
from ono99tui.bots.search import LazyRandom, evaluate, playout
from ono99tui.bots.worlds import WorldSampler
from ono99tui.game import PlayerView, preset

RULES = preset("2022")
MIN_POSITIONS = 200
Z = 3.0
Key = tuple[int, ...]
Table = dict[tuple[Key, str], str]
_SPECIAL_KINDS = {0: "0", MINUS_TEN: "-10", REVERSE: "R", PLAY2: "P2", SWAP: "swap"}
_KIND_CARDS = {kind: card for card, kind in _SPECIAL_KINDS.items()}


def _band(total: int) -> int:
    """The total in bands: <60, 60s, 70s, 80–84, 85–89, 90–94, then 95, 96, 97, 98."""
    for band, below in enumerate((60, 70, 80, 85, 90, 95)):
        if total < below:
            return band
    return 6 + total - 95


def key_of(world: World, me: int) -> Key:
    """What the table is keyed by, all known to `me`: players in (2, 3, 4+), the total's
    band, the obligation (0 none, 1 two owed, 2 the second of two), how many 0s, −10s,
    Reverses and Play 2s it holds (up to 2 each) and its numbers that fit (up to 3)."""
    hand = world.hands[me]
    total = world.total
    obligation = (1 if world.owed == 2 else 2) if world.obligated else 0
    fitting = sum(1 for card in hand if 0 < card <= 10 and total + card < RULES.bust_at)
    return (
        min(sum(world.alive), 4),
        _band(total),
        obligation,
        min(hand.count(0), 2),
        min(hand.count(MINUS_TEN), 2),
        min(hand.count(REVERSE), 2),
        min(hand.count(PLAY2), 2),
        min(fitting, 3),
    )


def kind_of(card: int, moves: list[int]) -> str | None:
    """A candidate's kind; None for a number that is neither the biggest nor the smallest."""
    if 0 < card <= 10:
        numbers = [m for m in moves if 0 < m <= 10]
        if card == max(numbers):
            return "big"
        return "small" if card == min(numbers) else None
    return _SPECIAL_KINDS.get(card)


def card_of(kind: str, moves: list[int]) -> int:
    """The card of `kind` among `moves`."""
    numbers = [m for m in moves if 0 < m <= 10]
    if kind == "big":
        return max(numbers)
    if kind == "small":
        return min(numbers)
    return _KIND_CARDS[kind]


Sums = dict[tuple[Key, str, str], list[float]]


def label(seats: int, matches: int, seed: int, sums: Sums) -> int:
    """Greedy matches; every choice's candidate kinds played out from the true position,
    paired; their differences to greedy's card added to `sums`. Returns positions."""
    rng = random.Random(seed)
    positions = 0
    for _ in range(matches):
        world = World.start(RULES, seats, rng)
        while world.phase <= DISCARDING:
            if world.phase == PLAYING and len(world.moves) >= 2:
                me = world.turn
                moves = world.moves
                greedy_kind = kind_of(world.greedy(), moves)
                assert greedy_kind is not None
                key = key_of(world, me)
                later = rng.getrandbits(32)
                values: dict[str, float] = {}
                for card in moves:
                    kind = kind_of(card, moves)
                    if kind is not None:
                        values[kind] = playout(world.copy(LazyRandom(later)), me, card, True)[0]
                base = values[greedy_kind]
                for kind, value in values.items():
                    if kind != greedy_kind:
                        entry = sums.setdefault((key, greedy_kind, kind), [0.0, 0.0, 0.0])
                        d = value - base
                        entry[0] += 1
                        entry[1] += d
                        entry[2] += d * d
                positions += 1
            world.step()
    return positions


def build_table(sums: Sums) -> tuple[Table, list[list[Any]]]:
    """The best kind per (key, greedy's kind), and the rows kept (for the report)."""
    best: dict[tuple[Key, str], tuple[str, float, float, int]] = {}
    for (key, greedy_kind, kind), (n, total, squares) in sums.items():
        if n < MIN_POSITIONS:
            continue
        mean = total / n
        se = math.sqrt(max(0.0, squares / n - mean * mean) / (n - 1))
        if mean <= Z * se:
            continue
        kept = best.get((key, greedy_kind))
        if kept is None or mean > kept[1]:
            best[(key, greedy_kind)] = (kind, mean, se, int(n))
    ranked = sorted(best.items(), key=lambda item: -item[1][1] * item[1][3])
    rows = [[list(key), greedy, kind, round(100 * m, 2), round(100 * se, 2), n]
            for (key, greedy), (kind, m, se, n) in ranked]
    return {where: entry[0] for where, entry in best.items()}, rows


def policy(table: Table) -> Callable[[World], int]:
    """The table as a policy for the turn seat: greedy's card unless the table names
    another kind for this key."""

    def choose(world: World) -> int:
        moves = world.moves
        card = world.greedy()
        if len(moves) < 2:
            return card
        kind = table.get((key_of(world, world.turn), kind_of(card, moves) or ""))
        if kind is None or all(kind_of(m, moves) != kind for m in moves):
            return card
        return card_of(kind, moves)

    return choose


def self_play(table: Table, seats: int, matches: int, seed: int) -> dict[str, Any]:
    """The table's policy in one seat (rotated) against greedy, in the model; each match
    replayed with greedy in that seat."""
    choose = policy(table)

    def one(me: int, match_seed: int, own: bool) -> float:
        world = World.start(RULES, seats, random.Random(match_seed))
        while world.phase <= DISCARDING:
            if own and world.phase == PLAYING and world.turn == me:
                world.act(choose(world))
            else:
                world.step()
        return 1 / len(world.winners) if me in world.winners else 0.0

    wins: list[float] = []
    edges: list[float] = []
    for match in range(matches):
        me = match % seats
        match_seed = seed * 10_000_000 + match
        won = one(me, match_seed, True)
        wins.append(won)
        edges.append(won - one(me, match_seed, False))
    rate, rate_half = interval(wins)
    edge, edge_half = interval(edges)
    return {"seats": seats, "matches": matches, "seed": seed, "win_pct": round(100 * rate, 2),
            "win_interval": round(100 * rate_half, 2), "edge_over_greedy": round(100 * edge, 2),
            "edge_interval": round(100 * edge_half, 2)}


def own_playout(choose: Callable[[World], int]) -> Callable[..., tuple[float, bool]]:
    """`search.playout` with the seat's own later plays chosen by `choose` (single
    scoring only: the arms run 2022)."""

    def run(world: World, me: int, card: int, at_bust: bool = False) -> tuple[float, bool]:
        world.halt_at_round_end = False
        busts = world.busts
        first = len(busts)
        world.act(card)

        def move() -> None:
            if world.phase == PLAYING and world.turn == me and len(world.moves) > 1:
                world.act(choose(world))
            else:
                world.step()

        while world.phase == PLAYING and world.turn == me and world.owed == 1 and world.obligated:
            move()
        next_bust = len(busts) > first and busts[first] != me
        alive = world.alive
        if at_bust and sum(alive) >= 3:
            while world.phase <= DISCARDING and len(busts) == first:
                move()
            if world.phase <= DISCARDING:
                return (bust_value(world, me) if alive[me] else 0.0), next_bust
        while world.phase <= DISCARDING and alive[me]:
            move()
        if not alive[me]:
            return 0.0, next_bust
        return (1.0 / len(world.winners) if me in world.winners else 0.0), next_bust

    return run


class VariantBot(HardBot):
    """The hard bot with the table: in its own play-outs and/or as the card to beat."""

    name = "variant"

    def __init__(self, table: Table, own_playouts: bool, table_default: bool) -> None:
        super().__init__()
        self.choose_in_world = policy(table)
        self.own_playouts = own_playouts
        self.table_default = table_default

    def _search(self, view: PlayerView, candidates: list[int], greedy_code: int,
                rng: random.Random) -> int:
        default = greedy_code
        use = applies_to(view.rules)
        if use and self.table_default:
            template = WorldSampler(view, self.observed).template  # may raise InconsistentView
            if template.moves:
                default = self.choose_in_world(template)
            if default not in candidates:
                default = greedy_code
        plain = search.playout
        if use and self.own_playouts:
            search.playout = own_playout(self.choose_in_world)
        try:
            return evaluate(view, self.observed, candidates, default, rng,
                            int(self.budget_s * search.PLAYS_PER_SECOND)).chosen
        finally:
            search.playout = plain


def arms(table: Table, games: int, seed: int, players: int = 4) -> dict[str, Any]:
    """`arena.play_same_deals`' deals and seating, each played by every arm in the
    measured seat; win rates, CPU ms per decision and paired differences."""
    factories: dict[str, Callable[[], Bot]] = {
        "own+default": lambda: VariantBot(table, True, True),
        "default": lambda: VariantBot(table, False, True),
        "hard": HardBot,
        "greedy": GreedyBot,
    }
    bot_names = ("X", "greedy", "greedy", "greedy")[:players]
    master = random.Random(seed)
    results: dict[str, list[float]] = {name: [] for name in factories}
    times: dict[str, list[float]] = {name: [] for name in factories}
    for match in range(games):
        names = seating(bot_names, players, match)
        engine_seed, bot_seed = master.getrandbits(64), master.getrandbits(32)
        for arm, factory in factories.items():
            bots = tuple(factory() if name == "X" else make_bot(name) for name in names)
            timings: list[list[float]] = [[] for _ in range(players)]
            winners, _, _ = play_one(RULES, bots, engine_seed, bot_seed, timings)
            results[arm].append(sum(1 / len(winners) for w in winners if names[w] == "X"))
            times[arm].extend(t for s, name in enumerate(names) if name == "X"
                              for t in timings[s])
    out: dict[str, Any] = {"players": players, "games": games, "seed": seed}
    for arm in factories:
        rate, half = interval(results[arm])
        out[arm] = {"win_pct": round(100 * rate, 2), "interval": round(100 * half, 2),
                    "ms_p50": round(1000 * _percentile(times[arm], 0.5), 1),
                    "ms_p99": round(1000 * _percentile(times[arm], 0.99), 1)}
    arms_list = list(factories)
    for i, a in enumerate(arms_list):
        for b in arms_list[i + 1:]:
            edge, half = interval([x - y for x, y in zip(results[a], results[b], strict=True)])
            out[f"{a} - {b}"] = [round(100 * edge, 2), round(100 * half, 2)]
    return out


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches4", type=int, default=60_000, help="4-seat labelling matches")
    parser.add_argument("--matches2", type=int, default=40_000, help="2-seat labelling matches")
    parser.add_argument("--self-play", type=int, default=30_000, help="matches per seat count")
    parser.add_argument("--arms", type=int, default=0, help="same-deal matches (0: none)")
    parser.add_argument("--seed", type=int, default=1, help="the arms' deals")
    parser.add_argument("--rows", type=int, default=20, help="table rows to print")
    args = parser.parse_args(None if argv is None else list(argv))
    started = time.process_time()
    sums: Sums = {}
    positions = label(4, args.matches4, 11, sums) + label(2, args.matches2, 12, sums)
    table, rows = build_table(sums)
    out: dict[str, Any] = {
        "positions": positions,
        "table_keys": len(table),
        "top_rows (key, greedy, better, edge pts, se pts, positions)": rows[: args.rows],
        "label_cpu_s": round(time.process_time() - started),
    }
    out["self_play"] = [self_play(table, 4, args.self_play, 6),
                        self_play(table, 2, args.self_play, 5)]
    if args.arms:
        out["arms"] = arms(table, args.arms, args.seed)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
