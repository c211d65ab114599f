"""The table's journal: each match's seed and applied moves, enough to replay it exactly.

The table core (`ono99tui.host.core`) does not keep the journal: among its outputs it emits
one record per fact (`MatchDealt`, `MovePlayed`, `SeatResigned`, `MatchWon`) and its
adapter hands each to `MemoryJournal.write`, the one place that decides where the journal
lives.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, NamedTuple

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


# The journal's entries, as the table core emits them among its outputs. NamedTuples: the
# cheapest immutable values to build, and the core builds one per move.


class MatchDealt(NamedTuple):
    """A match was dealt: the journal opens a new `MatchRecord`."""

    seed: int
    rules: dict[str, Any]
    names: tuple[str, ...]


class MovePlayed(NamedTuple):
    """A move was applied (its wire map)."""

    move: dict[str, Any]


class SeatResigned(NamedTuple):
    """The table made a seat resign (the abandon policy "eliminate")."""

    seat: int


class MatchWon(NamedTuple):
    """The match is over; these seats won it."""

    winners: tuple[int, ...]


JournalRecord = MatchDealt | MovePlayed | SeatResigned | MatchWon
JOURNAL_RECORDS = (MatchDealt, MovePlayed, SeatResigned, MatchWon)


class MemoryJournal:
    """The journal kept in memory: one `MatchRecord` per match dealt, newest last."""

    def __init__(self) -> None:
        self.records: list[MatchRecord] = []

    def write(self, entry: JournalRecord) -> None:
        """Add one entry to the journal."""
        if isinstance(entry, MovePlayed):
            self.records[-1].moves.append(entry.move)
        elif isinstance(entry, SeatResigned):
            self.records[-1].moves.append(resign_record(entry.seat))
        elif isinstance(entry, MatchDealt):
            self.records.append(MatchRecord(seed=entry.seed, rules=entry.rules,
                                            names=entry.names))
        else:
            self.records[-1].winners = entry.winners


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
