"""Lobby messages and their seats: the one-expression checks agree with the field-by-field
ones on every map, right or wrong."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from netproto.wire.chat_text import clean_line
from netproto.wire.errors import BadMessage
from netproto.wire.framing import encode_frame
from netproto.wire.messages import (
    MAX_NAME_FIELD,
    MAX_RATING,
    MAX_SEATS_LISTED,
    MAX_SEQ,
    UNREADABLE,
    Hello,
    Lobby,
    Rated,
    SeatInfo,
    SeatKind,
    TablePhase,
    message_from_wire,
)

RIGHT_SEAT = {"seat": 3, "name": "Ann", "kind": "human", "ready": False, "connected": True}
RIGHT_LOBBY = {"kind": "lobby", "phase": "finished", "seats": [RIGHT_SEAT], "host_seat": 0,
               "you": 3, "capacity": 4, "spectators": 1, "options": {"preset": "2022"},
               "results": {"winners": [3]}}
MISSING = object()
# Every field gets every one of these in turn: right values, values on and just past a
# limit, and values of each wrong type (bool and float where an int belongs, too).
EDGE_VALUES = [MISSING, True, False, None, -1, 0, MAX_SEATS_LISTED, MAX_SEATS_LISTED + 1,
               MAX_SEQ, MAX_SEQ + 1, 1.0, "", "x" * MAX_NAME_FIELD,
               "x" * (MAX_NAME_FIELD + 1), "human", "bot", "resigned", "alien", "waiting",
               "playing", b"human", ["human"], [], {"kind": "human"}, {}]


def edits(right: dict[str, Any]) -> list[Any]:
    return [pytest.param(field, value, id=f"{field}={value!r:.12}")
            for field in [*right, "extra"] for value in EDGE_VALUES]


def edited(right: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    data = dict(right)
    if value is MISSING:
        data.pop(field, None)
    else:
        data[field] = value
    return data


def decoded(decode: Any, *arguments: Any) -> object:
    try:
        return decode(*arguments)
    except BadMessage as error:
        return f"BadMessage: {error.reason}"


@pytest.mark.parametrize(("field", "value"), edits(RIGHT_SEAT))
def test_seat_paths_accept_and_refuse_the_same_maps(field: str, value: Any) -> None:
    data = edited(RIGHT_SEAT, field, value)
    assert decoded(SeatInfo.from_wire, data) == decoded(SeatInfo.checked_from_wire, data)


@pytest.mark.parametrize(("field", "value"), edits(RIGHT_LOBBY))
def test_lobby_paths_accept_and_refuse_the_same_maps(field: str, value: Any) -> None:
    data = edited(RIGHT_LOBBY, field, value)
    assert decoded(Lobby.from_wire, data) == decoded(Lobby.checked_from_wire, data)


@given(st.builds(dict, seat=st.integers(0, MAX_SEATS_LISTED), name=st.text(max_size=30),
                 kind=st.sampled_from(["human", "bot", "resigned"]), ready=st.booleans(),
                 connected=st.booleans()))
def test_right_seats_decode_alike(data: dict[str, Any]) -> None:
    # Both paths clean the name the same way (a client shows it: docs/PROTOCOL.md §6).
    shown = clean_line(data["name"], MAX_NAME_FIELD) or UNREADABLE
    assert (SeatInfo.from_wire(data) == SeatInfo.checked_from_wire(data)
            == SeatInfo(**{**data, "name": shown}))


def test_a_wrong_field_is_named() -> None:
    with pytest.raises(BadMessage) as error:
        SeatInfo.from_wire({**RIGHT_SEAT, "ready": 1})
    assert error.value.reason == "lobby.seats.ready must be true or false"
    with pytest.raises(BadMessage) as error:
        Lobby.from_wire({**RIGHT_LOBBY, "you": MAX_SEATS_LISTED + 1})
    assert error.value.reason == f"lobby.you must be between 0 and {MAX_SEATS_LISTED}"


def test_phase_and_seat_kind_decode_to_their_members() -> None:
    lobby = Lobby.from_wire(RIGHT_LOBBY)
    assert lobby.phase is TablePhase.FINISHED and lobby.seats[0].kind is SeatKind.HUMAN
    checked = Lobby.checked_from_wire(RIGHT_LOBBY)
    assert checked.phase is TablePhase.FINISHED and checked.seats[0].kind is SeatKind.HUMAN


def test_unknown_phase_or_seat_kind_is_a_typed_error() -> None:
    with pytest.raises(BadMessage) as error:
        Lobby.from_wire({**RIGHT_LOBBY, "phase": "dealing"})
    assert error.value.reason == "lobby.phase must be one of waiting, playing, finished"
    with pytest.raises(BadMessage) as error:
        SeatInfo.from_wire({**RIGHT_SEAT, "kind": "alien"})
    assert error.value.reason == "lobby.seats.kind must be one of human, bot, resigned"


def test_members_go_on_the_wire_as_the_same_bytes_as_strings() -> None:
    with_strings = Lobby("playing", (SeatInfo(0, "Ann", "bot", True, True),),  # type: ignore[arg-type]
                         host_seat=0)
    with_members = Lobby(TablePhase.PLAYING,
                         (SeatInfo(0, "Ann", SeatKind.BOT, True, True),), host_seat=0)
    assert encode_frame(with_members.to_wire()) == encode_frame(with_strings.to_wire())


RATED_SEAT = {**RIGHT_SEAT, "rating": 1043}


@pytest.mark.parametrize("value", EDGE_VALUES + [-MAX_RATING, MAX_RATING, MAX_RATING + 1])
def test_a_seats_rating_is_decoded_alike_on_both_paths(value: Any) -> None:
    data = edited(RATED_SEAT, "rating", value)
    assert decoded(SeatInfo.from_wire, data) == decoded(SeatInfo.checked_from_wire, data)


def test_a_rating_travels_only_when_there_is_one() -> None:
    rated = SeatInfo.from_wire(RATED_SEAT)
    assert rated.rating == 1043 and rated.to_wire() == RATED_SEAT
    assert "rating" not in SeatInfo.from_wire(RIGHT_SEAT).to_wire()
    with pytest.raises(BadMessage) as error:
        SeatInfo.from_wire({**RIGHT_SEAT, "rating": "1043"})
    assert error.value.reason == "lobby.seats.rating must be an integer"


def test_hello_asks_to_be_unrated_only_when_it_does() -> None:
    asked = Hello(proto=1, name="Ann", unrated=True)
    assert asked.to_wire()["unrated"] is True
    assert Hello.from_wire(asked.to_wire()) == asked
    plain = Hello(proto=1, name="Ann")
    assert "unrated" not in plain.to_wire()
    assert Hello.from_wire({**plain.to_wire(), "unrated": False}).unrated is None
    with pytest.raises(BadMessage):
        Hello.from_wire({**plain.to_wire(), "unrated": "yes"})


def test_a_seat_is_marked_unrated_only_when_it_is() -> None:
    unrated = SeatInfo(3, "Ann", SeatKind.HUMAN, False, True, unrated=True)
    assert unrated.to_wire()["unrated"] is True
    assert SeatInfo.from_wire(unrated.to_wire()) == unrated
    assert "unrated" not in SeatInfo(3, "Ann", SeatKind.HUMAN, False, True).to_wire()
    assert SeatInfo.from_wire(RIGHT_SEAT).unrated is False  # absent: rated (older tables)
    assert SeatInfo.from_wire({**RIGHT_SEAT, "unrated": False}).unrated is False
    for wrong in ("yes", 1, None, [True]):
        with pytest.raises(BadMessage) as error:
            SeatInfo.from_wire({**RIGHT_SEAT, "unrated": wrong})
        assert error.value.reason == "lobby.seats.unrated must be true or false"


def test_rated_says_true_or_false_and_nothing_else() -> None:
    assert message_from_wire({"kind": "rated", "rated": False}) == Rated(rated=False)
    assert Rated(rated=True).to_wire() == {"kind": "rated", "rated": True}
    for wrong in ({}, {"rated": "no"}, {"rated": 0}, {"rated": None}):
        with pytest.raises(BadMessage) as error:
            message_from_wire({"kind": "rated", **wrong})
        assert error.value.ref == "rated"
