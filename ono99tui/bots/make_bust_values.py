"""Measure the bust value table (`bust_value.py`) by greedy self-play in the play-out model.

    python -m ono99tui.bots.make_bust_values [--matches N] [--seed S] [--write]

For every bust a match outlives, each survivor's key (`bust_value.features`) and whether it
went on to win; the table keeps each key's mean (and of its coarser forms). About 90 s of
CPU with the defaults; deterministic given the seed.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator

from ono99tui.bots.bust_value import MIN_SAMPLES, TABLE_PATH, TABLE_RULES, Values, features
from ono99tui.bots.playout import DISCARDING, PLAYING, World
from ono99tui.game import preset

# Seats per match the table is measured at, and self-play matches per seat count.
TABLE_SEATS = range(3, 9)
DEFAULT_MATCHES = 100_000
DEFAULT_SEED = 99


def _keys(key: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The table keys a position counts towards: the full one and its two coarser ones."""
    yield key
    yield key[:5]
    yield key[0], key[1], key[3]


def measure(matches: int, seed: int) -> Values:
    """Greedy self-play in the model, `matches` per seat count of TABLE_SEATS: for every
    bust the match outlives, each survivor's key and whether it went on to win."""
    rules = preset(TABLE_RULES)
    rng = random.Random(seed)
    sums: dict[tuple[int, ...], list[float]] = {}
    for seats in TABLE_SEATS:
        for _ in range(matches):
            world = World.start(rules, seats, rng)
            positions: list[tuple[int, tuple[int, ...]]] = []
            seen_busts = 0
            while world.phase <= DISCARDING:
                world.step()
                if len(world.busts) > seen_busts:
                    seen_busts = len(world.busts)
                    if world.phase == PLAYING:
                        positions.extend(
                            (seat, features(world, seat))
                            for seat in range(seats)
                            if world.alive[seat]
                        )
            winners = world.winners
            for seat, key in positions:
                won = 1.0 / len(winners) if seat in winners else 0.0
                for part in _keys(key):
                    entry = sums.setdefault(part, [0.0, 0.0])
                    entry[0] += won
                    entry[1] += 1
    return {key: (total / count, int(count)) for key, (total, count) in sums.items()}


def table_json(values: Values, matches: int, seed: int) -> str:
    """The text of bust_values.json for `values` (keys too rare to be looked up left out)."""
    rows = [
        [*key, round(mean, 4), count]
        for key, (mean, count) in sorted(values.items(), key=lambda item: (len(item[0]), item[0]))
        if count >= MIN_SAMPLES
    ]
    head = {
        "about": "python -m ono99tui.bots.make_bust_values --write; key (k, d, my -10s, my"
        " always-playable cards, others' always-playable cards, others' -10s), its first"
        " five, or (k, d, my always-playable cards); then mean win chance and positions",
        "rules": TABLE_RULES,
        "seats": [TABLE_SEATS.start, TABLE_SEATS.stop - 1],
        "matches": matches,
        "seed": seed,
    }
    body = ",\n".join(json.dumps(row) for row in rows)
    return json.dumps(head)[:-1] + ', "values": [\n' + body + "\n]}\n"


def main() -> None:
    """Measure the table and print or write it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=DEFAULT_MATCHES, help="per seat count")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--write", action="store_true", help="rewrite bust_values.json")
    args = parser.parse_args()
    source = table_json(measure(args.matches, args.seed), args.matches, args.seed)
    if args.write:
        TABLE_PATH.write_text(source, encoding="utf-8")
    else:
        print(source, end="")


if __name__ == "__main__":
    main()
