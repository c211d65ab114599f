"""Frames: the length prefix, the size limit and the msgpack body checks."""

from __future__ import annotations

import struct

import msgpack
import pytest

from netproto.wire.errors import FrameTooLarge, MalformedFrame, TruncatedFrame
from netproto.wire.framing import MAX_FRAME_SIZE, FrameDecoder, decode_body, encode_frame


def test_round_trip_split_at_every_byte() -> None:
    frames = encode_frame({"kind": "ping", "nonce": 7}) + encode_frame({"kind": "pong"})
    decoder = FrameDecoder()
    out = []
    for index in range(len(frames)):
        out.extend(decoder.feed(frames[index:index + 1]))
    assert out == [{"kind": "ping", "nonce": 7}, {"kind": "pong"}]
    assert decoder.buffered == 0


def test_oversize_length_is_refused_before_the_body_arrives() -> None:
    decoder = FrameDecoder()
    result = decoder.feed(struct.pack(">I", MAX_FRAME_SIZE + 1))
    assert len(result) == 1 and isinstance(result[0], FrameTooLarge)
    # Boundaries are lost: whatever follows is ignored and nothing is buffered.
    assert decoder.feed(b"x" * 100_000) == []
    assert decoder.buffered == 0


def test_exactly_max_size_is_accepted() -> None:
    overhead = len(msgpack.packb({"kind": "x", "pad": ""})) + 2  # str32 header: 5 bytes
    body = msgpack.packb({"kind": "x", "pad": "a" * (MAX_FRAME_SIZE - overhead)})
    assert len(body) == MAX_FRAME_SIZE
    assert FrameDecoder().feed(struct.pack(">I", len(body)) + body)[0]["kind"] == "x"


def test_encoder_refuses_oversize_frames() -> None:
    with pytest.raises(ValueError):
        encode_frame({"kind": "x", "pad": "a" * MAX_FRAME_SIZE})


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\xc1",  # never-used msgpack byte
        msgpack.packb([1, 2, 3]),
        msgpack.packb("kind"),
        msgpack.packb({1: "int key"}),
        msgpack.packb({"kind": "ping"}) + b"\x00",  # trailing data
        b"\x81\xa4kind\xa2\xff\xfe",  # invalid UTF-8
        b"\xdf\xff\xff\xff\xff",  # map header promising 4 billion entries
        b"\x91" * 5000 + b"\xc0",  # deep nesting
    ],
)
def test_bad_bodies_are_malformed_frames(body: bytes) -> None:
    with pytest.raises(MalformedFrame):
        decode_body(body)
    decoder = FrameDecoder()
    results = decoder.feed(struct.pack(">I", len(body)) + body + encode_frame({"kind": "ok"}))
    assert isinstance(results[0], MalformedFrame)
    assert results[1] == {"kind": "ok"}  # the next frame still decodes


def test_truncated_stream_is_reported_at_its_end() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(encode_frame({"kind": "ping"})[:-2]) == []
    assert isinstance(decoder.end_of_stream(), TruncatedFrame)
    assert FrameDecoder().end_of_stream() is None
