"""msgpack bodies of frames, with parts that were packed once and are written verbatim.

A server that sends one state to many peers packs the same values again for each of them.
Here a sender can pack such a value once (`prepack`), or a run of map entries once
(`pack_entries`), and build each peer's map around them (`pack_map`): the bytes of a
`Prepacked` value are copied into every body that holds it, and the map header is counted
here from the plain entries and the packed runs. The result is byte for byte what packing
the equivalent plain map gives, so a receiver cannot tell the difference.

A `Prepacked` may stand as a value of a message's own map (`pack_message` puts such
entries last), or be spliced with `pack_entry` / `pack_array_of`; anywhere else (inside a
list, deeper in a map, in a plain part of `pack_map`) msgpack refuses it with a TypeError.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import msgpack

_local = threading.local()


def _packer() -> msgpack.Packer:
    # msgpack.packb makes a new Packer, with a new 256 KiB buffer, for every call; a server
    # packs a frame per seat per move, so one Packer is kept and reused. One per thread: a
    # Packer is not thread-safe. Its default autoreset returns each call's bytes alone
    # (and it empties its buffer when a call raises).
    try:
        packer: msgpack.Packer = _local.packer
    except AttributeError:
        packer = _local.packer = msgpack.Packer(use_bin_type=True)
    return packer


class Prepacked:
    """One msgpack value, packed once; written verbatim into every body that holds it.

    Build it with `prepack` or `pack_map`, which guarantee the bytes are one msgpack value.
    It may keep its bytes in pieces (`chunks`), so that a map spliced from shared parts is
    copied once, into the frame, rather than once more into a map of its own.
    """

    __slots__ = ("chunks",)

    def __init__(self, *chunks: bytes) -> None:
        self.chunks = chunks

    @property
    def data(self) -> bytes:
        """The value's msgpack bytes."""
        return b"".join(self.chunks)

    @property
    def size(self) -> int:
        """How many bytes the value takes in a frame (without joining its pieces)."""
        return sum(map(len, self.chunks))

    def __eq__(self, other: object) -> bool:
        return type(other) is Prepacked and other.data == self.data

    def __hash__(self) -> int:
        return hash(self.data)

    def __repr__(self) -> str:
        return f"Prepacked({len(self.data)} bytes)"


class PackedEntries:
    """`count` key/value pairs of a map, packed once, without the map's header: a run of
    entries that `pack_map` splices into each map built with it."""

    __slots__ = ("count", "data")

    def __init__(self, data: bytes, count: int) -> None:
        self.data = data
        self.count = count

    def __repr__(self) -> str:
        return f"PackedEntries({self.count} entries, {len(self.data)} bytes)"


_PACKED_TYPES = frozenset({Prepacked})
# Packed keys of the maps that hold a Prepacked value: a sender's own field names, so few.
_PACKED_KEYS: dict[str, bytes] = {}
_MAX_PACKED_KEYS = 256


def _packed_key(packer: msgpack.Packer, key: str) -> bytes:
    packed = _PACKED_KEYS.get(key)
    if packed is None:
        packed = packer.pack(key)
        if len(_PACKED_KEYS) < _MAX_PACKED_KEYS:
            _PACKED_KEYS[key] = packed
    return packed


def pack_message(message: dict[str, Any]) -> bytes:
    """A message map's msgpack bytes; a `Prepacked` value is written as its bytes.

    The entries with a `Prepacked` value come last in the packed map (a map's order carries
    no meaning: the receiver decodes the same map). So the plain entries are packed in one
    call, as when there is nothing prepacked, and the packed ones appended after them.
    """
    try:
        packer: msgpack.Packer = _local.packer
    except AttributeError:
        packer = _packer()
    if _PACKED_TYPES.isdisjoint(map(type, message.values())):
        body: bytes = packer.pack(message)
        return body
    plain = message.copy()
    spliced: list[bytes] = []
    for key, value in message.items():
        if type(value) is Prepacked:
            del plain[key]
            spliced.append(_PACKED_KEYS.get(key) or _packed_key(packer, key))
            spliced += value.chunks
    size = len(plain)
    return b"".join([packer.pack_map_header(len(message)),
                     packer.pack(plain)[1 if size < 16 else _map_header_size(size):], *spliced])


def prepack(value: Any) -> Prepacked:
    """`value` packed once, to be sent as it is in many bodies."""
    return Prepacked(_packer().pack(value))


def _map_header_size(count: int) -> int:
    """Bytes of the header msgpack writes before a map of `count` entries."""
    return 1 if count < 16 else 3 if count < 0x10000 else 5


def _array_header_size(count: int) -> int:
    """Bytes of the header msgpack writes before an array of `count` items."""
    return 1 if count < 16 else 3 if count < 0x10000 else 5


def pack_entries(mapping: dict[str, Any]) -> PackedEntries:
    """The entries of `mapping` (plain values only), in its order, packed once for
    `pack_map`."""
    body: bytes = _packer().pack(mapping)
    return PackedEntries(body[_map_header_size(len(mapping)):], len(mapping))


def pack_entry(key: str, value: Prepacked) -> PackedEntries:
    """One entry whose value was packed before, for `pack_map`."""
    return PackedEntries(b"".join([_packer().pack(key), *value.chunks]), 1)


def pack_array_of(items: Sequence[Prepacked]) -> Prepacked:
    """An array of values packed before."""
    chunks = [_packer().pack_array_header(len(items))]
    for item in items:
        chunks += item.chunks
    return Prepacked(*chunks)


def pack_entries_of(keys: Sequence[str], values: Sequence[Any]) -> PackedEntries:
    """`pack_entries(dict(zip(keys, values)))` without building the map: the entries of a
    map are its keys and values one after the other, which is what an array of them holds
    after the array's own header."""
    count = len(keys)
    if len(values) != count:
        raise ValueError(f"{count} keys for {len(values)} values")
    flat: list[Any] = [None] * (2 * count)
    flat[::2] = keys
    flat[1::2] = values
    body: bytes = _packer().pack(flat)
    # The array's own header is cut off; what follows is key, value, key, value...
    return PackedEntries(body[_array_header_size(2 * count):], count)


def pack_map(*parts: dict[str, Any] | PackedEntries) -> Prepacked:
    """One map made of `parts` in order: plain maps (plain values only, packed now) and
    runs of entries packed before. The same bytes as packing the map of all their entries,
    in the same order.

    The parts' keys must not repeat: a plain map would keep one entry per key, this keeps
    both, so the result would not be the plain map's bytes.
    """
    packer = _packer()
    count = 0
    chunks: list[bytes] = [b""]
    for part in parts:
        if isinstance(part, PackedEntries):
            count += part.count
            chunks.append(part.data)
        else:
            size = len(part)
            count += size
            # The part's own map header is cut off (1 byte up to 15 entries).
            chunks.append(packer.pack(part)[1 if size < 16 else _map_header_size(size):])
    chunks[0] = packer.pack_map_header(count)
    return Prepacked(*chunks)
