"""Engine speed: 4-player `2022` matches per second with random bots, on one core.

Prints ONE JSON object: matches/s and turns/s of full play-outs through the public API
(acting_seats → view → bot → apply for every move), by wall clock and per CPU-second, the
mean cost of `legal_moves`, `view` and `apply` timed call by call inside real play-outs,
and, measured in the same run in alternating batches, the same figures for the minimal
flat-list play-out in bench/flat_baseline.py. The load average is printed too: on a
shared machine the wall-clock figures fall with it, the CPU-time ones much less.

    python bench/engine.py [--seconds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import flat_baseline

from ono99tui.bots import Bot, make_bot
from ono99tui.game import (
    MATCH_OVER,
    Rules,
    acting_seats,
    apply,
    legal_moves,
    new_match,
    preset,
    view,
)

PLAYERS = 4
TARGET_MATCHES_PER_S = 1500


Batch = tuple[int, int]  # (matches, turns) played by one call


def engine_batch(rules: Rules, bot: Bot, rng: random.Random, matches: int) -> Batch:
    """`matches` whole matches through the public API."""
    moves = 0
    for _ in range(matches):
        state = new_match(rules, PLAYERS, rng)
        while state.phase != MATCH_OVER:
            seat = acting_seats(state)[0]
            state, _events = apply(state, bot.choose(view(state, seat), rng), rng)
            moves += 1
    return matches, moves


def baseline_batch(rng: random.Random, matches: int) -> Batch:
    """`matches` flat-list play-outs."""
    return matches, sum(flat_baseline.play_match(rng, PLAYERS) for _ in range(matches))


def race(seconds: float, seed: int) -> dict[str, dict[str, float]]:
    """Alternate short batches of engine and baseline play-outs for about `seconds` each,
    so both meet the same machine load; time both by wall clock and by process CPU time
    (the CPU figure is what one core does when other processes share the machine)."""
    rules = preset("2022")
    bot = make_bot("random")
    engine_rng = random.Random(seed)
    baseline_rng = random.Random(seed)
    totals = {name: [0, 0, 0.0, 0.0] for name in ("engine", "baseline")}
    runners = {
        "engine": lambda: engine_batch(rules, bot, engine_rng, 40),
        "baseline": lambda: baseline_batch(baseline_rng, 200),
    }
    while totals["engine"][2] < seconds or totals["baseline"][2] < seconds:
        for name, run in runners.items():
            wall, cpu = time.perf_counter(), time.process_time()
            matches, turns = run()
            total = totals[name]
            total[0] += matches
            total[1] += turns
            total[2] += time.perf_counter() - wall
            total[3] += time.process_time() - cpu
    return {
        name: {
            "matches": matches,
            "matches_per_s": round(matches / wall, 1),
            "matches_per_cpu_s": round(matches / cpu, 1),
            "turns_per_s": round(turns / wall, 1),
            "mean_turns_per_match": round(turns / matches, 2),
        }
        for name, (matches, turns, wall, cpu) in totals.items()
    }


def mean_us(matches: int, seed: int) -> dict[str, float]:
    """Mean microseconds per call of legal_moves, view and apply, timed inside real
    play-outs (each call timed alone by thread CPU time; the clock's own cost is
    subtracted)."""
    rules = preset("2022")
    bot = make_bot("random")
    rng = random.Random(seed)
    # Thread CPU time: a call is not charged for the time the process waits for a core.
    clock = time.thread_time_ns
    overhead = min(-(clock() - clock()) for _ in range(2000))
    spent = {"legal_moves": 0, "view": 0, "apply": 0}
    calls = 0
    for _ in range(matches):
        state = new_match(rules, PLAYERS, rng)
        while state.phase != MATCH_OVER:
            seat = acting_seats(state)[0]
            t0 = clock()
            legal_moves(state, seat)
            t1 = clock()
            seen = view(state, seat)
            t2 = clock()
            move = bot.choose(seen, rng)
            t3 = clock()
            state, _events = apply(state, move, rng)
            t4 = clock()
            spent["legal_moves"] += t1 - t0 - overhead
            spent["view"] += t2 - t1 - overhead
            spent["apply"] += t4 - t3 - overhead
            calls += 1
    return {name: round(total / calls / 1000, 3) for name, total in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per play-out run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    figures = race(args.seconds, args.seed)
    engine, baseline = figures["engine"], figures["baseline"]
    per_call = mean_us(max(200, int(engine["matches"]) // 4), args.seed + 1)
    print(
        json.dumps(
            {
                "bench": "engine",
                "rules": "2022",
                "players": PLAYERS,
                "bots": "random",
                **engine,
                "mean_us": per_call,
                "target_matches_per_s": TARGET_MATCHES_PER_S,
                "meets_target_wall": engine["matches_per_s"] >= TARGET_MATCHES_PER_S,
                "meets_target_cpu": engine["matches_per_cpu_s"] >= TARGET_MATCHES_PER_S,
                "baseline": {"name": "flat-list play-out (bench/flat_baseline.py)", **baseline},
                "engine_vs_baseline": round(engine["matches_per_s"] / baseline["matches_per_s"], 3),
                "load_average_1min": round(os.getloadavg()[0], 2),
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
