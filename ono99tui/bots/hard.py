"""The hard bot: determinized Monte-Carlo search, never worse than greedy by construction.

At each play with a real choice it deals worlds consistent with its seat's view and the
public events it observed (`worlds.sample_world`: its hand, the total, the counts, the
discard pile it watched; every unseen card dealt at random), plays each legal card in
every world and lets greedy play everyone on (`search.evaluate`). It keeps greedy's card
unless another beats it by two paired standard errors, so its mistakes are greedy's.

It never reads hidden state: it gets only `choose(view, rng)` and `observe(events)`, and
tests/bots/test_hard_bot.py checks it plays identically behind the same view and events
whatever the hidden cards really are. Its budget is counted in model plays, so a choice is
a pure function of view, events and `rng`; the default fits 20 ms of CPU per decision on
the reference machine (bench/bots.py prints p50/p99).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ono99tui.bots.base import Bot
from ono99tui.bots.greedy import GreedyBot
from ono99tui.bots.observed import Observed
from ono99tui.bots.playout import SWAP
from ono99tui.bots.search import PLAYS_PER_SECOND, evaluate
from ono99tui.bots.worlds import InconsistentView
from ono99tui.game import Event, Move, Play, PlayerView, SwapFour

# CPU per decision the default budget is sized for: 4,050 budget units, ~9 ms of CPU at
# p50 and ~13 at p99 on a quiet machine (the limit is 20 ms). 6,000 units measured
# no stronger (docs/BOTS.md), so the bot does not spend them.
DEFAULT_BUDGET_S = 0.010


def move_code(move: Move) -> int | None:
    """The play-out model's int for a play (a card, or SWAP); None for Draw/Discard."""
    if type(move) is Play:
        return int(move.card)
    if type(move) is SwapFour:
        return SWAP
    return None


class HardBot(Bot):
    """Search over deals consistent with what its seat has seen; see the module doc."""

    name = "hard"

    def __init__(self, budget_s: float = DEFAULT_BUDGET_S) -> None:
        self.budget_s = budget_s
        self.observed = Observed()
        self._greedy = GreedyBot()

    def observe(self, events: Iterable[Event]) -> None:
        """Keep the public facts of the current deal (reset by each deal)."""
        self.observed.observe(events)

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """Greedy's move unless the search finds a play significantly better."""
        moves = view.legal_moves
        greedy_move = self._greedy.choose(view, rng)
        if len(moves) == 1:
            return moves[0]
        candidates = [code for code in map(move_code, moves) if code is not None]
        greedy_code = move_code(greedy_move)
        if len(candidates) < len(moves) or greedy_code is None:
            return greedy_move  # a late draw or a points discard: greedy's rules of thumb
        try:
            chosen = self._search(view, candidates, greedy_code, rng)
        except InconsistentView:
            return greedy_move
        return moves[candidates.index(chosen)]

    def _search(self, view: PlayerView, candidates: list[int], greedy_code: int,
                rng: random.Random) -> int:
        """The candidate the search chooses: greedy's unless another is significantly
        better. Raises InconsistentView when the view and the observed events disagree.
        (A variant of the search, e.g. bench/own_policy.py's, overrides this.)"""
        return evaluate(view, self.observed, candidates, greedy_code, rng,
                        int(self.budget_s * PLAYS_PER_SECOND)).chosen
