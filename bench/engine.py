"""Engine speed: 4-player `2022` matches per second with random bots, on one core.

Prints ONE JSON object: matches/s and turns/s of full play-outs through the public API
(view → bot → apply for every move), the mean cost of `legal_moves`, `apply` and `view`
timed call by call inside real play-outs, and, measured in the same run, the same figures for
the minimal flat-list play-out in bench/flat_baseline.py.

    python bench/engine.py [--seconds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import flat_baseline  # noqa: E402

from ono99tui.bots import make_bot  # noqa: E402
from ono99tui.game import MATCH_OVER, acting_seats, apply, legal_moves, new_match, preset, view  # noqa: E402

PLAYERS = 4
TARGET_MATCHES_PER_S = 1500


def engine_playouts(seconds: float, seed: int) -> tuple[int, int, float]:
    """Play whole matches for about `seconds`; return (matches, moves, elapsed)."""
    rules = preset("2022")
    bot = make_bot("random")
    rng = random.Random(seed)
    matches = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            state = new_match(rules, PLAYERS, rng)
            while state.phase != MATCH_OVER:
                seat = acting_seats(state)[0]
                state, _events = apply(state, bot.choose(view(state, seat), rng), rng)
                moves += 1
            matches += 1
    return matches, moves, time.perf_counter() - start


def baseline_playouts(seconds: float, seed: int) -> tuple[int, int, float]:
    """The same for the flat-list play-out."""
    rng = random.Random(seed)
    matches = plays = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            plays += flat_baseline.play_match(rng, PLAYERS)
            matches += 1
    return matches, plays, time.perf_counter() - start


def mean_us(matches: int, seed: int) -> dict[str, float]:
    """Mean microseconds per call of legal_moves, view and apply, timed inside real
    play-outs (each call timed alone; the cost of reading the clock is subtracted)."""
    rules = preset("2022")
    bot = make_bot("random")
    rng = random.Random(seed)
    clock = time.perf_counter_ns
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

    matches, moves, elapsed = engine_playouts(args.seconds, args.seed)
    base_matches, base_plays, base_elapsed = baseline_playouts(args.seconds, args.seed)
    per_call = mean_us(max(200, matches // 4), args.seed + 1)
    engine_rate = matches / elapsed
    baseline_rate = base_matches / base_elapsed
    print(
        json.dumps(
            {
                "bench": "engine",
                "rules": "2022",
                "players": PLAYERS,
                "bots": "random",
                "matches": matches,
                "matches_per_s": round(engine_rate, 1),
                "turns_per_s": round(moves / elapsed, 1),
                "mean_turns_per_match": round(moves / matches, 2),
                "mean_us": per_call,
                "target_matches_per_s": TARGET_MATCHES_PER_S,
                "meets_target": engine_rate >= TARGET_MATCHES_PER_S,
                "baseline": {
                    "name": "flat-list play-out (bench/flat_baseline.py)",
                    "matches": base_matches,
                    "matches_per_s": round(baseline_rate, 1),
                    "turns_per_s": round(base_plays / base_elapsed, 1),
                    "mean_turns_per_match": round(base_plays / base_matches, 2),
                },
                "engine_vs_baseline": round(engine_rate / baseline_rate, 3),
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
