"""The greedy bot: one-move heuristics, no look-ahead.

- Always draw at once (late-draw rule) and swap four ONO 99 cards when it can.
- Under a Play 2 obligation, answer it if it can (one card instead of two).
- While the total is safely low, shed the biggest number cards: they are the ones that
  become unplayable later. Near the limit, play the card that raises the total least.
- Keep the answers to Play 2 and the −10s in reserve until the total is high; then a Play 2
  is an attack (the next player must find two safe cards).
- When discarding after a bust (points scoring), drop the card that scores most.
"""

from __future__ import annotations

import random

from ono99tui.game import Card, Discard, Draw, Move, Play, PlayerView, SwapFour, hand_points

# Leave this much room under the limit before treating the total as "high".
MARGIN = 12


class GreedyBot:
    """Scores every legal move with the heuristics above and plays the best."""

    name = "greedy"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """The highest-scoring legal move (ties go to the earliest listed)."""
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        return max(moves, key=lambda move: self.score(view, move))

    def score(self, view: PlayerView, move: Move) -> float:
        """How much the bot likes `move` in `view` (higher is better)."""
        if isinstance(move, Draw):
            return 1000
        if isinstance(move, SwapFour):
            return 900
        if isinstance(move, Discard):
            return hand_points(move.card)
        assert isinstance(move, Play)
        card = move.card
        rules = view.rules
        total = view.total
        safe = view.bust_at - 1 - MARGIN
        high = total > safe - 10
        answering = view.obligation_seat == view.seat and view.obligation_owed == 2
        if answering and card in rules.obligation_answers:
            return 800
        if card <= Card.TEN:
            new_total = total + card
            if new_total <= safe:
                return 100 + int(card)
            return 50 - (new_total - safe)
        if card is Card.MINUS_TEN:
            return 60 if high else 5
        if card is Card.PLAY2:
            return 70 if high else 10
        if card is Card.ONO99:
            # `tens`: a free, otherwise useless card; `set99`: puts the next player at 99.
            return 65 if rules.ono99_card == "set99" and high else 45
        # Reverse and Hold: answers, worth keeping for a Play 2 aimed at us.
        return 30 if high else 2
