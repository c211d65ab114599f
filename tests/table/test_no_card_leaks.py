"""Every frame every seat (and a spectator) receives, scanned for cards it may not see.

The server records, for each frame it sends, the connection's seat and the true game state
at that moment; the clients keep the raw bytes they read off their sockets. Frame by frame,
each view must show exactly its own seat's hand, only revealed hands that the rules reveal,
only legal moves of its own seat, and only public events; no other frame kind carries any
game data (players talk now and then: a `chat` frame carries a name, a seat and text only).

Players whose link dies mid-match and who resume their seats, and a spectator who arrives
mid-match, are sent the match so far (`view.history`): it must hold exactly the public
events every seat was sent, never a card of another hand.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from host_table_helpers import PRESETS, serve

from netproto.server import Peer
from netproto.wire.connection import Connection, Role, State
from netproto.wire.framing import FrameDecoder
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    Bye,
    Hello,
    Lobby,
    Move,
    Ping,
    Pong,
    Ready,
    Resume,
    Say,
    View,
    Welcome,
)
from ono99tui.game import MATCH_OVER, Eliminated
from ono99tui.game.codec import event_from_wire, move_to_wire, view_from_wire
from ono99tui.host.seats import Seat
from ono99tui.host.server import TableApplication

# What the server sent one connection: the frame's kind, the connection's seat, the true
# state, and the match's public events so far (as every seat was sent them).
SentRecord = tuple[str, int | None, Any, tuple[dict[str, Any], ...]]


class RawPlayer:
    """A client written against the sans-IO Connection that keeps every frame it reads."""

    def __init__(self, name: str, seed: int, *, spectate: bool = False) -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.spectate = spectate
        self.frames: list[dict[str, Any]] = []
        self.address = ""
        self.matches = 0

    async def play(self, port: int, matches: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        host, local_port = writer.get_extra_info("sockname")[:2]
        self.address = f"{host}:{local_port}"
        connection = Connection(Role.CLIENT)
        raw = FrameDecoder()
        writer.write(connection.send(Hello(proto=PROTOCOL_VERSION, name=self.name,
                                           spectate=self.spectate)))
        phase = None
        while True:
            data = await asyncio.wait_for(reader.read(65536), 10)
            self.frames.extend(frame for frame in raw.feed(data) if isinstance(frame, dict))
            events = connection.receive_data(data)
            if connection.state is State.CLOSED:
                return
            views = [event for event in events if isinstance(event, View)]
            for event in events:
                if isinstance(event, Ping):
                    writer.write(connection.send(Pong(nonce=event.nonce)))
                elif isinstance(event, Lobby):
                    if phase == "playing" and event.phase == "finished":
                        self.matches += 1
                        if not self.spectate and self.matches >= matches:
                            writer.write(connection.send(Bye()))
                            await writer.drain()
                            writer.close()
                            return
                    phase = event.phase
            if connection.state is State.LOBBY and phase == "finished" and not self.spectate:
                writer.write(connection.send(Ready()))
            move = self.random_move(connection, views)
            if move:
                writer.write(move)
                if self.rng.random() < 0.1:  # table talk rides along: chat frames too
                    writer.write(connection.send(Say(text=f"{self.name}: good luck [b]all[/b]")))
            await writer.drain()

    def random_move(self, connection: Connection, views: list[View]) -> bytes:
        """The frame of a random legal move from the newest of `views`, if the seat has
        one to make now; else nothing."""
        if not views or connection.state is not State.SEATED:
            return b""
        latest = views[-1]
        moves = view_from_wire(latest.view).legal_moves
        if not moves:
            return b""
        return connection.send(Move(seq=latest.seq, move=move_to_wire(self.rng.choice(moves))))


def check_view(frame: dict[str, Any], seat: int | None, state: Any) -> None:
    view = view_from_wire(frame["view"])  # strict: exactly the PlayerView fields
    assert view.seat == seat
    assert view.hand == (state.hands[seat] if seat is not None else ())
    for other, revealed in enumerate(view.revealed):
        if revealed is not None:
            assert state.rules.reveal_eliminated and not state.alive[other]
            assert revealed == state.hands[other] or revealed == state.revealed[other]
    assert view.discard_top == (state.discard_pile[-1] if state.discard_pile else None)
    for move in view.legal_moves:
        assert move.seat == seat
        card = getattr(move, "card", None)
        assert card is None or card in view.hand
    assert set(frame) <= VIEW_KEYS, frame
    for wire in [*frame.get("history", ()), *frame["events"]]:
        event = event_from_wire(wire)  # strict: exactly the event's public fields
        if isinstance(event, Eliminated):
            assert event.hand is None or state.rules.reveal_eliminated


def check_history(frame: dict[str, Any], public: tuple[dict[str, Any], ...]) -> bool:
    """A (re)joined view's history and its events are the match's public events so far,
    exactly as every seat was sent them (nothing else, nothing left out); whether the
    frame had a history."""
    if "history" not in frame:
        return False
    assert [*frame["history"], *frame["events"]] == list(public)
    return True


VIEW_KEYS = {"kind", "seq", "view", "events", "clock", "history", "history_abridged"}

NON_VIEW_KEYS = {
    "welcome": {"kind", "proto", "role", "seat", "token", "host", "table"},
    "lobby": {"kind", "phase", "seats", "host_seat", "you", "capacity", "spectators",
              "options", "results"},
    "ping": {"kind", "nonce"}, "pong": {"kind", "nonce"},
    "error": {"kind", "code", "reason", "ref"}, "bye": {"kind", "code", "reason"},
    "chat": {"kind", "name", "text", "seat", "emote"},
}


def record_every_frame(monkeypatch: pytest.MonkeyPatch, sent: dict[str, list[SentRecord]],
                       tables: list[TableApplication]) -> None:
    """Keep, per peer address, every frame the table (`tables[0]`, once served) sends:
    its kind, the seat it went to, the true state and the match's events at the time."""
    original_send = Peer.send

    def recording_send(peer: Peer, message: Any) -> None:
        if peer.is_open:
            table = tables[0]
            session = table.seat_of(peer)
            seat = table.seats.index(session) if isinstance(session, Seat) \
                and session in table.seats else None
            sent.setdefault(peer.address, []).append(
                (message.kind, seat, table.state, tuple(table.core.match_events)))
        original_send(peer, message)

    monkeypatch.setattr(Peer, "send", recording_send)


