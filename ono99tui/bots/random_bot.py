"""The random bot: any legal move, uniformly. The baseline every other bot must beat."""

from __future__ import annotations

import random

from ono99tui.game import Move, PlayerView


class RandomBot:
    """Picks a legal move uniformly at random."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        return rng.choice(view.legal_moves)
