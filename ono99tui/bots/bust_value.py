"""What a seat's chance to win the match is worth when somebody has just busted out.

In single scoring (2022) a match is a chain of eliminations, and a play-out to the end of
the match spends most of its plays, and most of its noise, after the first bust: which
card the seat plays now shows mostly in who busts first. So the search stops a play-out at
the first bust after its move with three or more players in: the seat that busted scores
0, a survivor the mean result of greedy self-play from positions like it (`bust_value`).

"Like it" is a few facts of the position that carry most of what decides the rest of the
match (measured by `measure`: a survivor's win chance ranges from about 8% to 63% across
them): how many are in (`k`), how many turns before this seat plays (`d`, 0 = its turn),
how many −10s and how many always-playable cards (0, −10, Reverse, Play 2, Hold) it holds,
and how many the other survivors hold between them. The estimate is exact on average over
greedy self-play; from one position it may be off by a few points (docs/BOTS.md measures
the hint figures both ways).

The table (`bust_values.json`, read on first use) is produced by
`python -m ono99tui.bots.bust_value --write` from greedy self-play in the play-out model,
for the 2022 rules with 3 to 8 players; `applies_to(rules)` says whether a world's rules
are those (under other rules play-outs run to the end of the match).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import random
from collections.abc import Iterator
from pathlib import Path

from ono99tui.bots.playout import DISCARDING, MINUS_TEN, PLAYING, World
from ono99tui.game import Rules, Scoring, preset

# Cards that are playable at any total: what carries a hand through the end of a match.
ALWAYS_PLAYABLE = tuple(card in (0, 11, 12, 13, 14) for card in range(16))
# A finer key needs at least this many self-play results behind it; else a coarser one.
MIN_SAMPLES = 100
# Seats per match the table is measured at, and self-play matches per seat count.
TABLE_SEATS = range(3, 9)
TABLE_RULES = "2022"
TABLE_PATH = Path(__file__).with_name("bust_values.json")
DEFAULT_MATCHES = 100_000
DEFAULT_SEED = 99

Values = dict[tuple[int, ...], tuple[float, int]]


@functools.cache
def table() -> Values:
    """The measured table (read once)."""
    data = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
    return {tuple(row[:-2]): (row[-2], row[-1]) for row in data["values"]}


def _normalized(rules: Rules) -> Rules:
    """The rules with the options that do not change play after a bust set to defaults."""
    return dataclasses.replace(
        rules,
        name="",
        scoring=Scoring.SINGLE,
        target=100,
        tokens=3,
        late_draw_penalty=False,
        reveal_eliminated=True,
    )


_MEASURED_ON = _normalized(preset(TABLE_RULES))


def applies_to(rules: Rules) -> bool:
    """Whether the table was measured under `rules` (single scoring, the 2022 cards)."""
    return rules.scoring == Scoring.SINGLE and _normalized(rules) == _MEASURED_ON


def features(world: World, me: int) -> tuple[int, int, int, int, int, int]:
    """(k, d, my −10s, my always-playable cards, the others' always-playable cards, the
    others' −10s) of survivor `me` in `world`, whose turn seat is about to play."""
    alive = world.alive
    hands = world.hands
    seats = world.seats
    direction = world.direction
    k = 0
    d = 0
    others_safe = 0
    others_minus = 0
    seat = world.turn
    passed_me = False
    for _ in range(seats):
        if alive[seat]:
            k += 1
            if seat == me:
                passed_me = True
            else:
                if not passed_me:
                    d += 1
                for card in hands[seat]:
                    if ALWAYS_PLAYABLE[card]:
                        others_safe += 1
                        if card == MINUS_TEN:
                            others_minus += 1
        seat = (seat + direction) % seats
    mine = hands[me]
    my_safe = 0
    my_minus = 0
    for card in mine:
        if ALWAYS_PLAYABLE[card]:
            my_safe += 1
            if card == MINUS_TEN:
                my_minus += 1
    return k, d, my_minus, my_safe, others_safe, others_minus


def bust_value(world: World, me: int) -> float:
    """Survivor `me`'s chance to win from `world` (just after a bust), from the table: the
    finest key with enough self-play behind it, else 1/k."""
    key = features(world, me)
    values = table()
    entry = values.get(key)
    if entry is not None and entry[1] >= MIN_SAMPLES:
        return entry[0]
    entry = values.get(key[:5])
    if entry is not None and entry[1] >= MIN_SAMPLES:
        return entry[0]
    entry = values.get((key[0], key[1], key[3]))
    if entry is not None and entry[1] >= MIN_SAMPLES:
        return entry[0]
    return 1.0 / key[0]


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
        "about": "python -m ono99tui.bots.bust_value --write; key (k, d, my -10s, my"
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
    parser = argparse.ArgumentParser(description="Measure the bust value table.")
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
