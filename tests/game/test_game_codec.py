"""Wire forms of moves, views and events: round trips, msgpack safety, malformed input."""

from __future__ import annotations

import dataclasses

import msgpack
import pytest
from game_invariants import bot_chooser, play_match
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99tui.game import (
    EVENT_TYPES,
    PRESET_NAMES,
    Card,
    Discard,
    Draw,
    Drew,
    InvalidRules,
    MalformedMove,
    MatchEnded,
    Ono99Card,
    Phase,
    Play,
    Played,
    PlayerView,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    Scoring,
    SwapFour,
    SwappedFour,
    TimedOut,
    apply,
    position,
    preset,
    spectator_view,
    view,
)
from ono99tui.game.codec import (
    OWN_HEAD_FIELDS,
    OWN_TAIL_FIELDS,
    PUBLIC_VIEW_FIELDS,
    WireViews,
    event_from_wire,
    event_to_wire,
    move_from_wire,
    move_to_wire,
    rules_from_wire,
    rules_to_wire,
    view_from_wire,
    view_to_wire,
)

PLAIN_TYPES = (str, int, bool, type(None))


def assert_plain(value: object) -> None:
    """Only str/int/bool/None/list/dict with str keys."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) is str
            assert_plain(item)
    elif isinstance(value, list):
        for item in value:
            assert_plain(item)
    else:
        assert type(value) in PLAIN_TYPES, value


def through_msgpack(wire: dict) -> dict:
    return msgpack.unpackb(msgpack.packb(wire), strict_map_key=True)


ALL_MOVES = [Play(0, card) for card in Card] + [
    SwapFour(3), Draw(7), Discard(2, Card.ONO99), Discard(1, Card.MINUS_TEN),
]  # fmt: skip


@pytest.mark.parametrize("move", ALL_MOVES, ids=repr)
def test_moves_round_trip(move) -> None:
    wire = move_to_wire(move)
    assert_plain(wire)
    assert move_from_wire(through_msgpack(wire)) == move


def test_move_wire_form_is_readable() -> None:
    assert move_to_wire(Play(1, Card.MINUS_TEN)) == {"kind": "play", "seat": 1, "card": "-10"}
    assert move_to_wire(SwapFour(0)) == {"kind": "swap_four", "seat": 0}


@pytest.mark.parametrize(
    ("wire", "code"),
    [
        ("play", "not_a_move"),
        ([], "not_a_move"),
        ({}, "unknown_kind"),
        ({"kind": "cheat", "seat": 0}, "unknown_kind"),
        ({"kind": 3, "seat": 0}, "unknown_kind"),
        ({"kind": "play", "seat": 0}, "bad_fields"),
        ({"kind": "play", "seat": 0, "card": "7", "extra": 1}, "bad_fields"),
        ({"kind": "draw", "seat": 0, "card": "7"}, "bad_fields"),
        ({"kind": "play", "seat": "0", "card": "7"}, "bad_seat"),
        ({"kind": "play", "seat": True, "card": "7"}, "bad_seat"),
        ({"kind": "play", "seat": -1, "card": "7"}, "bad_seat"),
        ({"kind": "play", "seat": 10**9, "card": "7"}, "bad_seat"),
        ({"kind": "play", "seat": 0, "card": 7}, "bad_card"),
        ({"kind": "play", "seat": 0, "card": "11"}, "bad_card"),
        ({"kind": "play", "seat": 0, "card": "SEVEN"}, "bad_card"),
        ({"kind": "discard", "seat": 0, "card": None}, "bad_card"),
    ],
)
def test_malformed_wire_moves(wire, code) -> None:
    with pytest.raises(MalformedMove) as caught:
        move_from_wire(wire)
    assert caught.value.code == code
    assert caught.value.reason


WIRE_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.sampled_from(["7", "play", "-10"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(["kind", "seat", "card", "x"]), children, max_size=4),
    max_leaves=10,
)


@given(WIRE_VALUES)
@settings(max_examples=200, deadline=None)
def test_arbitrary_wire_values_give_a_move_or_malformed_move(wire) -> None:
    try:
        move = move_from_wire(wire)
    except MalformedMove as error:
        assert error.code and error.reason
    else:
        assert move_to_wire(move) == wire


def test_rules_round_trip() -> None:
    for name in PRESET_NAMES:
        rules = preset(name)
        assert rules_from_wire(through_msgpack(rules_to_wire(rules))) == rules
    custom = preset("1980").replace(ono99_card="tens", late_draw_penalty=True)
    assert rules_from_wire(rules_to_wire(custom)) == custom


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
def test_views_and_events_round_trip_over_whole_matches(preset_name) -> None:
    rules = preset(preset_name).replace(scoring="points-lowest", late_draw_penalty=True, target=60)
    kinds = set()
    for state, events, _move in play_match(rules, 3, 5, bot_chooser(("random", "greedy"))):
        for seen in (view(state, 0), view(state, 2), spectator_view(state)):
            wire = view_to_wire(seen)
            assert_plain(wire)
            assert view_from_wire(through_msgpack(wire)) == seen
        for event in events:
            kinds.add(type(event))
            wire = event_to_wire(event)
            assert_plain(wire)
            assert event_from_wire(through_msgpack(wire)) == event
    assert {Played, Drew, RoundDealt, RoundEnded, MatchEnded} <= kinds


def test_every_event_kind_round_trips() -> None:
    # Play-outs above cover most kinds; the rest come from targeted positions.
    seen = {}
    for preset_name in PRESET_NAMES:
        for scoring in ("single", "tokens", "points-elimination"):
            rules = preset(preset_name).replace(scoring=scoring, late_draw_penalty=True)
            matches = play_match(rules, 3, 1, bot_chooser(("random",)), check=False,
                                 resign_chance=0.02)
            for _s, events, _m in matches:
                for event in events:
                    seen.setdefault(type(event), event)
    state = position(preset("2022"), [[Card.ONO99] * 4, [Card.ONE] * 4])
    _state, events = apply(state, SwapFour(0), __import__("random").Random(0))
    seen.setdefault(SwappedFour, events[0])
    seen.setdefault(Reshuffled, Reshuffled(40))
    seen.setdefault(TimedOut, TimedOut(1, 2))  # the table's, never the engine's
    assert set(seen) == set(EVENT_TYPES)
    for event in seen.values():
        assert event_from_wire(through_msgpack(event_to_wire(event))) == event


@pytest.mark.parametrize(
    "wire",
    [
        {"kind": "played", "seat": 0, "card": "7"},
        {"kind": "played", "seat": 0, "card": "77", "total": 3},
        {"kind": "played", "seat": "0", "card": "7", "total": 3},
        {"kind": "nope"},
        {"kind": "eliminated", "seat": 0, "hand": "7"},
        [],
    ],
)
def test_bad_event_wire_raises_value_error(wire) -> None:
    with pytest.raises(ValueError):
        event_from_wire(wire)


def test_bad_view_wire_raises_value_error() -> None:
    state = position(preset("2022"), [[Card.ONE], [Card.TWO]])
    wire = view_to_wire(view(state, 0))
    for key, bad in (("hand", ["x"]), ("total", "5"), ("turn", 1.5), ("legal_moves", [{}])):
        broken = dict(wire, **{key: bad})
        with pytest.raises(ValueError):
            view_from_wire(broken)
    with pytest.raises(ValueError):
        view_from_wire({k: v for k, v in wire.items() if k != "hand"})


def test_closed_vocabularies_are_typed_in_and_plain_on_the_wire() -> None:
    rules = preset("1980").replace(scoring="points-lowest", ono99_card="set99")
    assert type(rules.scoring) is Scoring and rules.scoring is Scoring.POINTS_LOWEST
    assert type(rules.ono99_card) is Ono99Card and rules.ono99_card is Ono99Card.SET99
    # Built from strings or from members: the same rules (equal and hashed alike).
    assert rules == preset("1980").replace(scoring=Scoring.POINTS_LOWEST,
                                           ono99_card=Ono99Card.SET99)
    wire = rules_to_wire(rules)
    assert type(wire["scoring"]) is str and type(wire["ono99_card"]) is str
    decoded = rules_from_wire(through_msgpack(wire))
    assert decoded.scoring is Scoring.POINTS_LOWEST and decoded.ono99_card is Ono99Card.SET99
    state = position(preset("2022"), [[Card.ONE], [Card.TWO]])
    seen = view_from_wire(through_msgpack(view_to_wire(view(state, 0))))
    assert seen.phase is Phase.PLAYING


def test_unknown_vocabulary_values_are_typed_errors() -> None:
    with pytest.raises(InvalidRules, match="'pointy' is not one of single, tokens"):
        preset().replace(scoring="pointy")
    with pytest.raises(InvalidRules, match="'ono99_card': must be str, not int"):
        preset().replace(ono99_card=3)
    with pytest.raises(InvalidRules, match="scoring"):
        rules_from_wire({**rules_to_wire(preset()), "scoring": "Tokens"})
    state = position(preset("2022"), [[Card.ONE], [Card.TWO]])
    wire = view_to_wire(view(state, 0))
    for bad in ("over", "PLAYING", 1, None, ["playing"]):
        with pytest.raises(ValueError, match="phase"):
            view_from_wire(dict(wire, phase=bad))


def test_each_views_own_fields_stand_around_the_public_ones() -> None:
    # WireViews relies on this order: rules, the view's own head, the fields every view of a
    # state shares, the view's own tail.
    names = [field.name for field in dataclasses.fields(PlayerView)]
    assert names == ["rules", *OWN_HEAD_FIELDS, *PUBLIC_VIEW_FIELDS, *OWN_TAIL_FIELDS]


@pytest.mark.parametrize("preset_name", PRESET_NAMES)
@pytest.mark.parametrize("scoring", ["single", "tokens", "points-elimination"])
def test_wire_views_are_view_to_wire_key_for_key(preset_name, scoring) -> None:
    rules = preset(preset_name).replace(scoring=scoring, late_draw_penalty=True)
    compared = 0
    for seats in range(2, 9):
        matches = play_match(rules, seats, seats, bot_chooser(("random", "greedy")),
                             check=False, resign_chance=0.01)
        for state, _events, _move in matches:
            wire_views = WireViews(state)
            for seat in range(seats):
                expected = view_to_wire(view(state, seat))
                assert list(wire_views.seat(seat).items()) == list(expected.items())
                # The public fields are the same in every seat's view.
                assert {name: expected[name] for name in PUBLIC_VIEW_FIELDS} == wire_views.public
                compared += 1
            expected = view_to_wire(spectator_view(state))
            assert list(wire_views.spectator().items()) == list(expected.items())
    assert compared > 500
