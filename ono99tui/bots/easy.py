"""The easy bot: a beginner. It plays a legal card, and sometimes a poor one.

A beginner knows the rules and, most of the time, the obvious good move (the greedy bot's
choice: draw at once, answer a Play 2, shed the biggest number that fits, keep the
always-playable cards in reserve). What makes them beatable is the slip: now and then they
play another legal card instead, e.g. spending a Reverse or a −10 while a number would do,
or a small number while a big one fits. `SLIP_CHANCE` is how often.

Moves that are not a choice of card (the late draw, swapping four ONO 99 cards) are never
slipped on: a beginner does them as soon as the game offers them, and the table's keys show
them. Measured against the greedy bot heads-up with `ono99 sim` (docs/BOTS.md).
"""

from __future__ import annotations

import random

from ono99tui.bots.base import Bot
from ono99tui.bots.greedy import GreedyBot
from ono99tui.game import Discard, Move, Play, PlayerView

# How often the beginner plays a card other than the best one it would see.
SLIP_CHANCE = 0.45


class EasyBot(Bot):
    """Greedy's choice, except for a slip (`SLIP_CHANCE`) to another legal card."""

    name = "easy"

    def __init__(self) -> None:
        self._greedy = GreedyBot()

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Mostly the greedy bot's move; on a slip, another card it may play."""
        best = self._greedy.choose(view, rng)
        if type(best) not in (Play, Discard):
            return best  # a draw or a swap: done at once, never slipped on
        others = [move for move in view.legal_moves
                  if type(move) in (Play, Discard) and move != best]
        if others and rng.random() < SLIP_CHANCE:
            return others[int(rng.random() * len(others))]
        return best
