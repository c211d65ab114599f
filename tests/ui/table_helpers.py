"""Helpers for the table-screen tests: real tables on loopback, engine-made views, a cuttable
TCP proxy, and waiting on the app without sleeping blindly."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from table_items import lobby_updated, view_updated
from testkit.screens import screen_text as screen_text
from testkit.waiting import pilot_wait_until as wait_until
from textual.pilot import Pilot

from netproto.client import TableClient
from netproto.wire.messages import Lobby, SeatInfo
from ono99tui.commands.solo import solo_app, solo_config
from ono99tui.game import PlayerView, Rules, State, apply, legal_moves, start_match, view
from ono99tui.game.events import Event
from ono99tui.host.server import TableServer
from ono99tui.ui.app import Ono99App
from ono99tui.ui.requests import MoveChosen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.cards import HandView

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay", "gus", "hal")


def prompt_text(app: Ono99App) -> str:
    """The table screen's prompt line ("" until the screen has built it)."""
    found = app.screen.query("#prompt")
    return str(found.first().content) if found else ""


def lobby_for(seats: int, *, you: int = 0, bots: Sequence[int] = (), spectators: int = 0,
              away: Sequence[int] = ()) -> Lobby:
    """A lobby message naming `seats` players (ana, bob, ...)."""
    return Lobby(
        phase="playing",
        seats=tuple(
            SeatInfo(seat, NAMES[seat], "bot" if seat in bots else "human", True, seat not in away)
            for seat in range(seats)
        ),
        host_seat=0,
        capacity=seats,
        spectators=spectators,
        you=you,
    )


class LocalMatch:
    """A match run by the engine in the test itself, fed to an app as the worker would.

    It exercises everything from the app's message handlers down, with no network, so
    screenshots are exactly repeatable.
    """

    def __init__(self, rules: Rules, seats: int, seed: int, *, me: int = 0,
                 state: State | None = None) -> None:
        self.rng = random.Random(seed)
        self.me = me
        self.seq = 0
        self.state: State
        self.pending: tuple[Event, ...] = ()
        if state is None:
            self.state, self.pending = start_match(rules, seats, self.rng)
        else:
            self.state = state

    @classmethod
    def at(cls, state: State, *, me: int = 0, seed: int = 1) -> LocalMatch:
        """A match from a hand-made position (see `ono99tui.game.position`)."""
        return cls(state.rules, state.seats, seed, me=me, state=state)

    def view(self) -> PlayerView:
        """The viewer's view of the current state."""
        return view(self.state, self.me)

    def step(self, choose: Callable[[State, int], Any] | None = None) -> tuple[Event, ...]:
        """Apply one move of whoever acts (the first legal move unless `choose` says)."""
        acting = next(s for s in range(self.state.seats) if legal_moves(self.state, s))
        moves = legal_moves(self.state, acting)
        move = choose(self.state, acting) if choose else moves[0]
        self.state, events = apply(self.state, move, self.rng)
        self.pending = self.pending + events
        return events

    def run_until(self, predicate: Callable[[State], bool], limit: int = 5000) -> None:
        """Play random legal moves until `predicate(state)` holds."""
        for _ in range(limit):
            if predicate(self.state):
                return
            self.step(lambda state, seat: self.rng.choice(legal_moves(state, seat)))
        raise AssertionError("the position never came up")

    async def show(self, app: Ono99App, pilot: Pilot[Any]) -> None:
        """Post the viewer's view with the events since the last one, and let it render."""
        self.seq += 1
        app.post_message(view_updated(self.seq, self.view(), self.pending))
        self.pending = ()
        await pilot.pause()


async def open_local(app: Ono99App, pilot: Pilot[Any], match: LocalMatch, lobby: Lobby) -> None:
    """Give the app a lobby and the match's first view."""
    app.post_message(lobby_updated(lobby))
    await match.show(app, pilot)
    await wait_until(pilot, lambda: app.session.view is not None and app._table_screen() is not None)


