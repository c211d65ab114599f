"""The cards of both ONO 99 decks, their names and the exact deck compositions."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ono99tui.game.rules import Rules


class Card(enum.IntEnum):
    """One card face. Number cards 0..10 have their value as their int value."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    MINUS_TEN = 11
    REVERSE = 12
    PLAY2 = 13
    HOLD = 14
    ONO99 = 15

    @property
    def token(self) -> str:
        """The short stable name used on the wire and in logs: "7", "-10", "play2"…"""
        return _TOKENS[self]

    @classmethod
    def from_token(cls, token: str) -> Card:
        """The card named by `token`; raises KeyError for an unknown name."""
        return _BY_TOKEN[token]

    def label(self, rules: Rules | None = None) -> str:
        """The name printed on the card in the edition of `rules` ("Play 2" or "Double Play")."""
        if self is Card.PLAY2:
            return "Double Play" if rules is not None and rules.deck == "1980" else "Play 2"
        return _LABELS[self]

    @property
    def is_number(self) -> bool:
        """True for the cards that add their face value (0 to 10)."""
        return self <= Card.TEN


_TOKENS: dict[Card, str] = {c: str(int(c)) for c in Card if c <= Card.TEN}
_TOKENS.update(
    {
        Card.MINUS_TEN: "-10",
        Card.REVERSE: "reverse",
        Card.PLAY2: "play2",
        Card.HOLD: "hold",
        Card.ONO99: "ono99",
    }
)
_BY_TOKEN: dict[str, Card] = {token: card for card, token in _TOKENS.items()}
_LABELS: dict[Card, str] = {c: str(int(c)) for c in Card if c <= Card.TEN}
_LABELS.update(
    {
        Card.MINUS_TEN: "-10",
        Card.REVERSE: "Reverse",
        Card.PLAY2: "Play 2",
        Card.HOLD: "Hold",
        Card.ONO99: "ONO 99",
    }
)

# How many of each card each deck holds (RULES.md §2).
DECK_COUNTS: dict[str, dict[Card, int]] = {
    "2022": {
        Card.ZERO: 8,
        Card.ONE: 6,
        **{Card(v): 6 for v in range(2, 10)},
        Card.TEN: 10,
        Card.MINUS_TEN: 10,
        Card.REVERSE: 10,
        Card.PLAY2: 10,
        Card.ONO99: 10,
    },
    "1980": {
        **{Card(v): 3 for v in range(2, 10)},
        Card.TEN: 10,
        Card.MINUS_TEN: 4,
        Card.REVERSE: 6,
        Card.PLAY2: 2,
        Card.HOLD: 4,
        Card.ONO99: 4,
    },
}
DECK_NAMES: tuple[str, ...] = tuple(DECK_COUNTS)


def deck_of(deck_name: str) -> tuple[Card, ...]:
    """Every card of the named deck ("2022" or "1980"), in card order."""
    counts = DECK_COUNTS[deck_name]
    return tuple(card for card in Card for _ in range(counts.get(card, 0)))


def deck(rules: Rules) -> tuple[Card, ...]:
    """Every card of the deck `rules` play with (112 cards for 2022, 54 for 1980)."""
    return deck_of(rules.deck)


def hand_points(card: Card) -> int:
    """What a card left in hand scores at the end of a points round (RULES.md §3)."""
    if card is Card.ONO99:
        return 20
    if card <= Card.TEN:
        return int(card)
    return 15
