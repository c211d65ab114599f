"""The greedy bot: one-move heuristics, no look-ahead.

- Always draw at once (late-draw rule) and swap four ONO 99 cards when it can.
- Under a Play 2 obligation, answer it if it can (one card instead of two).
- Play the biggest number card that fits: big cards are the ones that turn unplayable as
  the total climbs, small ones stay useful.
- Keep Reverse, Hold and −10 in reserve: they are always playable, so they are what saves
  a hand near the limit and what answers a Play 2 aimed at us.
- Near the limit a Play 2 is an attack (the next player must find two safe cards).
- When discarding after a bust (points scoring), drop the card that scores most.

The weights were tuned by `ono99 sim` against the random bot (see docs/RULES.md).
"""

from __future__ import annotations

import random

from ono99tui.bots.base import Bot
from ono99tui.game import Card, Discard, Draw, Move, Play, PlayerView, SwapFour, hand_points

# A total within this distance of the limit makes Play 2 an attack worth playing.
ATTACK_ZONE = 10


class GreedyBot(Bot):
    """Scores every legal move with the heuristics above and plays the best."""

    name = "greedy"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """The highest-scoring legal move (ties go to the earliest listed)."""
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        best = moves[0]
        best_score = -1
        for move in moves:
            score = self.score(view, move)
            if score > best_score:
                best, best_score = move, score
        return best

    def score(self, view: PlayerView, move: Move) -> int:
        """How much the bot likes `move` in `view` (higher is better)."""
        kind = type(move)
        if kind is Play:
            card = move.card  # type: ignore[union-attr]
            if card <= Card.TEN:
                return 100 + int(card)  # legal, so it fits: the bigger the better
            answering = view.obligation_seat == view.seat and view.obligation_owed == 2
            if answering and card in view.rules.obligation_answers:
                return 800
            if card is Card.ONO99:
                return 45  # `tens`/`set99`: a card that is otherwise dead weight
            if card is Card.PLAY2:
                return 60 if view.total >= view.bust_at - 1 - ATTACK_ZONE else 3
            if card is Card.MINUS_TEN:
                return 2
            return 1  # Reverse, Hold
        if kind is Draw:
            return 1000
        if kind is SwapFour:
            return 900
        if kind is Discard:
            return hand_points(move.card)  # type: ignore[union-attr]
        raise TypeError(f"not a move: {move!r}")
