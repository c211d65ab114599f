"""A coach's review: how long it takes per match, and whether it slows a table beside it.

    python bench/review.py [--matches N] [--samples N] [--budget-ms MS]

Prints ONE JSON object:
- `review_per_match`: for N 4-seat 2022 matches of greedy bots (seeds 1..N), seat 0's
  review (`bots.review.review_decisions` at the budget, the app's default 300 ms of model
  plays): plays reviewed, CPU and wall seconds per match (p50 / max), and per play;
- `move_to_own_view_us`: bench/latency.py's own-view round trip (a TableClient plays at a
  2-seat table whose other seat is a host bot) in three conditions, taken in alternating
  blocks of 50 across the same seconds: `alone` (nothing else),
  `review_thread_in_table_process` (a review searching on a worker thread of the table's
  own process: what the host's app would do with a plain thread, its table sharing the
  interpreter's lock), `review_apart_from_table_process` (the same thread waiting on
  `review_apart`'s child process instead: what the app and line mode do) and
  `review_in_other_process` (a review in another program: a player who joined);
  each p50 / p99 / max / mean in microseconds, and the ratios to `alone`.

The table runs in a child process, as a host does (bench/latency.py's ChildServer), with
a review thread that starts and stops between blocks on a word on its stdin.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import latency  # bench/latency.py: the samplers and the table's child process

from ono99tui.bots import make_bot
from ono99tui.bots.review import (
    REVIEW_BUDGET_S,
    Decision,
    decisions_in_replay,
    review_decision,
    review_decisions,
)
from ono99tui.bots.review_apart import review_apart
from ono99tui.game import MATCH_OVER, acting_seats, apply, preset, start_match, view
from ono99tui.game.codec import move_to_wire
from ono99tui.host.journal.history import ReplayStep

BLOCK = 50
# The budget the children review at (the parent's --budget-ms).
BUDGET_MS = [REVIEW_BUDGET_S * 1000]


def greedy_match(seed: int, seats: int = 4) -> list[ReplayStep]:
    """A 2022 match of greedy bots, as a journal's replay gives it."""
    rng = random.Random(seed)
    greedy = make_bot("greedy")
    state, events = start_match(preset("2022"), seats, rng)
    steps = [ReplayStep(0, None, None, events, state)]
    while state.phase != MATCH_OVER:
        seat = acting_seats(state)[0]
        move = greedy.choose(view(state, seat), rng)
        state, events = apply(state, move, rng)
        steps.append(ReplayStep(len(steps), seat, move_to_wire(move), events, state))
    return steps


def review_times(matches: int, budget_s: float) -> dict[str, Any]:
    """Seat 0's review of each match: CPU and wall seconds, plays reviewed."""
    cpu, wall, plays, decisions = [], [], [], []
    for seed in range(1, matches + 1):
        chosen = decisions_in_replay(greedy_match(seed), 0)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        review = review_decisions(chosen, budget_s=budget_s, seed=seed)
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
        plays.append(len(review.plays))
        decisions.append(len(chosen))
    reviewed = sum(plays)
    return {
        "matches": matches,
        "budget_ms_per_play": round(budget_s * 1000, 1),
        "plays_per_match_mean": round(statistics.fmean(decisions), 1),
        "plays_with_a_choice_per_match_mean": round(statistics.fmean(plays), 1),
        "cpu_s_per_match": {"p50": round(statistics.median(cpu), 2),
                            "max": round(max(cpu), 2)},
        "wall_s_per_match": {"p50": round(statistics.median(wall), 2),
                             "max": round(max(wall), 2)},
        "cpu_ms_per_play_reviewed": round(sum(cpu) / max(1, reviewed) * 1000, 1),
    }