@pytest.mark.parametrize("rules", PRESETS)
async def test_no_frame_carries_a_card_its_seat_may_not_see(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: dict[str, list[SentRecord]] = {}
    tables: list[TableApplication] = []
    record_every_frame(monkeypatch, sent, tables)
    server = await serve(rules=rules, capacity=4, start_when=4, seed=len(rules))
    tables.append(server.table)
    players = [RawPlayer(f"P{n}", seed=n) for n in range(3)]
    watcher = RawPlayer("Watcher", seed=9, spectate=True)
    try:
        watching = asyncio.create_task(watcher.play(server.port, 0))
        server.table.add_bot("random")
        await asyncio.wait_for(
            asyncio.gather(*(player.play(server.port, 3) for player in players)), 30)
    finally:
        await server.stop()
        await asyncio.wait_for(watching, 5)
    assert all(player.matches == 3 for player in players)
    assert server.table.journal[2].winners
    views_checked = 0
    for client in [*players, watcher]:
        records = sent[client.address]
        frames = [frame for frame in client.frames if frame["kind"] != "bye"]
        sent_frames = [record for record in records if record[0] != "bye"]
        # A player stops reading once it said bye; the server may have sent a little more.
        assert len(frames) == len(sent_frames) if client.spectate else \
            0 < len(frames) <= len(sent_frames)
        # strict=False: a player may have read fewer frames than the server sent (above).
        for frame, (kind, seat, state, _) in zip(frames, records, strict=False):
            assert frame["kind"] == kind
            if kind == "view":
                check_view(frame, seat, state)
                views_checked += 1
            else:
                assert set(frame) <= NON_VIEW_KEYS[kind], frame
    assert views_checked > 100
    assert any(frame["kind"] == "chat" for frame in watcher.frames)
    assert any(r[2] is not None and r[2].phase == MATCH_OVER for r in sent[watcher.address])


class RejoiningPlayer(RawPlayer):
    """A RawPlayer whose link dies without a word after `drop_after` views of its first
    match; a new connection resumes the seat with its token and plays on. Each link's
    frames are kept apart, by the link's address (`links`)."""

    def __init__(self, name: str, seed: int, drop_after: int) -> None:
        super().__init__(name, seed)
        self.drop_after = drop_after
        self.links: dict[str, list[dict[str, Any]]] = {}
        self.resumed = False

    async def play(self, port: int, matches: int) -> None:
        token = await self._link(port, Hello(proto=PROTOCOL_VERSION, name=self.name),
                                 matches, drop=True)
        assert token is not None
        self.resumed = True
        await self._link(port, Resume(proto=PROTOCOL_VERSION, token=token), matches,
                         drop=False)

    async def _link(self, port: int, opening: Any, matches: int, *, drop: bool) -> str | None:
        """One connection, from `opening` on; with `drop`, cut it mid-match and return the
        seat's token."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        host, local_port = writer.get_extra_info("sockname")[:2]
        frames = self.links.setdefault(f"{host}:{local_port}", [])
        connection = Connection(Role.CLIENT)
        raw = FrameDecoder()
        writer.write(connection.send(opening))
        phase, token, views_seen = None, None, 0
        while True:
            data = await asyncio.wait_for(reader.read(65536), 10)
            frames.extend(frame for frame in raw.feed(data) if isinstance(frame, dict))
            events = connection.receive_data(data)
            if connection.state is State.CLOSED:
                return token
            views = [event for event in events if isinstance(event, View)]
            views_seen += len(views)
            for event in events:
                if isinstance(event, Welcome):
                    token = event.token
                elif isinstance(event, Ping):
                    writer.write(connection.send(Pong(nonce=event.nonce)))
                elif isinstance(event, Lobby):
                    if phase == "playing" and event.phase == "finished":
                        self.matches += 1
                        if self.matches >= matches:
                            writer.write(connection.send(Bye()))
                            await writer.drain()
                            writer.close()
                            return token
                    phase = event.phase
            if drop and views_seen >= self.drop_after and phase == "playing":
                writer.transport.abort()  # the laptop lid closes: no bye
                return token
            if connection.state is State.LOBBY and phase == "finished":
                writer.write(connection.send(Ready()))
            writer.write(self.random_move(connection, views))
            await writer.drain()


@pytest.mark.parametrize("rules", PRESETS)
async def test_a_rejoined_views_history_carries_only_the_public_events(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sent: dict[str, list[SentRecord]] = {}
    tables: list[TableApplication] = []
    record_every_frame(monkeypatch, sent, tables)
    server = await serve(rules=rules, capacity=3, start_when=3, seed=len(rules) + 1,
                         grace_seconds=30.0)
    tables.append(server.table)
    droppers = [RejoiningPlayer(f"P{n}", seed=n, drop_after=4 + 3 * n) for n in range(2)]
    late = RawPlayer("Late", seed=7, spectate=True)
    try:
        server.table.add_bot("random")
        playing = [asyncio.create_task(player.play(server.port, 2)) for player in droppers]
        # The spectator arrives once the match is under way.
        async with asyncio.timeout(10):
            while server.table.core.state is None or len(server.table.core.match_events) < 12:
                await asyncio.sleep(0.01)
        watching = asyncio.create_task(late.play(server.port, 0))
        await asyncio.wait_for(asyncio.gather(*playing), 30)
    finally:
        await server.stop()
        await asyncio.wait_for(watching, 5)
    assert all(player.resumed and player.matches == 2 for player in droppers)
    histories = 0
    links = [(address, frames) for player in droppers for address, frames in player.links.items()]
    links.append((late.address, late.frames))
    for address, frames in links:
        records = sent[address]
        for frame, (kind, seat, state, public) in zip(frames, records, strict=False):
            assert frame["kind"] == kind
            if kind == "view":
                check_view(frame, seat, state)
                histories += check_history(frame, public)
            else:
                assert set(frame) <= NON_VIEW_KEYS[kind], frame
    # Each resumed link's first view and the late spectator's carried a history.
    assert histories >= 3
