"""A table's duplicate set in play (docs/DUPLICATE.md): the set's seed, its players in the
set's order, and the places of the rotations played so far; and its wire form, which the
journal keeps with each match of the set (the header: the set as it stood before the deal;
the end: after it) and the lobby shows.

The rules of the set (the rotation, the fixed deals, the comparison) are the engine's,
`ono99tui.game.duplicate`; this is the table's bookkeeping around them. Sans-IO.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ono99tui.game import MAX_PLAYERS, MIN_PLAYERS
from ono99tui.game.duplicate import Comparison, compare, rotation_seating


class SetWireError(ValueError):
    """A duplicate set's wire form (in a journal) does not describe a set."""


@dataclass
class DuplicateSet:
    """A set being played at a table."""

    seed: int
    players: tuple[str, ...]
    places: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def size(self) -> int:
        """Rotations in the set (one per player)."""
        return len(self.players)

    @property
    def rotation(self) -> int:
        """The rotation dealt next (or being played): the number of rotations finished."""
        return len(self.places)

    @property
    def complete(self) -> bool:
        """Every rotation has been played."""
        return len(self.places) >= self.size

    def seating(self) -> tuple[str, ...]:
        """Who sits in each seat in the rotation dealt next."""
        return rotation_seating(self.players, self.rotation)

    def fits(self, names: Sequence[str]) -> bool:
        """Can the set go on with these players (the same ones, in any seats)?"""
        return not self.complete and sorted(names) == sorted(self.players)

    def finished_rotation(self, places: Sequence[int]) -> None:
        """The rotation being played is over, with these places by seat."""
        if self.complete:
            raise ValueError("the set is complete")
        self.places.append(tuple(places))

    def comparison(self) -> Comparison:
        """The set compared over the rotations played (at least one)."""
        return compare(self.players, self.places)

    def to_wire(self) -> dict[str, Any]:
        """The set's journal form."""
        return {"seed": self.seed, "players": list(self.players),
                "places": [list(row) for row in self.places]}

    @classmethod
    def from_wire(cls, value: Any) -> DuplicateSet:
        """A set from its journal form; raises SetWireError."""
        if not isinstance(value, Mapping):
            raise SetWireError("a duplicate set is a map")
        seed, players, places = value.get("seed"), value.get("players"), value.get("places")
        if type(seed) is not int:
            raise SetWireError("a duplicate set's seed is a whole number")
        if (not isinstance(players, list | tuple) or not MIN_PLAYERS <= len(players)
                <= MAX_PLAYERS or not all(isinstance(name, str) for name in players)
                or len(set(players)) != len(players)):
            raise SetWireError("a duplicate set's players are 2 to 8 distinct names")
        n = len(players)
        if (not isinstance(places, list | tuple) or len(places) > n or not all(
                isinstance(row, list | tuple) and len(row) == n
                and all(type(place) is int and 1 <= place <= n for place in row)
                for row in places)):
            raise SetWireError("a duplicate set's places are one row of places per rotation")
        return cls(seed=seed, players=tuple(players),
                   places=[tuple(row) for row in places])


def comparison_to_wire(comparison: Comparison) -> dict[str, Any]:
    """A set's comparison for the lobby's results (`results.duplicate`, PROTOCOL.md)."""
    return {
        "rotations": comparison.rotations,
        "of": len(comparison.players),
        "complete": comparison.complete,
        "scores": [{"name": score.name, "edge": round(score.edge, 4),
                    "mean_place": round(score.mean_place, 4)}
                   for score in comparison.scores],
        "order": [list(group) for group in comparison.order()],
        "hands": [{"hand": hand.hand, "places": [[name, place] for name, place in hand.places],
                   "best": list(hand.best)} for hand in comparison.hands],
    }