class Reviewing:
    """A review that runs on a thread, over and over, until stopped: searching on that
    thread itself (`apart` False), or waiting on `review_apart`'s child process, as the
    app and line mode do."""

    def __init__(self, budget_s: float) -> None:
        self.budget_s = budget_s
        self.decisions: list[Decision] = decisions_in_replay(greedy_match(1), 0)
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None
        self.reviewed = 0

    def run(self) -> None:
        number = 0
        while not self.stop.is_set():
            decision = self.decisions[number % len(self.decisions)]
            review_decision(decision, number, budget_s=self.budget_s)
            number += 1
            self.reviewed += 1

    def run_apart(self) -> None:
        while not self.stop.is_set():
            review_apart(self.decisions, budget_s=self.budget_s, cancelled=self.stop.is_set)
            self.reviewed += 1

    def start(self, *, apart: bool = False) -> None:
        self.stop.clear()
        self.thread = threading.Thread(target=self.run_apart if apart else self.run,
                                       daemon=True)
        self.thread.start()

    def halt(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join()


async def serve(budget_s: float) -> None:
    """Child process: the 2-seat table, and a review thread turned on and off by the words
    "on" (searching on the thread), "apart" (in a child process) and "off" on stdin (each
    answered "ok"); EOF ends it."""
    loop = asyncio.get_running_loop()
    port, _table = await latency.start_server("table2")
    reviewing = Reviewing(budget_s)
    print(port, flush=True)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        word = line.decode().strip()
        if word == "on":
            reviewing.start()
        elif word == "apart":
            reviewing.start(apart=True)
            await asyncio.sleep(1.5)  # the child's start-up (imports) done: reviewing now
        elif word == "off":
            await asyncio.to_thread(reviewing.halt)
        print("ok", flush=True)


def burn(budget_s: float) -> None:
    """Child process: review over and over until killed (a player's app elsewhere)."""
    Reviewing(budget_s).run()


class TableWithReview:
    """The table's child process, with its review thread's switch."""

    async def __aenter__(self) -> int:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve", "--budget-ms", str(BUDGET_MS[0]),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert self.process.stdout is not None
        return int(await self.process.stdout.readline())

    async def switch(self, word: str) -> None:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{word}\n".encode())
        await self.process.stdin.drain()
        assert (await self.process.stdout.readline()).strip() == b"ok"

    async def __aexit__(self, *exc_info: object) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


async def latency_samples(samples: int) -> dict[str, list[float]]:
    """Own-view round trips in the three conditions, in alternating blocks (the first
    round of blocks warms up and is not kept)."""
    conditions = ("alone", "review_thread_in_table_process", "review_apart_from_table_process",
                  "review_in_other_process")
    times: dict[str, list[float]] = {name: [] for name in conditions}
    table = TableWithReview()
    port = await table.__aenter__()
    sampler = latency.OwnViewSampler()
    try:
        await sampler.open(port)
        for round_no in range(1 + -(-samples // BLOCK)):
            for name in conditions:
                other: asyncio.subprocess.Process | None = None
                if name == "review_thread_in_table_process":
                    await table.switch("on")
                elif name == "review_apart_from_table_process":
                    await table.switch("apart")
                elif name == "review_in_other_process":
                    other = await asyncio.create_subprocess_exec(
                        sys.executable, __file__, "--burn", "--budget-ms", str(BUDGET_MS[0]))
                    await asyncio.sleep(1.0)  # its imports done: reviewing from here on
                block = [await sampler.sample() for _ in range(BLOCK)]
                if name.endswith("table_process"):
                    await table.switch("off")
                if other is not None:
                    other.kill()  # the child this run started, by its own handle
                    await other.wait()
                if round_no > 0:
                    times[name].extend(block)
    finally:
        await sampler.close()
        await table.__aexit__(None, None, None)
    return {name: values[:samples] for name, values in times.items()}


def main(matches: int, samples: int, budget_s: float) -> dict[str, Any]:
    per_match = review_times(matches, budget_s)
    times = asyncio.run(latency_samples(samples))
    shown = {name: latency.percentiles(values) for name, values in times.items()}
    alone = shown["alone"]
    return {
        "benchmark": "a coach's review: time per match, and the table's move latency beside it",
        "load_average_1min": round(os.getloadavg()[0], 2),
        "review_per_match": per_match,
        "move_to_own_view_us": shown,
        "p50_over_alone": {name: round(value["p50"] / alone["p50"], 2)
                           for name, value in shown.items()},
        "p99_over_alone": {name: round(value["p99"] / alone["p99"], 2)
                           for name, value in shown.items()},
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--budget-ms", type=float, default=REVIEW_BUDGET_S * 1000)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--burn", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    budget = arguments.budget_ms / 1000
    BUDGET_MS[0] = arguments.budget_ms
    if arguments.serve:
        asyncio.run(serve(budget))
    elif arguments.burn:
        burn(budget)
    else:
        print(json.dumps(main(arguments.matches, arguments.samples, budget)))
