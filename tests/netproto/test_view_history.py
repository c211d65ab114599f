"""`view.history` and `view.history_abridged`: optional, absent from ordinary views,
round-trip through msgpack, and a history that is not a list of maps is refused with the
field named (what is in each map is the application's to check)."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from netproto.wire.errors import BadMessage
from netproto.wire.messages import MAX_HISTORY, View
from netproto.wire.packing import prepack

DEAL = {"kind": "round_dealt", "round_no": 1}


def through_the_wire(message: View) -> View:
    data = msgpack.unpackb(msgpack.packb(message.to_wire()), strict_map_key=True)
    return View.from_wire(data)


def test_an_ordinary_view_has_no_history_on_the_wire() -> None:
    view = View(seq=3, view={"total": 5})
    assert "history" not in view.to_wire() and "history_abridged" not in view.to_wire()
    assert through_the_wire(view).history is None


def test_a_history_round_trips_and_an_empty_one_stays_a_history() -> None:
    view = View(seq=4, view={}, events=({"kind": "x"},), history=(DEAL, {"kind": "y"}),
                history_abridged=1)
    assert view.to_wire()["history"] == [DEAL, {"kind": "y"}]
    assert through_the_wire(view) == view
    empty = View(seq=5, view={}, history=())
    assert empty.to_wire()["history"] == [] and "history_abridged" not in empty.to_wire()
    assert through_the_wire(empty).history == ()


def test_a_prepacked_view_keeps_its_history() -> None:
    view = View(seq=1, view=prepack({"seat": 0}), history=(DEAL,))
    assert view.to_wire()["history"] == [DEAL]


@pytest.mark.parametrize(("fields", "named"), [
    ({"history": "all of it"}, "view.history"),
    ({"history": {"kind": "played"}}, "view.history"),
    ({"history": [DEAL, ["played"]]}, "view.history entries"),
    ({"history": [DEAL] * (MAX_HISTORY + 1)}, "view.history"),
    ({"history": [DEAL], "history_abridged": -1}, "view.history_abridged"),
    ({"history": [DEAL], "history_abridged": True}, "view.history_abridged"),
    ({"history": [DEAL], "history_abridged": "2"}, "view.history_abridged"),
])
def test_a_bad_history_is_refused_naming_the_field(fields: dict[str, Any], named: str) -> None:
    with pytest.raises(BadMessage) as refused:
        View.from_wire({"kind": "view", "seq": 1, "view": {}, **fields})
    assert named in str(refused.value)


def test_a_nil_history_is_none_and_its_abridged_count_is_not_looked_at() -> None:
    data = {"kind": "view", "seq": 1, "view": {}, "history": None, "history_abridged": "x"}
    view = View.from_wire(data)
    assert view.history is None and view.history_abridged == 0
