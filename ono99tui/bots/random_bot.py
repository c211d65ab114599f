"""The random bot: any legal move, uniformly. The baseline every other bot must beat."""

from __future__ import annotations

import random

from ono99tui.bots.base import Bot
from ono99tui.game import Move, PlayerView


class RandomBot(Bot):
    """Picks a legal move uniformly at random."""

    name = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        moves = view.legal_moves
        # Indexing by rng.random() costs a fifth of rng.choice's Python-level
        # _randbelow; the bias (below 2**-50 for at most a handful of moves) is nil.
        return moves[int(rng.random() * len(moves))]
