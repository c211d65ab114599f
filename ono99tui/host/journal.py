"""The table's journal: each match's seed and applied moves, enough to replay it exactly."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ono99tui.game import State, apply, resign, start_match
from ono99tui.game.codec import move_from_wire, rules_from_wire


RESIGN = "resign"


def resign_record(seat: int) -> dict[str, Any]:
    """The journal entry of a seat that resigned."""
    return {"kind": RESIGN, "seat": seat}


@dataclass
class MatchRecord:
    """One match: the deal's seed, the rules and seat names, and every move applied.

    A seat the table made resign is recorded among the moves as {"kind": "resign", "seat": i}.
    """

    seed: int
    rules: dict[str, Any]
    names: tuple[str, ...]
    moves: list[dict[str, Any]] = field(default_factory=list)
    winners: tuple[int, ...] = ()


def replay(record: MatchRecord) -> State:
    """The state the recorded moves lead to; raises MoveError if any was not legal."""
    rng = random.Random(record.seed)
    state, _ = start_match(rules_from_wire(record.rules), len(record.names), rng)
    for wire in record.moves:
        if wire.get("kind") == RESIGN:
            state, _ = resign(state, wire["seat"], rng)
        else:
            state, _ = apply(state, move_from_wire(wire), rng)
    return state
