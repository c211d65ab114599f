"""The one interface every computer player implements."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol

from ono99tui.game import Event, Move, PlayerView


class Bot(Protocol):
    """A computer player. It sees only its seat's view and the public events, never the
    full state.

    Whoever runs a bot (the arena, the table core) passes it every batch of events `apply`
    reports, in order, through `observe` (the opening deal's included), then asks `choose`
    with the view of the state those events led to. A bot that needs no memory keeps the
    default `observe`, which does nothing; bots that subclass `Bot` inherit it.
    """

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """One of `view.legal_moves` (which is never empty when a bot is asked)."""
        ...

    def observe(self, events: Iterable[Event]) -> None:
        """Public events, in order as they happened (a new deal starts with RoundDealt)."""
        return None
