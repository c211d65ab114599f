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
`python -m ono99tui.bots.make_bust_values --write` from greedy self-play in the play-out model,
for the 2022 rules with 3 to 8 players; `applies_to(rules)` says whether a world's rules
are those (under other rules play-outs run to the end of the match).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from pathlib import Path

from ono99tui.bots.playout import MINUS_TEN, World
from ono99tui.game import Rules, Scoring, preset

# Cards that are playable at any total: what carries a hand through the end of a match.
ALWAYS_PLAYABLE = tuple(card in (0, 11, 12, 13, 14) for card in range(16))
# A finer key needs at least this many self-play results behind it; else a coarser one.
MIN_SAMPLES = 100
# The rules the table is measured under, and where it is kept.
TABLE_RULES = "2022"
TABLE_PATH = Path(__file__).with_name("bust_values.json")

Values = dict[tuple[int, ...], tuple[float, int]]

log = logging.getLogger(__name__)


class TableUnreadable(ValueError):
    """The table file is missing or damaged (the search then plays to the end)."""


@functools.cache
def table() -> Values:
    """The measured table (read once). Raises TableUnreadable naming the file and the
    fault."""
    try:
        data = json.loads(TABLE_PATH.read_text(encoding="utf-8"))
        return {
            tuple(int(part) for part in row[:-2]): (float(row[-2]), int(row[-1]))
            for row in data["values"]
        }
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        raise TableUnreadable(f"{TABLE_PATH}: {type(error).__name__}: {error}") from None


@functools.cache
def table_readable() -> bool:
    """Whether the table could be read; says why once when it could not."""
    try:
        table()
    except TableUnreadable as error:
        log.warning("bust value table not read, play-outs run to the end of the match: %s",
                    error)
        return False
    return True


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
    """Whether the table was measured under `rules` (single scoring, the 2022 cards) and
    could be read (a missing or damaged file only costs the search its precision)."""
    return (
        rules.scoring == Scoring.SINGLE
        and _normalized(rules) == _MEASURED_ON
        and table_readable()
    )


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
