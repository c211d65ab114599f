"""Length-prefixed msgpack frames with a hard size limit.

A frame is a 4-byte big-endian unsigned length N followed by N bytes holding exactly one
msgpack map with string keys. The length is checked against the limit as soon as its four
bytes arrive, so an oversize frame is refused before a single byte of its body is kept.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from netproto.wire.errors import FrameTooLarge, MalformedFrame, ProtocolError, TruncatedFrame
from netproto.wire.packing import pack_message

# 64 KiB: a view of an 8-seat table is well under 2 KiB, so this is generous yet bounded.
MAX_FRAME_SIZE = 64 * 1024
_HEADER = struct.Struct(">I")
HEADER_SIZE = _HEADER.size


def encode_frame(message: dict[str, Any], *, max_size: int = MAX_FRAME_SIZE) -> bytes:
    """Pack one message map into a frame; refuses (ValueError) to build an oversize one.

    A value of the map may be `Prepacked` (netproto.wire.packing): its bytes go in as they are.
    """
    body = pack_message(message)
    if len(body) > max_size:
        raise ValueError(f"frame of {len(body)} bytes exceeds the {max_size}-byte limit")
    return _HEADER.pack(len(body)) + body


def decode_body(body: bytes | bytearray, *, max_size: int = MAX_FRAME_SIZE) -> dict[str, Any]:
    """Unpack one frame body into a map with string keys, or raise MalformedFrame."""
    if not body:
        raise MalformedFrame("empty frame")
    try:
        value = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            use_list=True,
            # Limits are belt and braces: the frame size already bounds every container.
            max_str_len=max_size,
            max_bin_len=max_size,
            max_array_len=max_size,
            max_map_len=max_size // 2,
            max_ext_len=0,
        )
    except (ValueError, TypeError, RecursionError, msgpack.UnpackException) as error:
        # ExtraData (trailing bytes), FormatError, StackError, UnicodeDecodeError, bad keys.
        raise MalformedFrame(f"not one msgpack map: {type(error).__name__}") from None
    if not isinstance(value, dict):
        raise MalformedFrame(f"a frame must hold a map, not {type(value).__name__}")
    return value


class FrameDecoder:
    """Turns a byte stream into frame bodies, one `feed` at a time (no I/O inside)."""

    def __init__(self, *, max_size: int = MAX_FRAME_SIZE) -> None:
        self.max_size = max_size
        self._buffer = bytearray()
        self._broken = False

    @property
    def buffered(self) -> int:
        """Bytes received but not yet part of a complete frame."""
        return len(self._buffer)

    def feed(self, data: bytes | memoryview) -> list[dict[str, Any] | ProtocolError]:
        """Add bytes; return each complete frame's map, or the error its body caused.

        A fatal error (an oversize length) is returned last and the decoder then ignores
        everything that follows, since the frame boundaries are lost.
        """
        if self._broken:
            return []
        buffer = self._buffer
        buffer += data
        # Frames are read at an offset and the consumed bytes dropped once at the end: one
        # move of the buffer per feed, not two per frame.
        offset = 0
        available = len(buffer)
        results: list[dict[str, Any] | ProtocolError] = []
        while available - offset >= HEADER_SIZE:
            (length,) = _HEADER.unpack_from(buffer, offset)
            if length > self.max_size:
                self._broken = True
                buffer.clear()
                results.append(FrameTooLarge(f"frame of {length} bytes exceeds {self.max_size}"))
                return results
            end = offset + HEADER_SIZE + length
            if end > available:
                break
            try:
                results.append(decode_body(buffer[offset + HEADER_SIZE:end],
                                           max_size=self.max_size))
            except MalformedFrame as error:
                results.append(error)
            offset = end
        if offset:
            del buffer[:offset]
        return results

    def end_of_stream(self) -> TruncatedFrame | None:
        """Report the stream's end: a TruncatedFrame if it stopped inside a frame."""
        if self._broken:
            return None
        if self._buffer:
            pending = len(self._buffer)
            self._buffer.clear()
            return TruncatedFrame(f"stream ended with {pending} bytes of an unfinished frame")
        return None
