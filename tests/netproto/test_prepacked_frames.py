"""Frames with parts packed once (netproto.wire.packing): the same maps as the plain path."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netproto.wire.connection import Connection, Role, State
from netproto.wire.errors import LocalProtocolError
from netproto.wire.framing import MAX_FRAME_SIZE, FrameDecoder, encode_frame
from netproto.wire.messages import View
from netproto.wire.packing import (
    PackedEntries,
    Prepacked,
    pack_array_of,
    pack_entries,
    pack_entries_of,
    pack_entry,
    pack_map,
    prepack,
)

KEYS = st.text(min_size=1, max_size=12)
SCALARS = st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.text(max_size=40)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(KEYS, inner, max_size=5), max_leaves=20)
# Up to 40 entries: maps past 15 entries have a 3-byte header, not 1. What an entry holds is
# packed whole by msgpack on both paths, so a few leaves each do (twenty made the examples
# slow to draw, not the splicing better tested); VALUES keeps the deep ones for arrays.
ENTRY_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5)
                            | st.dictionaries(KEYS, inner, max_size=5), max_leaves=4)
MAPS = st.dictionaries(KEYS, ENTRY_VALUES, max_size=40)


def decoded(frame: bytes) -> dict[str, object]:
    (body,) = FrameDecoder().feed(frame)
    assert isinstance(body, dict)
    return body


@settings(max_examples=300)
@given(MAPS, st.data())
def test_a_map_spliced_from_packed_runs_is_the_plain_maps_bytes(plain: dict, data: st.DataObject) -> None:
    items = list(plain.items())
    cuts = sorted(data.draw(st.lists(st.integers(0, len(items)), max_size=6)))
    runs = [dict(items[start:end]) for start, end in zip([0, *cuts], [*cuts, len(items)], strict=True)]
    ways = (lambda run: run, pack_entries,
            lambda run: pack_entries_of(list(run), list(run.values())))
    parts: list[dict | PackedEntries] = [data.draw(st.sampled_from(ways))(run) for run in runs]
    assert pack_map(*parts).data == msgpack.packb(plain)


@given(KEYS, st.lists(VALUES, max_size=20))
def test_an_entry_holding_an_array_of_prepacked_items_is_the_plain_bytes(
        key: str, items: list) -> None:
    spliced = pack_entry(key, pack_array_of([prepack(item) for item in items]))
    assert pack_map(spliced).data == msgpack.packb({key: items})


def test_keys_and_values_must_pair_up() -> None:
    with pytest.raises(ValueError):
        pack_entries_of(["a", "b"], [1])


@settings(max_examples=300)
@given(MAPS, st.data())
def test_a_frame_with_prepacked_values_decodes_to_the_plain_frames_map(
        plain: dict, data: st.DataObject) -> None:
    prepacked = data.draw(st.sets(st.sampled_from(sorted(plain)) if plain else st.nothing()))
    message = {key: prepack(value) if key in prepacked else value
               for key, value in plain.items()}
    frame = encode_frame(message)
    assert decoded(frame) == decoded(encode_frame(plain)) == plain
    assert len(frame) == len(encode_frame(plain))


def test_a_spliced_view_frame_is_the_plain_view_frame_through_both_connections() -> None:
    view_map = {"rules": {"bust_at": 99}, "seat": 1, "hand": ["7", "-10"], "total": 17,
                "legal_moves": [{"kind": "play", "seat": 1, "card": "7"}]}
    events = ({"kind": "played", "seat": 0, "card": "2", "total": 17},)
    spliced = pack_map({"rules": view_map["rules"]},
                       pack_entries({"seat": 1, "hand": ["7", "-10"]}),
                       pack_entries({"total": 17}),
                       {"legal_moves": view_map["legal_moves"]})
    frames = []
    for view in (view_map, spliced):
        server = Connection(Role.SERVER)
        server.state = State.SEATED
        frames.append(server.send(View(seq=3, view=view, events=events)))
    assert decoded(frames[0]) == decoded(frames[1])
    client = Connection(Role.CLIENT)
    client.state = State.SEATED
    (received,) = client.receive_data(frames[1])
    assert received == View(seq=3, view=view_map, events=events)


def test_the_state_machine_still_checks_a_spliced_view() -> None:
    server = Connection(Role.SERVER)  # still in the handshake: no view may go out
    with pytest.raises(LocalProtocolError):
        server.send(View(seq=1, view=prepack({"seat": 0})))


def test_the_frame_limit_counts_the_prepacked_bytes() -> None:
    big = prepack({"pad": "a" * MAX_FRAME_SIZE})
    with pytest.raises(ValueError, match="exceeds"):
        encode_frame({"kind": "view", "seq": 1, "view": big, "events": []})


def test_a_prepacked_value_anywhere_but_a_messages_own_map_is_refused() -> None:
    # Only the message's own map is searched for prepacked values: deeper, msgpack refuses.
    with pytest.raises(TypeError):
        encode_frame({"kind": "view", "events": [prepack({"kind": "x"})]})
    with pytest.raises(TypeError):
        pack_map({"inner": prepack(1)})


def test_prepacked_values_compare_by_their_bytes() -> None:
    assert prepack({"a": 1}) == Prepacked(msgpack.packb({"a": 1}))
    assert prepack([1]) != prepack([2])
