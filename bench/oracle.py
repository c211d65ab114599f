"""The hard bot's edge as a share of a see-every-hand bot's edge at the same budget (issue 28
item 5).

Every deal is played three times with the same engine seed and the same generators for the
other seats: with the hard bot in the measured seats, with the *oracle* there (the same
search at the same 4,050 budget units, but every other hand is dealt to each world as it
really is: only the draw pile and the discard pile it did not watch stay unknown), and with
greedy there (the same-run baseline). Seats rotate from deal to deal, as in `ono99 sim`.
The oracle reads the real state, so it lives here and not in `ono99tui/bots/`.

Prints ONE JSON object: each arm's win rate, each edge over greedy with its 95% interval
(paired by deal), the oracle's edge over the hard bot, and the share hard/oracle with a
95% interval (the delta method on the paired per-deal differences; a percentile
bootstrap over deals beside it).

    nice -n 10 python bench/oracle.py --games 2000 --seed 1 --seed 2 [--players 4]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ono99tui.bots import make_bot
from ono99tui.bots.arena import Z95, interval, seating
from ono99tui.bots.base import Bot
from ono99tui.bots.hard import HardBot
from ono99tui.bots.playout import PLAYING
from ono99tui.bots.search import PLAYS_PER_SECOND, evaluate
from ono99tui.bots.worlds import WorldSampler
from ono99tui.game import MATCH_OVER, PlayerView, acting_seats, apply, preset, start_match, view
from ono99tui.game.state import State


class SeeingSampler(WorldSampler):
    """Worlds in which every other seat's hand is the real one: only the draw pile and
    the part of the discard pile the seat did not watch are dealt at random."""

    def __init__(self, seen: PlayerView, observed: Any, hands: tuple[tuple[Any, ...], ...]
                 ) -> None:
        super().__init__(seen, observed)
        unknown = list(self.unknown)
        for seat, fixed in enumerate(self.fixed):
            if fixed is not None:
                continue
            real = [int(card) for card in hands[seat]]
            for card in real:
                unknown.remove(card)
            self.fixed[seat] = real
        self.unknown = unknown
        self.bans = [frozenset()] * len(self.fixed)
        self.old_bans = list(self.bans)
        self.inferring = False
        template = self.template
        template.hands = [hand[:] for hand in self.fixed if hand is not None]
        if template.phase == PLAYING:
            template.moves = template.legal(template.turn)


class OracleBot(HardBot):
    """The hard bot's search, told every other hand before each choice (`see`)."""

    name = "oracle"

    def __init__(self) -> None:
        super().__init__()
        self.hands: tuple[tuple[Any, ...], ...] = ()

    def see(self, state: State) -> None:
        """The real hands of the position it is about to choose in."""
        self.hands = state.hands

    def _search(self, seen: PlayerView, candidates: list[int], greedy_code: int,
                rng: random.Random) -> int:
        sampler = SeeingSampler(seen, self.observed, self.hands)
        return evaluate(seen, self.observed, candidates, greedy_code, rng,
                        int(self.budget_s * PLAYS_PER_SECOND), sampler=sampler).chosen


def play(rules: Any, bots: tuple[Bot, ...], engine_seed: int, bot_seed: int
         ) -> tuple[int, ...]:
    """One match as `arena.play_one` plays it, the oracle shown the hands; the winners."""
    rng = random.Random(engine_seed)
    bot_rngs = [random.Random(bot_seed + seat) for seat in range(len(bots))]
    state, events = start_match(rules, len(bots), rng)
    while True:
        for bot in bots:
            bot.observe(events)
        if state.phase == MATCH_OVER:
            return state.winners
        seat = acting_seats(state)[0]
        bot = bots[seat]
        if isinstance(bot, OracleBot):
            bot.see(state)
        state, events = apply(state, bot.choose(view(state, seat), bot_rngs[seat]), rng)


def _bot(name: str) -> Bot:
    return OracleBot() if name == "oracle" else make_bot(name)


