"""The table's packed views are, byte for byte, the codec's view maps packed with msgpack.

Three paths must agree on every view: a reference that converts each field by what its
value is (the reflective walk, written here on its own), the codec's per-field
`view_to_wire`, and the table's `StateViews`, which packs the public fields once per state
and splices each seat's own fields around them.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99tui.bots import make_bot
from ono99tui.game import (
    MATCH_OVER,
    MOVE_TYPES,
    PRESET_NAMES,
    SCORING_MODES,
    Card,
    PlayerView,
    Rules,
    State,
    acting_seats,
    apply,
    preset,
    resign,
    spectator_view,
    start_match,
    view,
)
from ono99tui.game.codec import move_to_wire, rules_to_wire, view_to_wire
from ono99tui.game.view import PUBLIC_FIELDS, public_view_fields
from ono99tui.host.view_encoding import StateViews


def reflective_value(value: Any) -> Any:
    if isinstance(value, Card):
        return value.token
    if isinstance(value, tuple):
        return [reflective_value(item) for item in value]
    if isinstance(value, Rules):
        return rules_to_wire(value)
    if isinstance(value, MOVE_TYPES):
        return move_to_wire(value)
    return value


def reflective_view_to_wire(player_view: PlayerView) -> dict[str, Any]:
    """The reference: every field in declaration order, converted by what its value is."""
    return {field.name: reflective_value(getattr(player_view, field.name))
            for field in dataclasses.fields(PlayerView)}


def assert_all_paths_agree(state: State) -> int:
    """Every seat's and the spectators' view of `state` through the three paths; how many."""
    views = StateViews(state)
    for seat in range(state.seats):
        player_view = view(state, seat)
        expected = msgpack.packb(reflective_view_to_wire(player_view))
        assert msgpack.packb(view_to_wire(player_view)) == expected
        assert views.seat(seat).data == expected, f"seat {seat}"
    watcher = spectator_view(state)
    # The shared fields taken straight from the state are the spectator's view's.
    assert public_view_fields(state) == tuple(getattr(watcher, name) for name in PUBLIC_FIELDS)
    expected = msgpack.packb(reflective_view_to_wire(watcher))
    assert msgpack.packb(view_to_wire(watcher)) == expected
    assert views.spectator().data == expected
    return state.seats + 1


def play_out(preset_name: str, scoring: str, seats: int, seed: int) -> list[State]:
    """Every state of one match: greedy and random bots, now and then a seat resigning
    (so views show revealed hands, eliminations and every phase)."""
    rules = preset(preset_name).replace(scoring=scoring, late_draw_penalty=seed % 2 == 0)
    rng = random.Random(seed)
    bots = [make_bot("greedy"), make_bot("random")]
    state, _ = start_match(rules, seats, rng)
    states = [state]
    while state.phase != MATCH_OVER:
        if rng.random() < 0.01:
            in_match = [seat for seat in range(seats) if state.alive[seat]]
            state, _ = resign(state, rng.choice(in_match), rng)
        else:
            seat = acting_seats(state)[0]
            state, _ = apply(state, bots[seat % 2].choose(view(state, seat), rng), rng)
        states.append(state)
    return states


def test_every_preset_and_player_count_through_whole_matches() -> None:
    compared = 0
    for preset_name in PRESET_NAMES:
        for seats in range(2, 9):
            for state in play_out(preset_name, "tokens", seats, seed=seats):
                compared += assert_all_paths_agree(state)
    assert compared > 5000


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESET_NAMES), st.sampled_from(SCORING_MODES), st.integers(2, 8),
       st.integers(0, 2**32))
def test_random_play_outs(preset_name: str, scoring: str, seats: int, seed: int) -> None:
    for state in play_out(preset_name, scoring, seats, seed):
        assert_all_paths_agree(state)


def test_two_tables_taking_turns_share_nothing_wrong() -> None:
    # Packed hands are kept from one state to the next; two tables whose moves interleave
    # (same seat numbers, other hands) must still each get their own.
    first = play_out("2022", "tokens", 4, seed=1)
    second = play_out("1980", "points-elimination", 4, seed=2)
    rng = random.Random(3)
    for state in sorted(first + second, key=lambda _: rng.random()):
        assert_all_paths_agree(state)
