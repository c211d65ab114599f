"""Reading from a socket into one buffer kept for the connection's whole life.

With a plain `asyncio.Protocol`, the transport makes a new bytes object for every read, of
its read size (256 KiB), then shrinks it to what arrived. That size is above glibc's mmap
threshold, so every read of a 700-byte view cost an mmap, an mremap and later a munmap: about
8 % of the CPU of an 8-seat fan-out on loopback (py-spy, bench/latency.py). A
`BufferedProtocol` lends the transport the same buffer every time (`recv_into`).
"""

from __future__ import annotations

import asyncio

from netproto.wire.framing import HEADER_SIZE, MAX_FRAME_SIZE

# Room for the largest frame in one read; more simply takes several reads.
RECEIVE_BUFFER_SIZE = HEADER_SIZE + MAX_FRAME_SIZE


class BufferedReceiver(asyncio.BufferedProtocol):
    """A protocol whose `data_received` gets a view of the shared buffer, valid only during
    the call: whatever it keeps, it copies (the frame decoder always does)."""

    def __init__(self) -> None:
        self._receive_buffer = memoryview(bytearray(RECEIVE_BUFFER_SIZE))

    def get_buffer(self, sizehint: int) -> memoryview:
        return self._receive_buffer

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(self._receive_buffer[:nbytes])

    def data_received(self, data: memoryview) -> None:
        """Handle the bytes just read."""
        raise NotImplementedError
