"""Hypothesis against a live table on loopback: structured messages and raw byte streams.

The table runs in its own thread and event loop for the whole module, mid-match, with two
bots and one human seat. Each example takes that seat over with its resume token (so the
fuzzed messages arrive in a real SEATED or LOBBY connection), sends its messages or bytes,
then proves the connection still answers (a ping gets its pong) or was closed with a typed
bye. Afterwards every match in the journal must replay legally from its seed: no bad input
changed the game, and no move was applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from host_table_helpers import config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from netproto.server import ServerLimits
from netproto.wire.errors import CLOSE_CODES, PROTOCOL_ERROR_CODES
from netproto.wire.framing import FrameDecoder, encode_frame
from netproto.wire.messages import MESSAGE_TYPES, PROTOCOL_VERSION
from ono99tui.game import Card
from ono99tui.game.codec import move_to_wire, view_from_wire
from ono99tui.host.journal.records import replay
from ono99tui.host.server import TableServer
from ono99tui.table_protocol import TableError

KNOWN_CODES = set(PROTOCOL_ERROR_CODES) | set(TableError) | set(CLOSE_CODES)


class LiveTable:
    """A TableServer on its own event loop thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.server = TableServer(
            config(rules="2022", capacity=3, start_when=3, grace_seconds=60.0),
            # Every example resumes (from 127.0.0.1) and a fuzzed bye may give the seat
            # up: the stale tokens that follow must not trip the bad-token throttle.
            limits=ServerLimits(handshake_timeout=5.0, heartbeat_interval=30.0,
                                heartbeat_timeout=60.0, error_budget=40,
                                bad_tokens_per_address=10_000))
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.call(self.server.start("127.0.0.1", 0))
        self.port = self.server.port
        self.token = ""

    def call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    def stop(self) -> None:
        self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Wire:
    """A blocking socket speaking frames."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.decoder = FrameDecoder()
        self.pending: list[dict[str, Any]] = []
        self.closed = False

    def send(self, wire: dict[str, Any]) -> None:
        self.sock.sendall(encode_frame(wire))

    def read(self) -> dict[str, Any] | None:
        """The next frame, or None once the server closed the connection."""
        while not self.pending:
            data = self.sock.recv(65536)
            if not data:
                self.closed = True
                return None
            self.pending.extend(f for f in self.decoder.feed(data) if isinstance(f, dict))
        return self.pending.pop(0)

    def until(self, kind: str) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
        """Read up to the first frame of `kind` (or the close); also return the frames before."""
        seen = []
        while True:
            frame = self.read()
            if frame is None or frame["kind"] == kind:
                return frame, seen
            seen.append(frame)

    def close(self) -> None:
        self.sock.close()


def open_table() -> LiveTable:
    """A live table mid-match: a human seat (the host, token kept) and two bots."""
    table = LiveTable()
    first = Wire(table.port)
    first.send({"kind": "hello", "proto": PROTOCOL_VERSION, "name": "Fuzz"})
    welcome, _ = first.until("welcome")
    assert welcome is not None
    table.token = welcome["token"]
    table.call(_add_bots(table.server))
    first.close()
    return table


def close_table(table: LiveTable) -> int:
    """Stop the table; replay its journal; return how many moves the human seat made."""
    table.stop()
    for record in table.server.table.journal:
        state = replay(record)  # raises if any journaled move was illegal
        if record.winners:
            assert state.winners == record.winners
    return sum(1 for record in table.server.table.journal for move in record.moves
               if move["seat"] == 0)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveTable]:
    """The table the fuzzers hammer (they may remove bots, change options, leave...)."""
    table = open_table()
    yield table
    close_table(table)


@pytest.fixture(scope="module")
def clean_table() -> Iterator[LiveTable]:
    """A table that only ever gets legal moves and their replays."""
    table = open_table()
    yield table
    # Its journal replays whatever was played (the replay test counts its own moves: under
    # xdist each of this fixture's tests may get a table of its own, on another worker).
    close_table(table)


async def _add_bots(server: TableServer) -> None:
    server.table.add_bot("greedy")
    server.table.add_bot("random")


def resumed(live: LiveTable) -> tuple[Wire, dict[str, Any] | None]:
    """A connection holding the human seat (or a new one), and the newest view it was sent."""
    wire = Wire(live.port)
    wire.send({"kind": "resume", "proto": PROTOCOL_VERSION, "token": live.token})
    reply = wire.read()
    if reply is not None and reply["kind"] == "error":
        # A fuzzed bye gave the seat up: sit down again (or watch, if the table is full).
        assert reply["code"] == "bad-token"
        wire.send({"kind": "hello", "proto": PROTOCOL_VERSION, "name": "Fuzz"})
        reply, _ = wire.until("welcome")
    assert reply is not None and reply["kind"] == "welcome"
    if reply.get("token"):
        live.token = reply["token"]
    wire.send({"kind": "ping", "nonce": 1})
    _, before = wire.until("pong")
    views = [frame for frame in before if frame["kind"] == "view"]
    return wire, (views[-1] if views else None)


def still_answers(wire: Wire, frames_seen: list[dict[str, Any]]) -> None:
    """A ping gets its pong, or the connection was closed with a typed bye."""
    if not wire.closed:
        try:
            wire.send({"kind": "ping", "nonce": 424242})
            while True:  # fuzzed pings get their own pongs first
                pong, before = wire.until("pong")
                frames_seen.extend(before)
                if pong is None or pong["nonce"] == 424242:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pong = None
        if pong is not None:
            assert pong["nonce"] == 424242
    for frame in frames_seen:
        if frame["kind"] in ("error", "bye"):
            assert frame["code"] in KNOWN_CODES, frame


scalars = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
           | st.floats(allow_nan=True) | st.text(max_size=12) | st.binary(max_size=12))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=8)
field_names = st.sampled_from(["proto", "name", "token", "seq", "move", "ready", "bot", "seat",
                               "options", "nonce", "code", "reason", "spectate", "password",
                               "card", "view", "events", "role"])
card_tokens = st.sampled_from([card.token for card in Card] + ["99", "", "x"])
fuzzed_moves = st.fixed_dictionaries({
    "kind": st.just("move"),
    "seq": st.integers(-1, 60) | values,
    "move": st.fixed_dictionaries({
        "kind": st.sampled_from(["play", "draw", "swap_four", "discard", "fly"]),
        "seat": st.integers(-1, 4) | values,
        "card": card_tokens | values,
    }) | values,
})
any_message = st.builds(
    lambda kind, fields: {**fields, "kind": kind},
    st.sampled_from([*MESSAGE_TYPES, "", "nope"]) | st.text(max_size=8),
    st.dictionaries(field_names, values, max_size=5),
) | fuzzed_moves | st.dictionaries(st.text(max_size=5), values, max_size=4)

FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@FUZZ
@given(messages=st.lists(any_message, min_size=1, max_size=6))
def test_structured_messages(live: LiveTable, messages: list[dict[str, Any]]) -> None:
    wire, _ = resumed(live)
    seen: list[dict[str, Any]] = []
    try:
        for message in messages:
            try:
                wire.sock.sendall(encode_frame(message))
            except ValueError:
                continue  # too big to frame: nothing to send
            except (BrokenPipeError, ConnectionResetError):
                break
        still_answers(wire, seen)
    finally:
        wire.close()


@FUZZ
@given(chunks=st.lists(st.binary(max_size=64), min_size=1, max_size=4),
       prefix=st.sampled_from([b"", struct.pack(">I", 5), struct.pack(">I", 70_000),
                               struct.pack(">I", 0)]))
def test_raw_byte_streams(live: LiveTable, chunks: list[bytes], prefix: bytes) -> None:
    wire, _ = resumed(live)
    seen: list[dict[str, Any]] = []
    try:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            wire.sock.sendall(prefix + b"".join(chunks))
        # A half-sent frame stays pending, so the ping may never be read: cut the stream.
        wire.sock.shutdown(socket.SHUT_WR)
        while (frame := wire.read()) is not None:
            seen.append(frame)
        still_answers(wire, seen)
    except (TimeoutError, ConnectionResetError):
        pass
    finally:
        wire.close()


def test_replayed_moves_are_applied_once(clean_table: LiveTable) -> None:
    table = clean_table
    journal = table.server.table.journal
    played = 0
    for round_number in range(40):
        replays = 1 + round_number % 3
        wire, latest = resumed(table)
        try:
            if latest is None or not view_from_wire(latest["view"]).legal_moves:
                if table.server.table.phase == "finished":
                    wire.send({"kind": "start"})  # the seat is the host: rematch
                    wire.send({"kind": "ping", "nonce": 7})
                    wire.until("pong")
                continue
            move = move_to_wire(view_from_wire(latest["view"]).legal_moves[0])
            before = sum(len(record.moves) for record in journal)
            frame = {"kind": "move", "seq": latest["seq"], "move": move}
            for _ in range(1 + replays):
                wire.send(frame)
            wire.send({"kind": "ping", "nonce": 7})
            _, seen = wire.until("pong")
            # Refused as stale, or (if the move ended the match) as out of place.
            codes = [f["code"] for f in seen if f["kind"] == "error"]
            assert len(codes) == replays
            assert set(codes) <= {"stale-seq", "unexpected-message"}
            # Exactly one application of the move (bots may have moved after it).
            after = [m for r in journal for m in r.moves][before:]
            assert after[0] == move and after.count(move) == 1
            played += 1
        finally:
            wire.close()
    assert played >= 10


def test_idle_crowd_and_stalled_handshakes_leave_the_table_playing(clean_table: LiveTable) -> None:
    table = clean_table
    wire, latest = resumed(table)
    crowd = []
    try:
        # Hundreds of connections from one address that never say hello: past the
        # address's share of unfinished handshakes its oldest ones are closed with a typed
        # bye, the last few wait for their handshake timeout.
        for _ in range(200):
            try:
                crowd.append(Wire(table.port))
            except OSError:
                break
        refused = 0
        for idle in crowd[:20]:
            idle.sock.settimeout(2)
            frame = idle.read()
            if frame is not None and frame["kind"] == "bye":
                assert frame["code"] == "too-many-connections"
                refused += 1
        assert refused > 0
        # The seated player is unaffected: it still plays.
        if latest is not None and view_from_wire(latest["view"]).legal_moves:
            move = move_to_wire(view_from_wire(latest["view"]).legal_moves[0])
            wire.send({"kind": "move", "seq": latest["seq"], "move": move})
        wire.send({"kind": "ping", "nonce": 99})
        pong, seen = wire.until("pong")
        assert pong is not None and pong["nonce"] == 99
        assert not [frame for frame in seen if frame["kind"] == "error"]
    finally:
        wire.close()
        for idle in crowd:
            idle.close()
