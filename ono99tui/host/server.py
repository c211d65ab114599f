"""One table served on asyncio: the thin adapter around the sans-IO `TableCore`.

`TableApplication` is the netproto `Application`: it gives the core each message and close
with the event loop's clock as `now`, and carries out each output the moment the core asks
for it (`carry_out`), in order:
sends and closes on the connection's `Peer` (the core knows peers only by `Peer.id`),
timers with `loop.call_at`, journal records into the journal, summary changes to the
`on_change` listener, and bot moves (`BotMoveWanted`, values only) with
`bot_thoughts.BotThoughts`: the bot is made from its kind and what it has seen, and thinks,
on the table's own worker thread within the request's budget (the greedy choice past it)
while the loop goes on serving every other seat, and its move goes back to the core as
`bot_decided` when its pace timer fires (or as soon as it is chosen, if that is later).
Everything the table decides is in `ono99tui.host.core`.

`TableServer` puts it behind `netproto.server.Server`, so that a table can run inside any
asyncio program (the headless `ono99 host`, the Textual app's `ono99 solo` / `ono99 host`,
tests and benchmarks):

    async with TableServer(TableConfig(capacity=4, start_when=4)) as server:
        print(server.port)
        await server.wait_closed()
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import Any

from netproto.server import Peer, Server, ServerLimits
from netproto.wire.errors import GOING_AWAY
from netproto.wire.messages import Hello, Message
from ono99tui.game import Move, Rules
from ono99tui.game import State as GameState
from ono99tui.host.bot_thoughts import BotThoughts
from ono99tui.host.core import PLAYING, TableCore
from ono99tui.host.journal.ratings_file import Ratings
from ono99tui.host.journal.records import JOURNAL_RECORDS, MatchRecord, MemoryJournal, TableJournal
from ono99tui.host.journal.resume import ResumePoint, Standing
from ono99tui.host.outputs import (
    ArmTimer,
    BotMoveWanted,
    BotTurn,
    CancelTimer,
    Close,
    Output,
    RatingsChanged,
    Send,
    SummaryChanged,
    TableSummary,
    TimerKey,
)
from ono99tui.host.seats import Seat
from ono99tui.host.table_config import TableConfig

log = logging.getLogger(__name__)


class TableApplication:
    """One table as netproto's `Application` (see the module docstring).

    Its state is the core's, read-only (`seats`, `phase`, `state`, ...); the operator's
    commands (`add_bot`, `start`, ...) go to the core and raise its `ApplicationError`.
    """

    def __init__(self, config: TableConfig,
                 on_change: Callable[[TableSummary], None] | None = None,
                 journal: TableJournal | None = None,
                 ratings: Ratings | None = None) -> None:
        # Each output is carried out the moment the core asks for it (`_carry_out`), in
        # order: a move's views leave before the core asks the bots for their moves.
        self.core = TableCore(config, carry_out=self._carry_out,
                              ratings=None if ratings is None else ratings.book)
        # Where a rated match's changes are kept (None: kept in memory only).
        self._ratings_file = None if ratings is None else ratings.file
        # What went wrong keeping ratings, newest last (the host's app may show it).
        self.ratings_problems: list[str] = []
        self.on_change = on_change
        # Where the journal lives: in memory unless the host gives the table its file.
        self._journal: TableJournal = journal if journal is not None else MemoryJournal()
        # The timer armed for each key the core asked for.
        self.timers: dict[TimerKey, asyncio.TimerHandle] = {}
        self._peers: dict[int, Peer] = {}
        # Bots think on one worker thread, one move at a time. Each thought has a bot of
        # its own, made from the request's values: nothing it touches is shared with the
        # loop. A thought overtaken by a newer view is dropped by the core (`bot_decided`).
        self._thoughts = BotThoughts(self._bot_decided)
        self._closed = False

    # --- netproto Application ------------------------------------------------------------

    def on_message(self, peer: Peer, message: Message) -> None:
        """Hand one message to the core (its refusal propagates to the server pump)."""
        peers = self._peers
        if peer.id not in peers:
            peers[peer.id] = peer
        if peer.door is not None and isinstance(message, Hello):
            self.core.through_door(peer.id)  # a door's user: the door's caps (docs/WEB.md)
        self._execute(self.core.peer_message(peer.id, message, _now()))

    def on_close(self, peer: Peer, code: str, reason: str) -> None:
        """A connection ended: the core holds its seat or forgets the spectator."""
        self._peers.pop(peer.id, None)
        self._execute(self.core.peer_gone(peer.id, code, _now()))

    # --- the operator's commands (also callable in-process) ------------------------------

    def add_bot(self, kind: str) -> None:
        """Seat a bot of `kind`; raises ApplicationError."""
        self._execute(self.core.add_bot(kind, _now()))

    def remove_bot(self, index: int) -> None:
        """Remove the bot in seat `index`; raises ApplicationError."""
        self._execute(self.core.remove_bot(index, _now()))

    def set_options(self, options: dict[str, Any]) -> None:
        """Change the rules between matches; raises ApplicationError."""
        self._execute(self.core.set_options(options, _now()))

    def start(self) -> None:
        """Deal a new match with the seated players; raises ApplicationError."""
        self._execute(self.core.start(_now()))

    def open_room(self) -> None:
        """After a match, take the table back to the waiting room; raises ApplicationError."""
        self._execute(self.core.open_room(_now()))

    def restore(self, point: ResumePoint) -> None:
        """Take up the journal's unfinished match (a restarted host); raises ResumeError."""
        self._execute(self.core.restore(point, _now()))

    def go_on_from(self, standing: Standing) -> None:
        """Count on from the journal's last match, which is over (a restarted host)."""
        self._execute(self.core.go_on_from(standing, _now()))

    def close(self, *, on_purpose: bool = False) -> None:
        """Cancel every timer and every bot's thinking (the server is stopping);
        `on_purpose`: its host chose to close it, so a match being played ends for good."""
        self._closed = True
        self._execute(self.core.close(_now(), on_purpose=on_purpose))
        # A bot thinking now finishes in the background; its move is dropped.
        self._thoughts.close()

    # --- the core's state, read-only -----------------------------------------------------

    @property
    def config(self) -> TableConfig:
        """The table's settings."""
        return self.core.config

    @property
    def rules(self) -> Rules:
        """The rules of the next match (the host may change them between matches)."""
        return self.core.rules

    @property
    def seats(self) -> list[Seat]:
        """The seats, in seat order (do not change them: the core owns them)."""
        return self.core.seats

    @property
    def spectators(self) -> Mapping[int, int]:
        """Each spectator's peer id and the seq of its last view."""
        return self.core.spectators

    @property
    def phase(self) -> str:
        """WAITING, PLAYING or FINISHED (`ono99tui.host.core`)."""
        return self.core.phase

    @property
    def state(self) -> GameState | None:
        """The match's state (None before the first deal and after a seat change)."""
        return self.core.state

    @property
    def host(self) -> Seat | None:
        """The seat with host rights, if any."""
        return self.core.host

    @property
    def journal(self) -> list[MatchRecord]:
        """Every match dealt, newest last: seed, rules, names, moves, winners."""
        return self._journal.records

    def summary(self) -> TableSummary:
        """The public summary of the table, for discovery."""
        return self.core.summary()

    def seat_of(self, peer: Peer) -> Seat | None:
        """The seat `peer` plays, if any."""
        return self.core.seat_of(peer.id)

    # --- carrying out the core's outputs -------------------------------------------------

    def _execute(self, outputs: list[Output]) -> None:
        # The core carries its outputs out as it goes (`_carry_out`); an input returns
        # none, but a core made without an adapter would return them all here.
        for output in outputs:
            self._carry_out(output)

    def _carry_out(self, output: Output) -> None:
        # Sends first and by exact type: nearly every output is one.
        if type(output) is Send:
            peer = self._peers.get(output.peer)
            if peer is not None:
                peer.send(output.message)
        elif isinstance(output, JOURNAL_RECORDS):
            self._journal.write(output)
        elif isinstance(output, ArmTimer):
            self._cancel_timer(output.key)
            self.timers[output.key] = asyncio.get_running_loop().call_at(
                output.deadline, self._timer_fired, output.key)
        elif isinstance(output, CancelTimer):
            self._cancel_timer(output.key)
        elif isinstance(output, Close):
            peer = self._peers.get(output.peer)
            if peer is not None:
                peer.close(output.code, output.reason)
        elif isinstance(output, SummaryChanged):
            self._summary_changed(output.summary)
        elif isinstance(output, BotMoveWanted):
            self._think(output)
        elif isinstance(output, RatingsChanged):
            self._keep_ratings(output)

    def _keep_ratings(self, output: RatingsChanged) -> None:
        if self._ratings_file is None:
            return
        problem = self._ratings_file.keep(output.changes, output.match_id)
        if problem is not None:
            log.error("%s", problem)
            self.ratings_problems.append(problem)

    def _think(self, request: BotMoveWanted) -> None:
        if self._closed:
            return
        # The core arms a paced bot's timer before asking for its move: its move is then
        # taken back when that timer fires (the stand-in's, with no pace, once chosen).
        self._thoughts.think(request, paced=request.key in self.timers)

    def _bot_decided(self, key: BotTurn, move: Move) -> None:
        if not self._closed:
            self._execute(self.core.bot_decided(key, move, _now()))

    def _timer_fired(self, key: TimerKey) -> None:
        self.timers.pop(key, None)
        if type(key) is BotTurn:
            # The move first (if it was chosen), so that the timer finds it in.
            self._thoughts.wanted(key)
        self._execute(self.core.timer_fired(key, _now()))

    def _cancel_timer(self, key: TimerKey) -> None:
        handle = self.timers.pop(key, None)
        if handle is not None:
            handle.cancel()

    def _summary_changed(self, summary: TableSummary) -> None:
        if self.on_change is None:
            return
        try:
            self.on_change(summary)
        except Exception:
            log.exception("table change listener failed")


