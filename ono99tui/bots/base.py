"""The one interface every computer player implements."""

from __future__ import annotations

import random
from typing import Protocol

from ono99tui.game import Move, PlayerView


class Bot(Protocol):
    """A computer player. It sees only its seat's view, never the full state."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """One of `view.legal_moves` (which is never empty when a bot is asked)."""
        ...
