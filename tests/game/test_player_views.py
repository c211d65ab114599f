"""A view holds the seat's own hand and public facts, never anyone else's cards."""

from __future__ import annotations

import dataclasses

import pytest
from game_invariants import bot_chooser, play_match

from ono99tui.game import (
    PRESET_NAMES,
    SCORING_MODES,
    Card,
    Discard,
    Draw,
    Play,
    PlayerView,
    SwapFour,
    legal_moves,
    position,
    preset,
    spectator_view,
    view,
)
from ono99tui.game.codec import view_to_wire

C = Card
R2022 = preset("2022")

VIEW_FIELDS = {
    "rules", "seat", "hand", "hand_sizes", "tokens", "scores", "eliminated", "out_of_round",
    "busted", "revealed", "total", "bust_at", "direction", "turn", "obligation_seat",
    "obligation_owed", "pending_draw", "discarding", "dealer", "round_no", "phase", "winners",
    "draw_pile_size", "discard_pile_size", "discard_top", "plays", "legal_moves",
}  # fmt: skip


def test_view_fields_are_exactly_the_public_ones() -> None:
    assert {f.name for f in dataclasses.fields(PlayerView)} == VIEW_FIELDS


def test_view_depends_only_on_public_facts_and_the_own_hand() -> None:
    # Same public facts, different hidden cards (other hands, draw-pile order).
    common = dict(total=40, turn=0, discard_pile=[C.FIVE, C.SIX])
    mine = [C.ONE, C.TWO, C.THREE, C.PLAY2]
    a = position(R2022, [mine, [C.TEN] * 4, [C.NINE] * 4], **common)
    b_hands = [mine, [C.ONO99] * 4, [C.ZERO, C.ONE, C.REVERSE, C.MINUS_TEN]]
    b_sorted = position(R2022, b_hands, **common)
    b = position(R2022, b_hands, draw_pile=b_sorted.draw_cards[::-1], **common)
    assert view(a, 0) == view(b, 0)
    assert spectator_view(a) == spectator_view(b)
    assert view(a, 1) != view(b, 1)  # each seat does see its own hand


def test_view_contents() -> None:
    state = position(
        R2022, [[C.ONE, C.TWO, C.TWO, C.PLAY2], [C.TEN] * 3, [C.NINE] * 4], total=40, owed=2,
        discard_pile=[C.FIVE, C.PLAY2],
    )  # fmt: skip
    mine = view(state, 0)
    assert mine.hand == (C.ONE, C.TWO, C.TWO, C.PLAY2)
    assert mine.hand_sizes == (4, 3, 4)
    assert mine.legal_moves == legal_moves(state, 0)
    assert (mine.obligation_seat, mine.obligation_owed) == (0, 2)
    assert mine.discard_top == C.PLAY2 and mine.discard_pile_size == 2
    assert mine.draw_pile_size == 112 - 11 - 2
    assert (mine.total, mine.bust_at, mine.turn, mine.preset) == (40, 99, 0, "2022")
    other = view(state, 1)
    assert other.hand == (C.TEN,) * 3 and other.legal_moves == ()
    spectator = spectator_view(state)
    assert spectator.seat is None and spectator.hand == () and spectator.legal_moves == ()


@pytest.mark.parametrize("seat", [-1, 3, "0", None, True])
def test_view_of_a_non_seat_raises(seat) -> None:
    state = position(R2022, [[C.ONE], [C.TWO], [C.THREE]])
    with pytest.raises(ValueError):
        view(state, seat)


def _cards_in(value: object) -> list[list[str]]:
    """Every list of card tokens anywhere in a wire value."""
    tokens = {card.token for card in Card}
    found: list[list[str]] = []
    if isinstance(value, dict):
        for item in value.values():
            found += _cards_in(item)
    elif isinstance(value, list):
        if value and all(isinstance(item, str) and item in tokens for item in value):
            found.append(value)
        for item in value:
            found += _cards_in(item)
    return found


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("scoring", SCORING_MODES)
def test_views_never_leak_hidden_cards_during_play(preset_name, scoring) -> None:
    # One token each keeps the tokens matches short; late draws add pending-draw views.
    rules = preset(preset_name).replace(
        scoring=scoring, tokens=1, late_draw_penalty=scoring == "tokens"
    )
    for state, _events, _move in play_match(rules, 4, 11, bot_chooser(("greedy", "random"))):
        for seat in (*range(state.seats), None):
            seen = view(state, seat) if seat is not None else spectator_view(state)
            own = [card.token for card in seen.hand]
            allowed = [own] + [
                [card.token for card in hand] for hand in seen.revealed if hand is not None
            ]
            wire = view_to_wire(seen)
            del wire["rules"]  # the rules list answer cards by kind, not cards anyone holds
            for cards in _cards_in(wire):
                assert cards in allowed, (seat, cards)
            for move in seen.legal_moves:
                assert move.seat == seat
                if isinstance(move, (Play, Discard)):
                    assert move.card in seen.hand
                else:
                    assert isinstance(move, (SwapFour, Draw))
            # Revealed hands belong to eliminated seats only.
            for other, hand in enumerate(seen.revealed):
                assert hand is None or seen.eliminated[other]
            assert seen.hand == (state.hands[seat] if seat is not None else ())
