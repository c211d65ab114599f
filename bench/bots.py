"""Computer players: strength with 95% intervals, CPU per decision, hint accuracy, and the
play-out model's speed and agreement with the engine. Greedy is the same-run baseline.

Prints ONE JSON object. Sections (all by default; pick some with --only):

- model: greedy play-outs of whole matches through the model (`bots.playout.World`) and
  through the engine's public API (start_match, view, GreedyBot, apply), alternating
  batches; and the search's real workload, play-outs from sampled decision points.
- strength: hard vs 3 greedy, 4 seats, 2022, seats rotated; every deal replayed with
  greedy in the hard bot's seat (the baseline, fair 25%) and the paired edge; hard's CPU
  ms per decision p50/p99.
- headsup: the same, 2 seats.
- regress: 1980 (tokens), 1980 points-lowest, 1980-set99 and against random.
- hints: per-card win chance of `advise` at its budget (10 ms, the hard bot's; `--hint-budget-ms
  300 --hint-to-the-end` for the app's hint key) against a 4,000-world reference of the
  same estimator and against 4,000 worlds played to the end of the match, on decision
  points of greedy matches; CPU ms per advice.
- lockstep: thousands of matches through engine and model, every field compared.

    nice -n 10 python bench/bots.py [--games 1200] [--only strength,headsup] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "bots"))

from ono99tui.bots import GreedyBot
from ono99tui.bots.arena import play_matches, play_same_deals
from ono99tui.bots.bust_value import applies_to
from ono99tui.bots.hard import DEFAULT_BUDGET_S, move_code
from ono99tui.bots.hints import HINT_BUDGET_S, advise
from ono99tui.bots.observed import Observed
from ono99tui.bots.playout import World, play_greedy
from ono99tui.bots.search import PLAYS_PER_SECOND, evaluate, playout
from ono99tui.bots.worlds import WorldSampler
from ono99tui.game import (
    MATCH_OVER,
    PRESET_NAMES,
    PlayerView,
    acting_seats,
    apply,
    preset,
    start_match,
    view,
)

SECTIONS = ("model", "strength", "headsup", "regress", "hints", "lockstep")


def _r(x: float, digits: int = 4) -> float:
    return round(x, digits)


def _same_deal(rules_name: str, players: int, games: int, seed: int, bots: tuple[str, ...],
               **options: Any) -> dict[str, Any]:
    rules = preset(rules_name).replace(**options) if options else preset(rules_name)
    result = play_same_deals(rules, players, games, seed, bots)
    return {
        "rules": rules_name,
        "options": options,
        "players": players,
        "bots": list(bots),
        "games": games,
        "bot": result.bot,
        "bot_rate": _r(result.bot_rate),
        "bot_interval": _r(result.bot_interval),
        "baseline": result.baseline,
        "baseline_rate": _r(result.baseline_rate),
        "edge": _r(result.edge),
        "edge_interval": _r(result.edge_interval),
        "edge_excludes_0": result.edge - result.edge_interval > 0,
        "decision_ms_p50": _r(result.decision_ms[0], 2),
        "decision_ms_p99": _r(result.decision_ms[1], 2),
        "seconds": _r(result.seconds, 1),
    }


def model_speed(seconds: float, seed: int) -> dict[str, Any]:
    """Whole greedy matches through the model and through the engine, alternating."""
    rules = preset("2022")
    rng = random.Random(seed)
    greedy = GreedyBot()
    spent = {"model": 0.0, "engine": 0.0}
    plays = {"model": 0, "engine": 0}
    matches = {"model": 0, "engine": 0}
    clock = time.process_time
    while spent["model"] + spent["engine"] < seconds:
        start = clock()
        for _ in range(50):
            world = World.start(rules, 4, rng)
            play_greedy(world)
            plays["model"] += world.plays
            matches["model"] += 1
        spent["model"] += clock() - start
        start = clock()
        for _ in range(50):
            state, _ = start_match(rules, 4, rng)
            while state.phase != MATCH_OVER:
                seat = acting_seats(state)[0]
                state, _ = apply(state, greedy.choose(view(state, seat), rng), rng)
            plays["engine"] += state.plays
            matches["engine"] += 1
        spent["engine"] += clock() - start
    figures: dict[str, Any] = {
        name: {
            "matches_per_cpu_s": _r(matches[name] / spent[name], 1),
            "plays_per_cpu_s": _r(plays[name] / spent[name], 0),
        }
        for name in spent
    }
    figures["model_vs_engine"] = _r(
        figures["model"]["plays_per_cpu_s"] / figures["engine"]["plays_per_cpu_s"], 2
    )
    # The search's workload: play-outs from the decision points of real matches.
    points = decision_points(rules, 4, 60, seed)
    outs = count = 0
    start = clock()
    for seen, observed in points:
        sampler = WorldSampler(seen, observed)
        me = seen.seat
        assert me is not None
        at_bust = applies_to(seen.rules)
        for _ in range(40):
            world = sampler.sample(rng)
            before = world.plays
            playout(world, me, world.greedy(), at_bust)
            outs += 1
            count += world.plays - before
    used = clock() - start
    # What the budget constant must match: the search's own accounting (plays, copies,
    # worlds dealt, table lookups) per CPU second, over the same decision points.
    units = 0
    start = clock()
    for seen, observed in points:
        plays = [code for code in map(move_code, seen.legal_moves) if code is not None]
        if len(plays) < 2 or len(plays) < len(seen.legal_moves):
            continue
        greedy_code = move_code(greedy.choose(seen, rng))
        assert greedy_code is not None
        units += evaluate(seen, observed, plays, greedy_code, rng, 4000).plays
    search_used = clock() - start
    figures["playouts_from_decisions"] = {
        "playouts_per_cpu_s": _r(outs / used, 0),
        "plays_per_cpu_s": _r(count / used, 0),
        "plays_per_playout": _r(count / outs, 1),
        "search_budget_units_per_cpu_s": _r(units / search_used, 0),
        "search_constant_plays_per_second": PLAYS_PER_SECOND,
    }
    return figures


def decision_points(
    rules: Any, players: int, matches: int, seed: int
) -> list[tuple[PlayerView, Observed]]:
    """Views (with what their seat observed) where a seat had two or more plays."""
    rng = random.Random(seed)
    greedy = GreedyBot()
    points: list[tuple[PlayerView, Observed]] = []
    for _ in range(matches):
        state, events = start_match(rules, players, rng)
        observed = Observed()
        while True:
            observed.observe(events)
            if state.phase == MATCH_OVER:
                break
            seat = acting_seats(state)[0]
            seen = view(state, seat)
            if len(seen.legal_moves) > 1 and seen.discarding is None:
                snapshot = Observed()
                snapshot.__dict__.update(
                    {k: (v[:] if isinstance(v, list) else v) for k, v in vars(observed).items()}
                )
                points.append((seen, snapshot))
            state, events = apply(state, greedy.choose(seen, rng), rng)
    return points


def _error_figures(errors: list[float]) -> dict[str, float]:
    errors = sorted(errors)
    return {
        "abs_error_points_mean": _r(100 * statistics.mean(errors), 2),
        "abs_error_points_p95": _r(100 * errors[int(0.95 * len(errors))], 2),
        "abs_error_points_max": _r(100 * errors[-1], 2),
        "share_within_3_points": _r(sum(e <= 0.03 for e in errors) / len(errors), 3),
    }


def hint_accuracy(
    positions: int, seed: int, budget_s: float = HINT_BUDGET_S, first_bust: bool = True
) -> dict[str, Any]:
    """`advise` at `budget_s` against a 4,000-world reference of the same estimator (the
    same horizon: `first_bust` or the end of the match), and against 4,000 worlds of the
    other horizon (how far stopping at the first bust moves a card's figure)."""
    rng = random.Random(seed)
    points = decision_points(preset("2022"), 4, 40, seed)
    rng.shuffle(points)
    errors: list[float] = []
    other: list[float] = []
    horizon_shift: list[float] = []
    times: list[float] = []
    for seen, observed in points[:positions]:
        at_bust = advise(seen, observed, rng=random.Random(rng.getrandbits(32)), worlds=4000)
        whole = advise(
            seen, observed, rng=random.Random(rng.getrandbits(32)), worlds=4000, first_bust=False
        )
        start = time.process_time()
        quick = advise(seen, observed, rng=random.Random(rng.getrandbits(32)), budget_s=budget_s,
                       first_bust=first_bust)
        times.append(time.process_time() - start)
        for fast, bust, end in zip(quick.cards, at_bust.cards, whole.cards, strict=True):
            same, different = (bust, end) if first_bust else (end, bust)
            errors.append(abs(fast.win - same.win))
            other.append(abs(fast.win - different.win))
            horizon_shift.append(bust.win - end.win)
    times.sort()
    return {
        "positions": positions,
        "cards": len(errors),
        "reference_worlds": 4000,
        "budget_ms": 1000 * budget_s,
        "horizon": "first bust" if first_bust else "end of the match",
        **_error_figures(errors),
        "against_the_other_horizon": _error_figures(other),
        "first_bust_minus_to_the_end_points_mean": _r(100 * statistics.mean(horizon_shift), 2),
        "first_bust_minus_to_the_end_abs_points_mean": _r(
            100 * statistics.mean(map(abs, horizon_shift)), 2
        ),
        "advice_ms_p50": _r(1000 * times[len(times) // 2], 2),
        "advice_ms_p99": _r(1000 * times[int(0.99 * len(times))], 2),
    }


def lockstep(matches: int) -> dict[str, Any]:
    """Engine and model move for move; raises AssertionError on any difference."""
    from playout_lockstep import lockstep_match

    moves = 0
    count = 0
    start = time.process_time()
    for name in PRESET_NAMES:
        for players in range(2, 9):
            for seed in range(matches):
                moves += lockstep_match(preset(name), players, 10_000 + seed)
                count += 1
    return {"matches": count, "moves_compared": moves, "all_equal": True,
            "cpu_s": _r(time.process_time() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200, help="deals per strength figure")
    parser.add_argument("--regress-games", type=int, default=300)
    parser.add_argument("--hint-positions", type=int, default=60)
    parser.add_argument("--hint-budget-ms", type=float, default=1000 * HINT_BUDGET_S,
                        help="the advice's budget (the app's hint key uses 300)")
    parser.add_argument("--hint-to-the-end", action="store_true",
                        help="the advice plays to the end of the match (as the app's hint key)")
    parser.add_argument("--lockstep-matches", type=int, default=150,
                        help="matches per preset and player count")
    parser.add_argument("--seconds", type=float, default=6.0, help="model speed run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=",".join(SECTIONS))
    args = parser.parse_args()
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    out: dict[str, Any] = {
        "bench": "bots",
        "hard_budget_ms": 1000 * DEFAULT_BUDGET_S,
        "python": platform.python_version(),
    }
    if "model" in only:
        out["model"] = model_speed(args.seconds, args.seed)
    if "strength" in only:
        out["strength"] = _same_deal("2022", 4, args.games, args.seed,
                                     ("hard", "greedy", "greedy", "greedy"))
    if "headsup" in only:
        out["headsup"] = _same_deal("2022", 2, args.games, args.seed, ("hard", "greedy"))
    if "regress" in only:
        n = args.regress_games
        out["regress"] = [
            _same_deal("1980", 2, n, args.seed, ("hard", "greedy")),
            _same_deal("1980", 4, n // 2, args.seed, ("hard", "greedy", "greedy", "greedy")),
            _same_deal("1980", 4, n // 2, args.seed, ("hard", "greedy", "greedy", "greedy"),
                       scoring="points-lowest"),
            _same_deal("1980-set99", 2, n, args.seed, ("hard", "greedy")),
            _same_deal("2022", 4, n, args.seed, ("hard", "random", "random", "random")),
        ]
        vs_random = play_matches(preset("2022"), 4, n, args.seed, ("greedy", "random"))
        out["regress_greedy_vs_random"] = {
            "greedy_rate": _r(vs_random.win_rates["greedy"]),
            "interval": _r(vs_random.intervals["greedy"]),
        }
    if "hints" in only:
        out["hints"] = hint_accuracy(args.hint_positions, args.seed, args.hint_budget_ms / 1000,
                                     first_bust=not args.hint_to_the_end)
    if "lockstep" in only:
        out["lockstep"] = lockstep(args.lockstep_matches)
    out["load_average_1min"] = _r(os.getloadavg()[0], 2)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