def measure(players: int, games: int, seeds: list[int], rules_name: str) -> dict[str, Any]:
    """Play `games` deals of each seed and work out the figures over all of them (see the
    module docstring); a seed's deals are those of `play_same_deals` with that seed."""
    rules = preset(rules_name)
    field_bots = ("hard", *("greedy",) * (players - 1))
    arms = ("hard", "oracle", "greedy")
    results: dict[str, list[float]] = {arm: [] for arm in arms}
    started = time.perf_counter()
    cpu = time.process_time()
    for seed in seeds:
        master = random.Random(seed)
        for match in range(games):
            names = seating(field_bots, players, match)
            engine_seed, bot_seed = master.getrandbits(64), master.getrandbits(32)
            for arm in arms:
                seated = tuple(arm if name == "hard" else name for name in names)
                winners = play(rules, tuple(_bot(name) for name in seated), engine_seed,
                               bot_seed)
                results[arm].append(sum(1 / len(winners) for w in winners
                                        if names[w] == "hard"))
    deals = games * len(seeds)
    hard_d = [h - g for h, g in zip(results["hard"], results["greedy"], strict=True)]
    oracle_d = [o - g for o, g in zip(results["oracle"], results["greedy"], strict=True)]
    between = [o - h for o, h in zip(results["oracle"], results["hard"], strict=True)]
    hard_edge, hard_half = interval(hard_d)
    oracle_edge, oracle_half = interval(oracle_d)
    gap, gap_half = interval(between)
    share, share_half = _share(hard_d, oracle_d)
    low, high = _bootstrap_share(hard_d, oracle_d, random.Random(seeds[0]))
    return {
        "rules": rules_name, "players": players, "games": deals, "seeds": seeds,
        "budget_units": int(HardBot().budget_s * PLAYS_PER_SECOND),
        "win_rates": {arm: round(sum(values) / deals, 4) for arm, values in results.items()},
        "hard_edge": round(hard_edge, 4), "hard_edge_interval": round(hard_half, 4),
        "oracle_edge": round(oracle_edge, 4), "oracle_edge_interval": round(oracle_half, 4),
        "oracle_over_hard": round(gap, 4), "oracle_over_hard_interval": round(gap_half, 4),
        "share": round(share, 4), "share_interval": round(share_half, 4),
        "share_bootstrap_95": [round(low, 4), round(high, 4)],
        "seconds": round(time.perf_counter() - started, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "python": platform.python_version(), "load": round(os.getloadavg()[0], 2),
    }


def _share(hard_d: list[float], oracle_d: list[float]) -> tuple[float, float]:
    """mean(hard_d) / mean(oracle_d) and its 95% half-width (delta method, paired)."""
    n = len(hard_d)
    a, b = sum(hard_d) / n, sum(oracle_d) / n
    if b == 0:
        return float("nan"), float("inf")
    ratio = a / b
    # Var of the ratio of means: (1/b²) Var(mean(hard_d − ratio·oracle_d)).
    residual = [h - ratio * o for h, o in zip(hard_d, oracle_d, strict=True)]
    mean = sum(residual) / n
    var = sum((r - mean) ** 2 for r in residual) / (n - 1)
    return ratio, Z95 * math.sqrt(var / n) / abs(b)


def _bootstrap_share(hard_d: list[float], oracle_d: list[float], rng: random.Random,
                     draws: int = 2000) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of the share over deals drawn with replacement
    (draws whose oracle edge is not above 0 count as an unbounded share)."""
    n = len(hard_d)
    shares = []
    for _ in range(draws):
        picks = [rng.randrange(n) for _ in range(n)]
        a = sum(hard_d[i] for i in picks)
        b = sum(oracle_d[i] for i in picks)
        shares.append(a / b if b > 0 else math.inf)
    shares.sort()
    return shares[int(0.025 * draws)], shares[min(draws - 1, int(0.975 * draws))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200,
                        help="deals per seed (default 1200)")
    parser.add_argument("--seed", type=int, action="append", default=None,
                        help="seed of the deals (default 1); repeat it to pool the deals of "
                             "several seeds")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rules", default="2022")
    args = parser.parse_args()
    print(json.dumps(measure(args.players, args.games, args.seed or [1], args.rules)))


if __name__ == "__main__":
    main()
