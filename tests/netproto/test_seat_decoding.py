"""A lobby's seat entries: the one-expression check agrees with the field-by-field one."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from netproto.errors import BadMessage
from netproto.messages import MAX_NAME_FIELD, MAX_SEATS_LISTED, SeatInfo

RIGHT = {"seat": 3, "name": "Ann", "kind": "human", "ready": False, "connected": True}
MISSING = object()
# Every field gets every one of these in turn: right values, values on and just past a
# limit, and values of each wrong type (bool and float where an int belongs, too).
EDGE_VALUES = [MISSING, True, False, None, -1, 0, MAX_SEATS_LISTED, MAX_SEATS_LISTED + 1,
               1.0, "", "x" * MAX_NAME_FIELD, "x" * (MAX_NAME_FIELD + 1), "human", "bot",
               "resigned", "alien", b"human", ["human"], {"kind": "human"}]
ONE_FIELD_CHANGED = [
    pytest.param(field, value, id=f"{field}={value!r:.12}")
    for field in [*RIGHT, "extra"] for value in EDGE_VALUES
]


def decoded(decode: Any, data: dict[str, Any]) -> SeatInfo | str:
    try:
        return decode(data)
    except BadMessage as error:
        return f"BadMessage: {error.reason}"


@pytest.mark.parametrize(("field", "value"), ONE_FIELD_CHANGED)
def test_both_paths_accept_and_refuse_the_same_maps(field: str, value: Any) -> None:
    data = dict(RIGHT)
    if value is MISSING:
        data.pop(field, None)
    else:
        data[field] = value
    assert decoded(SeatInfo.from_wire, data) == decoded(SeatInfo.checked_from_wire, data)


@given(st.builds(dict, seat=st.integers(0, MAX_SEATS_LISTED), name=st.text(max_size=30),
                 kind=st.sampled_from(["human", "bot", "resigned"]), ready=st.booleans(),
                 connected=st.booleans()))
def test_right_maps_decode_alike(data: dict[str, Any]) -> None:
    assert SeatInfo.from_wire(data) == SeatInfo.checked_from_wire(data) == SeatInfo(**data)


def test_a_wrong_field_is_named() -> None:
    with pytest.raises(BadMessage) as error:
        SeatInfo.from_wire({**RIGHT, "ready": 1})
    assert error.value.reason == "lobby.seats.ready must be true or false"