def _now() -> float:
    # The event loop's clock: the one `call_at` deadlines are on.
    return asyncio.get_running_loop().time()


class TableServer:
    """A table served on a TCP socket; start and stop it from any asyncio program."""

    def __init__(self, config: TableConfig, limits: ServerLimits | None = None,
                 on_change: Callable[[TableSummary], None] | None = None,
                 journal: TableJournal | None = None,
                 ratings: Ratings | None = None) -> None:
        self.table = TableApplication(config, on_change=on_change, journal=journal,
                                      ratings=ratings)
        self.server = Server(self.table, limits)
        self._journaled = journal is not None
        # The bye everyone is sent when the table stops (see `going_away`).
        self._farewell: tuple[str, str] = ("shutdown", "the server is stopping")
        self._on_purpose = False
        self._stopped = asyncio.Event()

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> TableServer:
        """Bind (port 0: any free port) and accept players."""
        await self.server.start(host, port)
        log.info("table %r listening on %s", self.table.config.name, self.server.sockets)
        return self

    @property
    def port(self) -> int:
        """The TCP port players connect to."""
        return self.server.port

    def trust_door(self, name: str, max_connections: int) -> str:
        """The key of a door in this process (`host.doors.Door.open`): its users' hellos
        carry it and count under `max_connections`, the door's own cap, instead of the
        caps of their (loopback) address and the table's spectators (docs/WEB.md "Cap")."""
        return self.server.trust_door(name, max_connections)

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) of the first listening socket."""
        return self.server.sockets[0]

    def going_away(self) -> None:
        """The host is being stopped by a signal, not by its operator's choice: if a match
        is being played (a restart takes it up from the journal), `stop` tells everyone
        GOING_AWAY, so their apps keep trying to reconnect instead of giving up the table."""
        if self.table.core.phase == PLAYING:
            self._farewell = (GOING_AWAY, "the host is stopping; the match goes on if it "
                                          "comes back")

    def closing_on_purpose(self) -> None:
        """The host closes the table by choice (its app quit): a match being played ends
        for good when `stop` runs, recorded in the journal as abandoned, so that no restart
        takes it up. Only a crash or a signal leaves a match to be taken up."""
        self._on_purpose = True
        self._farewell = ("shutdown", "the host closed the table")

    async def stop(self) -> None:
        """Say bye to everyone and stop listening; timers are cancelled.

        Stopped mid-match without `closing_on_purpose` (a hang-up of the host's terminal, a
        crash of its app, a signal), a journaled table is going away whether or not
        `going_away` was called: the journal leaves the match to be taken up, so the
        players are told to hold on for it, not that it is over.
        """
        if not self._on_purpose and self._journaled:
            self.going_away()
        self.table.close(on_purpose=self._on_purpose)
        await self.server.stop(*self._farewell)
        self._stopped.set()

    async def wait_closed(self) -> None:
        """Wait until `stop` has run."""
        await self._stopped.wait()

    async def __aenter__(self) -> TableServer:
        if not self.server.sockets:
            await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()


async def start_table(config: TableConfig, *, host: str = "127.0.0.1", port: int = 0,
                      limits: ServerLimits | None = None,
                      on_change: Callable[[TableSummary], None] | None = None,
                      journal: TableJournal | None = None,
                      ratings: Ratings | None = None) -> TableServer:
    """Start a table server in the running event loop and return it (stop it with `stop`);
    `journal`: where its journal records go (default: memory only); `ratings`: what it
    rates with (default: nobody is rated)."""
    server = TableServer(config, limits=limits, on_change=on_change, journal=journal,
                         ratings=ratings)
    await server.start(host, port)
    return server
