"""`view.clock`, the turn clock a view carries: optional, round-trips through msgpack,
and a bad one is refused with the field named."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from netproto.wire.errors import BadMessage
from netproto.wire.messages import MAX_TURN_SECONDS, TurnClock, View


def through_the_wire(message: View) -> View:
    data = msgpack.unpackb(msgpack.packb(message.to_wire()), strict_map_key=True)
    return View.from_wire(data)


def test_a_view_without_a_clock_sends_none_and_reads_as_none() -> None:
    view = View(seq=3, view={"total": 5}, events=({"kind": "drew", "seat": 0, "count": 1},))
    assert "clock" not in view.to_wire()
    assert through_the_wire(view) == view and through_the_wire(view).clock is None


def test_a_clock_round_trips() -> None:
    view = View(seq=9, view={}, clock=TurnClock(seat=2, seconds=60.0, left=41.25))
    assert view.to_wire()["clock"] == {"seat": 2, "seconds": 60.0, "left": 41.25}
    assert through_the_wire(view) == view
    # Whole numbers from another implementation read as seconds too.
    data = {"kind": "view", "seq": 1, "view": {}, "clock": {"seat": 0, "seconds": 30, "left": 0}}
    assert View.from_wire(data).clock == TurnClock(0, 30.0, 0.0)


@pytest.mark.parametrize(("clock", "field"), [
    ("soon", "view.clock"),
    ({"seconds": 5, "left": 1}, "'seat'"),
    ({"seat": 99, "seconds": 5, "left": 1}, "view.clock.seat"),
    ({"seat": 0, "seconds": True, "left": 1}, "view.clock.seconds"),
    ({"seat": 0, "seconds": "5", "left": 1}, "view.clock.seconds"),
    ({"seat": 0, "seconds": MAX_TURN_SECONDS * 2, "left": 1}, "view.clock.seconds"),
    ({"seat": 0, "seconds": 5, "left": -1}, "view.clock.left"),
    ({"seat": 0, "seconds": 5, "left": float("nan")}, "view.clock.left"),
])
def test_a_bad_clock_is_refused_naming_the_field(clock: Any, field: str) -> None:
    with pytest.raises(BadMessage) as refused:
        View.from_wire({"kind": "view", "seq": 1, "view": {}, "clock": clock})
    assert field in str(refused.value)
