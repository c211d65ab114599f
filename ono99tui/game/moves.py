"""Moves: small immutable values that name the acting seat."""

from __future__ import annotations

from dataclasses import dataclass

from ono99tui.game.cards import Card


@dataclass(frozen=True, slots=True)
class Play:
    """Play `card` from the hand onto the discard pile."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SwapFour:
    """Discard four ONO 99 cards at once and draw four new ones (2022 `four_ono99_swap`)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the card owed after playing (only with the `late_draw_penalty` rule)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Discard:
    """The points-mode buster's discard of one card of their choice before sitting out."""

    seat: int
    card: Card


Move = Play | SwapFour | Draw | Discard
MOVE_TYPES: tuple[type, ...] = (Play, SwapFour, Draw, Discard)