class RecordingApp(Ono99App):
    """An app with no connection that keeps the moves it would send."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("ascii_glyphs", False)
        options.setdefault("sixteen_colours", False)
        super().__init__(start_screen=TableScreen, **options)
        self.sent: list[Any] = []

    async def on_move_chosen(self, message: MoveChosen) -> None:
        self.sent.append(message.move)


def record_notices(app: Ono99App) -> list[str]:
    """Keep the text of every notification the app shows from now on."""
    notices: list[str] = []
    show = app.notify

    def notify(message: str, **options: Any) -> None:
        notices.append(message)
        show(message, **options)

    app.notify = notify  # type: ignore[method-assign]
    return notices


def hand(app: Ono99App) -> HandView:
    """The table screen's hand."""
    return app.screen.query_one(HandView)


def first_playable(app: Ono99App) -> int | None:
    """Index of the first card the player may play now, if any (None before the screen
    has built its hand)."""
    found = app.screen.query(HandView)
    if not found:
        return None
    for index, card in enumerate(found.first().cards):
        if card.slot is not None and card.slot.playable:
            return index
    return None


def start_solo_table(*, bots: int = 2, rules: str = "2022", seed: int = 5) -> TableServer:
    """A solo table with instant bots (not started: use `async with`)."""
    return TableServer(solo_config(bots=bots, rules=rules, seed=seed, bot_delay=0.0))


def solo(server: TableServer, *, bots: int = 2, **options: Any) -> Ono99App:
    """The solo app for the running `server`, colours and glyphs pinned."""
    options.setdefault("ascii_glyphs", False)
    options.setdefault("sixteen_colours", False)

    async def running(tell_player: Callable[[str], None]) -> TableServer:
        return server

    return solo_app(running, name="ana", bots=bots, **options)


class CuttableProxy:
    """A TCP relay on 127.0.0.1 in front of a table: `cut()` drops every live connection
    (as a dead Wi-Fi link would) while new connections keep working."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.connections = 0

    async def start(self) -> CuttableProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def go_down(self) -> None:
        """Reset every connection and stop listening: the table is unreachable."""
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()
        self.cut()

    async def come_back(self) -> None:
        """Listen again on the same port."""
        await self.start()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers |= {writer, up_writer}
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        sink.close()

    def cut(self) -> None:
        """Reset every relayed connection."""
        for writer in list(self._writers):
            transport = writer.transport
            transport.abort()
        self._writers.clear()

    async def stop(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()


class HoldingProxy(CuttableProxy):
    """A relay that can hold back what the table sends (`hold()` / `release()`), as a slow
    link would, while the player's messages still go straight through."""

    def __init__(self, target_port: int) -> None:
        super().__init__(target_port)
        self._open = asyncio.Event()
        self._open.set()

    def hold(self) -> None:
        """Keep the table's messages in the relay from now on."""
        self._open.clear()

    def release(self) -> None:
        """Let the held messages (and all later ones) through."""
        self._open.set()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers |= {writer, up_writer}
        for task in (asyncio.create_task(self._pipe(reader, up_writer)),
                     asyncio.create_task(self._held_pipe(up_reader, writer))):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _held_pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await source.read(65536):
                await self._open.wait()
                sink.write(data)
                await sink.drain()
        sink.close()


async def _play_first_moves(client: TableClient, go: asyncio.Event | None) -> None:
    """Play the first legal move whenever the table offers this seat one (once `go` is
    set, if given)."""
    async for item in client:
        view = client.view
        if item is view and view is not None and view.view.get("legal_moves"):
            if go is not None:
                await go.wait()
            await client.send_move(view.view["legal_moves"][0], seq=view.seq)


@asynccontextmanager
async def first_move_player(port: int, name: str, *, go: asyncio.Event | None = None,
                            password: str | None = None) -> AsyncIterator[TableClient]:
    """A player seated at the table on `port` as `name`, playing its first legal move each
    turn (only once `go` is set, if given: a match then lasts until the test lets it end)."""
    client = await TableClient.connect("127.0.0.1", port, name=name, password=password)
    task = asyncio.get_running_loop().create_task(_play_first_moves(client, go))
    try:
        yield client
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await asyncio.wait_for(client.close(), 5)
