"""The table's fast view encoder must say exactly what the codec says."""

from __future__ import annotations

import random
import typing

import pytest

from ono99tui.game import (
    PlayerView,
    acting_seats,
    apply,
    legal_moves,
    preset,
    spectator_view,
    start_match,
    view,
)
from ono99tui.game.codec import view_from_wire, view_to_wire
from ono99tui.host.view_encoding import FIELD_CONVERTERS, StateViews, fast_view_to_wire


def test_both_encoders_know_the_same_fields() -> None:
    assert list(FIELD_CONVERTERS) == list(typing.get_type_hints(PlayerView))


@pytest.mark.parametrize("rules", ["2022", "1980", "1980-set99"])
def test_fast_encoder_matches_the_codec_through_whole_matches(rules: str) -> None:
    rng = random.Random(rules)
    for _ in range(3):
        state, _ = start_match(preset(rules), rng.randint(2, 8), rng)
        compared = 0
        while state.phase != "match_over":
            for seat in range(state.seats):
                player_view = view(state, seat)
                assert fast_view_to_wire(player_view) == view_to_wire(player_view)
                compared += 1
            watcher = spectator_view(state)
            assert fast_view_to_wire(watcher) == view_to_wire(watcher)
            actor = acting_seats(state)[0]
            state, _ = apply(state, rng.choice(legal_moves(state, actor)), rng)
        final = view(state, 0)
        assert view_from_wire(fast_view_to_wire(final)) == final
        assert compared > 10


@pytest.mark.parametrize("rules", ["2022", "1980", "1980-set99"])
def test_shared_state_views_match_the_codec_key_for_key(rules: str) -> None:
    # Same keys in the same order as the codec's map, so the msgpack bytes are the same.
    rng = random.Random(f"shared {rules}")
    for _ in range(3):
        state, _ = start_match(preset(rules), rng.randint(2, 8), rng)
        while state.phase != "match_over":
            views = StateViews(state)
            for seat in range(state.seats):
                expected = view_to_wire(view(state, seat))
                assert list(views.seat(seat).items()) == list(expected.items())
            expected = view_to_wire(spectator_view(state))
            assert list(views.spectator().items()) == list(expected.items())
            actor = acting_seats(state)[0]
            state, _ = apply(state, rng.choice(legal_moves(state, actor)), rng)
