"""The host side of one table: the authority that seats players, drives the engine and
sends each seat only its own view.

`Table` is the netproto `Application`: it gets well-formed messages from the server pump and
answers through each connection's `Peer`. `TableServer` puts the two together so that a
table can run inside any asyncio program (the headless `ono99 host`, the Textual app's
`ono99 solo` / `ono99 host`, tests and benchmarks):

    async with TableServer(TableConfig(capacity=4, start_when=4)) as server:
        print(server.port)
        await server.wait_closed()
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from netproto.errors import ApplicationError, BadPassword, BadToken
from netproto.messages import (
    PROTOCOL_VERSION,
    AddBot,
    Hello,
    Lobby,
    Message,
    Move,
    Ready,
    RemoveBot,
    Resume,
    SetOptions,
    Start,
    View,
    Welcome,
)
from netproto.names import MAX_NAME_LENGTH, clean_name
from netproto.server import Peer, Server, ServerLimits
from netproto.sessions import SessionRegistry

from ono99tui.bots import BOT_NAMES, UnknownBot, make_bot
from ono99tui.game import (
    MATCH_OVER,
    IllegalMove,
    MalformedMove,
    acting_seats,
    apply,
    legal_moves,
    resign,
    start_match,
    view,
)
from ono99tui.game import Move as GameMove
from ono99tui.game import State as GameState
from ono99tui.game.codec import (
    event_to_wire,
    move_from_wire,
    move_to_wire,
    rules_to_wire,
)
from ono99tui.host.journal import MatchRecord, resign_record
from ono99tui.host.settings import TableConfig, rules_from_options
from ono99tui.host.seats import Seat
from ono99tui.host.view_encoding import StateViews

log = logging.getLogger(__name__)

WAITING, PLAYING, FINISHED = "waiting", "playing", "finished"

# Error codes the table answers with (netproto's own codes are in netproto.errors).
TABLE_ERROR_CODES: dict[str, str] = {
    "not-host": "only the host may do this",
    "no-match": "no match is being played",
    "match-running": "not while a match is being played",
    "stale-seq": "the move was chosen from an older view than the latest one",
    "malformed-move": "the move map is not a move",
    "wrong-seat": "the move names another seat",
    "not-your-turn": "this seat has no move to make now",
    "illegal-move": "the rules forbid this move now",
    "not-enough-players": "a match needs at least two seats taken",
    "table-full": "every seat is taken",
    "unknown-bot": "no bot has this name",
    "no-such-seat": "there is no such seat",
    "not-a-bot": "that seat is a human player",
    "bad-options": "the options are not valid",
}


def _error(code: str, detail: str = "") -> ApplicationError:
    reason = TABLE_ERROR_CODES[code]
    return ApplicationError(code, f"{reason}: {detail}" if detail else reason)


@dataclass(frozen=True)
class TableSummary:
    """What the LAN may know about the table (discovery advertises it)."""

    name: str
    host_player: str
    rules: str
    seats_taken: int
    capacity: int
    phase: str
    password_required: bool


class Table:
    """One table's authority (see the module docstring)."""

    def __init__(self, config: TableConfig,
                 on_change: Callable[[TableSummary], None] | None = None) -> None:
        self.config = config
        self.rules = config.rules
        self.on_change = on_change
        self.seats: list[Seat] = []
        self.spectators: dict[Peer, int] = {}
        self.phase = WAITING
        self.state: GameState | None = None
        self.host: Seat | None = None
        self.journal: list[MatchRecord] = []
        seed = config.seed if config.seed is not None else secrets.randbits(64)
        self._seeds = random.Random(seed)
        self._rng = random.Random(0)
        self._bot_rng = random.Random(seed ^ 0x5EED)
        self._sessions: SessionRegistry[Seat] = SessionRegistry()
        self._version = 0
        self._bot_timers: list[asyncio.TimerHandle] = []
        self._last_summary: TableSummary | None = None
        self._results: dict[str, Any] = {}
        # Matches won at this table, by player name (names are unique at a table and a
        # resumed seat keeps its name): the standings across rematches.
        self._matches_won: dict[str, int] = {}
        self._closed = False

    # --- netproto Application ------------------------------------------------------------

    def on_message(self, peer: Peer, message: Message) -> None:
        """Handle one message from a connection (errors propagate as ApplicationError)."""
        handler = self._handlers.get(type(message))
        if handler is not None:
            handler(self, peer, message)

    def on_close(self, peer: Peer, code: str, reason: str) -> None:
        """A connection ended: hold its seat for the grace period, or forget a spectator."""
        session = peer.session
        peer.session = None
        if self._closed:
            return
        if peer in self.spectators:
            del self.spectators[peer]
            self._broadcast_lobby()
            return
        if not isinstance(session, Seat) or session.peer is not peer:
            return
        seat = session
        seat.peer = None
        left_on_purpose = code == "normal"
        grace = 0.0 if left_on_purpose else self.config.grace_seconds
        log.info("%s dropped (%s); seat held for %g s", seat.name, code, grace)
        if grace <= 0:
            self._seat_abandoned(seat)
        else:
            seat.grace_timer = asyncio.get_running_loop().call_later(
                grace, self._seat_abandoned, seat)
        self._broadcast_lobby()

    # --- host actions (also callable in-process) -----------------------------------------

    def add_bot(self, kind: str) -> Seat:
        """Seat a bot of `kind`; raises ApplicationError."""
        if self.phase == PLAYING:
            raise _error("match-running")
        if len(self.seats) >= self.config.capacity:
            raise _error("table-full")
        try:
            bot = make_bot(kind)
        except UnknownBot:
            raise _error("unknown-bot", f"{kind!r}; bots: {', '.join(BOT_NAMES)}") from None
        seat = Seat(name=self._unique_name(f"{kind.capitalize()} bot"), human=False, bot=bot,
                    ready=True)
        self.seats.append(seat)
        self._seats_changed()
        self._broadcast_lobby()
        self._maybe_autostart()
        return seat

    def remove_bot(self, index: int) -> None:
        """Remove the bot in seat `index`; raises ApplicationError."""
        if self.phase == PLAYING:
            raise _error("match-running")
        if not 0 <= index < len(self.seats):
            raise _error("no-such-seat", str(index))
        seat = self.seats[index]
        if seat.human:
            raise _error("not-a-bot", seat.name)
        self._remove_seat(seat)

    def set_options(self, options: dict[str, Any]) -> None:
        """Change the rules between matches; raises ApplicationError."""
        if self.phase == PLAYING:
            raise _error("match-running")
        try:
            self.rules = rules_from_options(self.rules, options)
        except (ValueError, TypeError) as error:
            raise _error("bad-options", str(error)) from None
        self._broadcast_lobby()

    def start(self) -> None:
        """Deal a new match with the seated players; raises ApplicationError."""
        if self.phase == PLAYING:
            raise _error("match-running")
        # A resigned player still away has left the table: free the seat rather than deal
        # it cards nobody would play. (Until now the last match's results name it.)
        for seat in [s for s in self.seats if s.resigned and s.peer is None]:
            self._remove_seat(seat)
        if len(self.seats) < 2:
            raise _error("not-enough-players")
        seed = self._seeds.getrandbits(64)
        self._rng = random.Random(seed)
        state, events = start_match(self.rules, len(self.seats), self._rng)
        self.journal.append(MatchRecord(seed=seed, rules=rules_to_wire(self.rules),
                                        names=tuple(seat.name for seat in self.seats)))
        self.state = state
        self.phase = PLAYING
        for seat in self.seats:
            seat.ready = not seat.human
            seat.resigned = False
            seat.pending_events.clear()
        log.info("match %d dealt (%s, %d seats)", len(self.journal), self.rules.name,
                 len(self.seats))
        self._broadcast_lobby()  # moves every player's connection to SEATED first
        self._publish(events)

    def close(self) -> None:
        """Cancel every timer (the server is stopping)."""
        self._closed = True
        self._cancel_bot_timers()
        for seat in self.seats:
            seat.cancel_grace()

    def summary(self) -> TableSummary:
        """The public summary of the table, for discovery."""
        host = self.host.name if self.host is not None else (
            self.seats[0].name if self.seats else "nobody")
        return TableSummary(
            name=self.config.name, host_player=host, rules=self.rules.name,
            seats_taken=len(self.seats), capacity=self.config.capacity, phase=self.phase,
            password_required=self.config.password is not None)

    # --- message handlers ----------------------------------------------------------------

    def _on_hello(self, peer: Peer, hello: Hello) -> None:
        password = self.config.password
        if password is not None and not secrets.compare_digest(
                (hello.password or "").encode(), password.encode()):
            raise BadPassword("wrong or missing table password")
        name = clean_name(hello.name)
        wants_seat = not hello.spectate
        if wants_seat and self.phase != PLAYING and len(self.seats) < self.config.capacity:
            self._seat_human(peer, name, hello.host_key)
        else:
            self._seat_spectator(peer)

    def _seat_human(self, peer: Peer, name: str, host_key: str | None) -> None:
        seat = Seat(name=self._unique_name(name), human=True, peer=peer)
        self.seats.append(seat)
        self._seats_changed()
        peer.session = seat
        token = self._sessions.issue(seat)
        key = self.config.host_key
        if key is None:
            if self.host is None:
                self.host = seat
        elif host_key is not None and secrets.compare_digest(host_key.encode(), key.encode()):
            self.host = seat
        peer.send(Welcome(proto=PROTOCOL_VERSION, role="player", seat=len(self.seats) - 1,
                          token=token, host=self.host is seat, table=self._table_info()))
        log.info("%s sat down in seat %d", seat.name, len(self.seats) - 1)
        self._broadcast_lobby()
        self._maybe_autostart()

    def _seat_spectator(self, peer: Peer) -> None:
        self.spectators[peer] = 0
        peer.session = "spectator"
        peer.send(Welcome(proto=PROTOCOL_VERSION, role="spectator", table=self._table_info()))
        self._broadcast_lobby()
        if self.state is not None:
            self._send_spectator_view(peer, ())

    def _on_resume(self, peer: Peer, resume: Resume) -> None:
        seat = self._sessions.lookup(resume.token)
        if seat is None or seat not in self.seats:
            raise BadToken("this token holds no seat at this table")
        old = seat.peer
        if old is not None and old is not peer:
            old.session = None
            old.close("replaced", "the seat was resumed from another connection")
        seat.peer = peer
        peer.session = seat
        seat.cancel_grace()
        seat.taken_over = False
        index = self.seats.index(seat)
        peer.send(Welcome(proto=PROTOCOL_VERSION, role="player", seat=index,
                          token=resume.token, host=self.host is seat,
                          table=self._table_info()))
        log.info("%s resumed seat %d", seat.name, index)
        self._broadcast_lobby()
        if self.state is not None:
            self._send_view(index, seat)
        if self.phase == PLAYING:
            self._schedule_bots()

    def _on_ready(self, peer: Peer, ready: Ready) -> None:
        seat = self._own_seat(peer)
        seat.ready = ready.ready
        self._broadcast_lobby()
        self._maybe_autostart()

    def _on_start(self, peer: Peer, _: Start) -> None:
        self._require_host(peer)
        self.start()

    def _on_add_bot(self, peer: Peer, message: AddBot) -> None:
        self._require_host(peer)
        self.add_bot(message.bot)

    def _on_remove_bot(self, peer: Peer, message: RemoveBot) -> None:
        self._require_host(peer)
        self.remove_bot(message.seat)

    def _on_set_options(self, peer: Peer, message: SetOptions) -> None:
        self._require_host(peer)
        self.set_options(message.options)

    def _on_move(self, peer: Peer, message: Move) -> None:
        seat = self._own_seat(peer)
        if self.state is None or self.phase != PLAYING:
            raise _error("no-match")
        if message.seq != seat.seq:
            raise _error("stale-seq", f"the move is based on view {message.seq}, "
                                      f"the latest is {seat.seq}")
        try:
            move = move_from_wire(message.move)
        except MalformedMove as error:
            raise _error("malformed-move", f"{error.code}: {error.reason}") from None
        index = self.seats.index(seat)
        if move.seat != index:
            raise _error("wrong-seat", f"this connection plays seat {index}")
        self._play(index, move)

    _handlers: dict[type[Message], Callable[[Table, Peer, Any], None]] = {
        Hello: _on_hello,
        Resume: _on_resume,
        Ready: _on_ready,
        Start: _on_start,
        AddBot: _on_add_bot,
        RemoveBot: _on_remove_bot,
        SetOptions: _on_set_options,
        Move: _on_move,
    }

    # --- playing -------------------------------------------------------------------------

    def _play(self, index: int, move: GameMove) -> None:
        state = self.state
        assert state is not None
        if index not in acting_seats(state):
            raise _error("not-your-turn")
        try:
            self.state, events = apply(state, move, self._rng)
        except IllegalMove as error:
            raise _error("illegal-move", f"{error.code}: {error.reason}") from None
        except MalformedMove as error:
            raise _error("malformed-move", f"{error.code}: {error.reason}") from None
        self.journal[-1].moves.append(move_to_wire(move))
        self._publish(events)

    def _publish(self, events: tuple[Any, ...] | list[Any]) -> None:
        """Send every seat its new view with the events since its last one."""
        state = self.state
        assert state is not None
        self._version += 1
        wire_events = [event_to_wire(event) for event in events]
        # One conversion of the public facts for every seat and spectator (see StateViews).
        views = StateViews(state)
        for index, seat in enumerate(self.seats):
            seat.queue_events(wire_events)
            if seat.peer is not None:
                self._send_view(index, seat, views)
        spectator_events = tuple(wire_events)
        for peer in list(self.spectators):
            self._send_spectator_view(peer, spectator_events, views)
        if state.phase == MATCH_OVER:
            self._finish_match()
        else:
            self._schedule_bots()

    def _send_view(self, index: int, seat: Seat, views: StateViews | None = None) -> None:
        assert self.state is not None and seat.peer is not None
        views = views or StateViews(self.state)
        seat.seq += 1
        seat.peer.send(View(seq=seat.seq, view=views.seat(index), events=seat.take_events()))

    def _send_spectator_view(self, peer: Peer, events: tuple[dict[str, Any], ...],
                             views: StateViews | None = None) -> None:
        assert self.state is not None
        views = views or StateViews(self.state)
        seq = self.spectators[peer] + 1
        self.spectators[peer] = seq
        peer.send(View(seq=seq, view=views.spectator(), events=events))

    def _finish_match(self) -> None:
        assert self.state is not None
        self.phase = FINISHED
        self.journal[-1].winners = tuple(self.state.winners)
        for winner in self.state.winners:
            name = self.seats[winner].name
            self._matches_won[name] = self._matches_won.get(name, 0) + 1
        self._results = {"winners": list(self.state.winners),
                         "winner_names": [self.seats[seat].name for seat in self.state.winners],
                         "scores": list(self.state.scores), "tokens": list(self.state.tokens)}
        self._cancel_bot_timers()
        names = ", ".join(self.seats[seat].name for seat in self.state.winners)
        log.info("match %d over; won by %s", len(self.journal), names)
        self._broadcast_lobby()

    # --- bots ----------------------------------------------------------------------------

    def _schedule_bots(self) -> None:
        """Arrange for every bot-played seat that has a move now to make it."""
        self._cancel_bot_timers()
        state = self.state
        if state is None or self.phase != PLAYING:
            return
        loop = asyncio.get_running_loop()
        version = self._version
        pending = state.pending_draw
        for index in acting_seats(state):
            seat = self.seats[index]
            if not seat.bot_plays:
                continue
            delay = self.config.bot_delay
            if (state.rules.late_draw_penalty and 0 <= pending != index
                    and not self.seats[pending].bot_plays):
                # RULES.md §3: give the human who still has to draw a fair chance.
                delay = max(delay, self.config.late_draw_bot_wait)
            self._bot_timers.append(loop.call_later(delay, self._bot_move, index, version))

    def _bot_move(self, index: int, version: int) -> None:
        if version != self._version or self.state is None or self.phase != PLAYING:
            return
        seat = self.seats[index]
        if not seat.bot_plays or seat.bot is None:
            return
        if not legal_moves(self.state, index):
            return
        move = seat.bot.choose(view(self.state, index), self._bot_rng)
        try:
            self._play(index, move)
        except ApplicationError as error:  # a bot bug must not stall the table
            log.error("bot in seat %d chose a refused move %r: %s", index, move, error)

    def _cancel_bot_timers(self) -> None:
        for timer in self._bot_timers:
            timer.cancel()
        self._bot_timers.clear()

    # --- seats ---------------------------------------------------------------------------

    def _seat_abandoned(self, seat: Seat) -> None:
        """The grace period ran out (or the player left): a bot plays on or the seat resigns
        (the abandon policy), or, between matches, the seat frees."""
        seat.grace_timer = None
        if seat.peer is not None or seat not in self.seats:
            return
        if self.phase == PLAYING and self.config.abandon_policy == "eliminate":
            self._resign(seat)
        elif self.phase == PLAYING:
            seat.taken_over = True
            if seat.bot is None:
                seat.bot = make_bot(self.config.takeover_bot)
            log.info("a %s bot plays on for %s", self.config.takeover_bot, seat.name)
            self._broadcast_lobby()
            self._schedule_bots()
        elif not seat.taken_over:
            self._remove_seat(seat)

    def _resign(self, seat: Seat) -> None:
        """Take the seat out of the match (the engine's `resign`); the others play on."""
        state = self.state
        assert state is not None
        index = self.seats.index(seat)
        if seat.resigned or not state.alive[index] or state.phase == MATCH_OVER:
            return  # already out of the match: nothing is left to give up
        self.state, events = resign(state, index, self._rng)
        self.journal[-1].moves.append(resign_record(index))
        seat.resigned = True
        log.info("%s did not come back: seat %d resigns", seat.name, index)
        self._broadcast_lobby()
        self._publish(events)

    def _remove_seat(self, seat: Seat) -> None:
        seat.cancel_grace()
        self.seats.remove(seat)
        self._seats_changed()
        self._sessions.revoke(seat)
        if self.host is seat:
            self.host = None
            if self.config.host_key is None:
                self.host = next((s for s in self.seats if s.human and s.peer), None)
        self._broadcast_lobby()

    def _seats_changed(self) -> None:
        # Between matches, the last match's state no longer matches the seat numbers:
        # drop it, so that no view is ever computed for the wrong seat.
        if self.phase != PLAYING:
            self.state = None

    def _maybe_autostart(self) -> None:
        if self.phase == WAITING:
            start_when = self.config.start_when
            if start_when is not None and len(self.seats) >= start_when:
                self.start()
        elif self.phase == FINISHED and sum(
                not (seat.resigned and seat.peer is None) for seat in self.seats) >= 2:
            present = [seat for seat in self.seats if seat.human and seat.peer is not None]
            if present and all(seat.ready for seat in present):
                self.start()

    def _own_seat(self, peer: Peer) -> Seat:
        seat = peer.session
        if not isinstance(seat, Seat) or seat not in self.seats:
            raise _error("no-such-seat", "this connection holds no seat")
        return seat

    def _require_host(self, peer: Peer) -> None:
        if self.host is None or peer.session is not self.host:
            raise _error("not-host")

    def _unique_name(self, name: str) -> str:
        taken = {seat.name for seat in self.seats}
        if name not in taken:
            return name
        for number in range(2, 100):
            suffix = f" {number}"
            candidate = name[: MAX_NAME_LENGTH - len(suffix)] + suffix
            if candidate not in taken:
                return candidate
        return name

    # --- broadcasting --------------------------------------------------------------------

    def _table_info(self) -> dict[str, Any]:
        return {"name": self.config.name, "capacity": self.config.capacity,
                "preset": self.rules.name}

    def _broadcast_lobby(self) -> None:
        seats = tuple(seat.info(index) for index, seat in enumerate(self.seats))
        host_seat = self.seats.index(self.host) if self.host in self.seats else None
        # The rules in force now, not the config's: the host may have changed them.
        options = self.config.public_options() | {"preset": self.rules.name,
                                                  "rules": rules_to_wire(self.rules)}
        results = self._results if self.phase == FINISHED else {}
        if self._matches_won:  # in every phase once a match is over: late joiners see it too
            results = results | {"matches_won": [self._matches_won.get(seat.name, 0)
                                                 for seat in self.seats]}
        common = dict(phase=self.phase, seats=seats, host_seat=host_seat,
                      capacity=self.config.capacity, spectators=len(self.spectators),
                      options=options, results=results)
        for index, seat in enumerate(self.seats):
            if seat.peer is not None:
                seat.peer.send(Lobby(you=index, **common))  # type: ignore[arg-type]
        for peer in self.spectators:
            peer.send(Lobby(**common))  # type: ignore[arg-type]
        self._notify()

    def _notify(self) -> None:
        if self.on_change is None:
            return
        summary = self.summary()
        if summary != self._last_summary:
            self._last_summary = summary
            try:
                self.on_change(summary)
            except Exception:
                log.exception("table change listener failed")


class TableServer:
    """A `Table` served on a TCP socket; start and stop it from any asyncio program."""

    def __init__(self, config: TableConfig, limits: ServerLimits | None = None,
                 on_change: Callable[[TableSummary], None] | None = None) -> None:
        self.table = Table(config, on_change=on_change)
        self.server = Server(self.table, limits)
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

    @property
    def address(self) -> tuple[str, int]:
        """(host, port) of the first listening socket."""
        return self.server.sockets[0]

    async def stop(self) -> None:
        """Say bye to everyone and stop listening; timers are cancelled."""
        self.table.close()
        await self.server.stop()
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
                      on_change: Callable[[TableSummary], None] | None = None) -> TableServer:
    """Start a table server in the running event loop and return it (stop it with `stop`)."""
    server = TableServer(config, limits=limits, on_change=on_change)
    await server.start(host, port)
    return server
