"""Headless matches between bots: the engine of `ono99 sim`."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ono99tui.bots import make_bot
from ono99tui.game import MATCH_OVER, Rules, acting_seats, apply, start_match, view


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """What a series of matches showed. Shared wins count as a fraction per winner."""

    rules: str
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]  # the bot of each seat
    wins: dict[str, float]  # per bot name
    win_rates: dict[str, float]  # wins / games, per bot name
    seat_shares: dict[str, float]  # the share of seats each bot held (a fair win rate)
    mean_turns: float  # plays per match
    mean_rounds: float
    seconds: float
    matches_per_s: float


def play_matches(
    rules: Rules, players: int, games: int, seed: int, bot_names: tuple[str, ...]
) -> ArenaResult:
    """Play `games` full matches; seat i gets bot_names[i % len(bot_names)].

    Each match has its own engine and bot generators drawn from `seed`, so any single
    match can be replayed. Bots only ever see `view(state, seat)` and, through
    `observe`, the public events of every move.
    """
    seat_bots = tuple(bot_names[seat % len(bot_names)] for seat in range(players))
    bots = [make_bot(name) for name in seat_bots]
    master = random.Random(seed)
    wins = {name: 0.0 for name in bot_names}
    turns = rounds = 0
    start = time.perf_counter()
    for _ in range(games):
        rng = random.Random(master.getrandbits(64))
        bot_rng = random.Random(master.getrandbits(64))
        state, events = start_match(rules, players, rng)
        while True:
            for bot in bots:
                bot.observe(events)
            if state.phase == MATCH_OVER:
                break
            seat = acting_seats(state)[0]
            state, events = apply(state, bots[seat].choose(view(state, seat), bot_rng), rng)
        for winner in state.winners:
            wins[seat_bots[winner]] += 1 / len(state.winners)
        turns += state.plays
        rounds += state.round_no
    seconds = time.perf_counter() - start
    return ArenaResult(
        rules=rules.name,
        players=players,
        games=games,
        seed=seed,
        bots=seat_bots,
        wins=wins,
        win_rates={name: count / games for name, count in wins.items()},
        seat_shares={name: seat_bots.count(name) / players for name in bot_names},
        mean_turns=turns / games,
        mean_rounds=rounds / games,
        seconds=seconds,
        matches_per_s=games / seconds if seconds > 0 else float("inf"),
    )
