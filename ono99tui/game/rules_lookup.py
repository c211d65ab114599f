"""Per-rules lookup tables (`RulesLookup`), built once per Rules value and shared by every state."""

from __future__ import annotations

from ono99tui.game.cards import Card, deck
from ono99tui.game.events import Drew
from ono99tui.game.moves import Discard, Draw, Play, SwapFour
from ono99tui.game.rules import MAX_PLAYERS, Rules

ONO99_BIT = 1 << Card.ONO99


class RulesLookup:
    """Everything the hot path would otherwise recompute from the options on every move.

    Moves are preallocated per seat and card so legal-move lists allocate no move objects.
    """

    __slots__ = (
        "rules",
        "deck",
        "bust_at",
        "floor",
        "ono99_mode",
        "swap",
        "dead_hand",
        "is_answer",
        "play2_first",
        "late_draw",
        "scoring",
        "play",
        "swap_move",
        "draw_move",
        "discard_move",
        "drew_one",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.deck = deck(rules)
        self.bust_at = rules.bust_at
        # The lowest total a −10 may leave: 0 in 2022, unbounded when negatives are allowed.
        self.floor = None if rules.negative_totals else 0
        self.ono99_mode = rules.ono99_card
        self.swap = rules.four_ono99_swap
        self.dead_hand = rules.dead_hand_busts
        self.is_answer = tuple(card in rules.obligation_answers for card in Card)
        # May Play 2 be the first of two owed cards (as an answer or as a plain first card)?
        self.play2_first = Card.PLAY2 in rules.obligation_answers or rules.obligation_card_first
        self.late_draw = rules.late_draw_penalty
        self.scoring = rules.scoring
        self.play = tuple(tuple(Play(seat, card) for card in Card) for seat in range(MAX_PLAYERS))
        self.discard_move = tuple(
            tuple(Discard(seat, card) for card in Card) for seat in range(MAX_PLAYERS)
        )
        self.swap_move = tuple(SwapFour(seat) for seat in range(MAX_PLAYERS))
        self.draw_move = tuple(Draw(seat) for seat in range(MAX_PLAYERS))
        # Events are immutable, so the commonest one (a seat drew one card) is shared.
        self.drew_one = tuple(Drew(seat, 1) for seat in range(MAX_PLAYERS))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RulesLookup) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash(self.rules)

    def __repr__(self) -> str:
        return f"RulesLookup({self.rules.name!r})"


_CACHE: dict[Rules, RulesLookup] = {}


def lookup_for(rules: Rules) -> RulesLookup:
    """The shared tables of `rules` (built on first use)."""
    tables = _CACHE.get(rules)
    if tables is None:
        if len(_CACHE) > 64:  # custom rule sets are few; never let the cache grow unbounded
            _CACHE.clear()
        tables = _CACHE[rules] = RulesLookup(rules)
    return tables
