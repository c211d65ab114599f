"""The table core: one table's authority, sans-IO (the h11 way).

`TableCore` seats players and bots, issues resume tokens, knows who holds host rights, deals
matches, checks and applies moves and sends each seat only its own view. It never touches a
socket, asyncio or the clock. Each input is a method that takes the current time `now`:

- `peer_message(peer, message, now)`: a connection's well-formed message;
- `peer_gone(peer, code, now)`: a connection ended;
- `timer_fired(key, now)`: a timer it asked for came due;
- `bot_decided(key, move, now)`: a bot's move it asked for (`BotMoveWanted`) is chosen;
- `add_bot`, `remove_bot`, `set_options`, `start`, `open_room`, `close`: the operator's
  commands;
- `restore(point, now)`: a restarted host takes up the journal's unfinished match;
  `go_on_from(standing, now)`: one whose last match is over counts on from it.

Each returns the list of outputs (`ono99tui.host.outputs`) its adapter carries out in
order: frames to send, connections to close, timers to arm or cancel, journal records,
lobby summary changes. A core made with `carry_out` (the asyncio adapter's) hands it each
output the moment it is asked for instead, in the same order, and returns none: so a
move's views are written before the core goes on to ask the bots for their moves.

An input that is refused raises the netproto error the connection is answered with
(`ApplicationError` with a `TableError` code of `ono99tui.table_protocol`, `BadPassword`,
`BadToken`), and then has changed nothing and asked for nothing: every handler checks
before it changes anything.

Its parts with state of their own live beside it: the phases and what each allows
(`table_phases`, a transition table), the timers (`timers.TimerBook`), the turn clock
(`turn_clock.TableClock`), bot pacing and the stand-in (`bot_pacing.BotPacing`), and the
lobby, marked changed wherever it changes and sent once (`lobby`).

Peers are opaque ids (netproto's `Peer.id`). Timers are keyed by values: a bot's move by
`BotTurn(version, seat)`, a dropped player's grace period by `GraceExpiry(seat id)`, the
turn clock by `TurnTimeout(seat id, serial)` (`ono99tui.host.turn_clock` decides whom it
times), the wait before a deal by itself by `DealSettle()`; a key that fires after it was
cancelled, or a bot turn for an older view, does nothing.

A bot never thinks inside the core, nor lives there (a seat knows its bot's kind): when a
bot-played seat (or the stand-in of a timed-out human) has a move to make, the core asks
for it with `BotMoveWanted`, values only, and arms the bot's pace timer `BotTurn` alike;
the move is played once both are in, so a bot's thinking and its pause overlap. A
decision for a view that is no longer the latest, one already played, or one for a turn
nobody asked about is logged and dropped; an illegal one is logged and the greedy choice
plays instead, so a faulty bot never stalls the table.

`ono99tui.host.server` runs a core on asyncio; tests/host/ run it on a fake clock.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from netproto.wire.chat_text import EmptyChat, clean_chat_text
from netproto.wire.errors import ApplicationError, BadPassword, BadToken, ServerFull
from netproto.wire.messages import (
    PROTOCOL_VERSION,
    AddBot,
    Chat,
    Hello,
    Message,
    Move,
    OpenRoom,
    Rated,
    Ready,
    RemoveBot,
    Resume,
    Say,
    SetOptions,
    Start,
    Welcome,
)
from netproto.wire.names import clean_name
from ono99tui.bots import GreedyBot
from ono99tui.game import MATCH_OVER, MalformedMove, legal_moves
from ono99tui.game import Move as GameMove
from ono99tui.game.codec import move_from_wire
from ono99tui.host.chat import EMOTES
from ono99tui.host.duplicate_set import DuplicateSet, SetWireError
from ono99tui.host.journal.records import (
    CLOSED_BY_HOST,
    MatchAbandoned,
    SeatResumed,
)
from ono99tui.host.journal.resume import HUMAN, ResumeError, ResumePoint, Standing, replay_point
from ono99tui.host.outputs import (
    BotTurn,
    Close,
    DealSettle,
    GraceExpiry,
    Output,
    TimerKey,
    TurnTimeout,
)
from ono99tui.host.rights import first_player_hosts, offered_key_grants_rights
from ono99tui.host.seats import Seat
from ono99tui.host.table_actions import MID_MATCH_OPTIONS, TableActions
from ono99tui.host.table_phases import (
    FINISHED,
    PLAYING,
    WAITING,
    Action,
    PhaseChange,
    table_error,
)
from ono99tui.table_protocol import TableError

log = logging.getLogger(__name__)

__all__ = ["FINISHED", "MID_MATCH_OPTIONS", "PLAYING", "WAITING", "TableCore"]

# The greedy bot's choice is the fallback of an illegal bot decision; it never uses its rng.
_FALLBACK_BOT = GreedyBot()
_UNUSED_RNG = random.Random(0)


class TableCore(TableActions):
    """One table's authority, with no I/O (see the module docstring)."""

    # --- inputs --------------------------------------------------------------------------

    def peer_message(self, peer: int, message: Message, now: float) -> list[Output]:
        """Handle one message from connection `peer`; raises the ProtocolError that
        refuses it (and then changes nothing)."""
        # _begin and _end written out: this is the path of every move.
        self._now = self._timers.now = now
        carried_out = self._carried_out
        out: list[Output] = carried_out if carried_out is not None else []
        self._out = out
        handler = _HANDLERS.get(type(message))
        try:
            if handler is not None:
                handler(self, peer, message)
        except BaseException:
            self._lobby.dirty = False  # refused: it changed nothing, so nothing is sent
            raise
        if self._lobby.dirty:
            self._flush_lobby()
        self._out = []
        return out

    def through_door(self, peer: int) -> None:
        """Connection `peer` came through a door the host trusts (its hello carried the
        door's key: netproto's `Peer.door`): if it watches, it is one of the door's users,
        bounded by the door's own cap (the server's), not by `max_spectators`. Told before
        its hello; forgotten when it is gone."""
        self._door_peers.add(peer)

    def peer_gone(self, peer: int, code: str, now: float) -> list[Output]:
        """Connection `peer` ended with `code`: in a match, hold its seat for the grace
        period ("normal": it left on purpose, no grace); before a deal, free the seat at
        once; or forget a spectator."""
        self._begin(now)
        seat = self._peer_seats.pop(peer, None)
        self._door_peers.discard(peer)
        if self._closed:
            return self._end()
        if peer in self.spectators:
            del self.spectators[peer]
            self._spectator_names.pop(peer, None)
            self._talk.forget(("peer", peer))
            self._lobby.mark()
            return self._end()
        if seat is None or seat.peer != peer:
            return self._end()
        seat.peer = None
        if self._phases.between_matches:
            # Seats are for live players: a seat nobody is connected to must not fill the
            # table or be dealt to (a `hello` and a reset would otherwise hold it).
            log.info("%s left before the deal (%s); seat freed", seat.name, code)
            self._remove_seat(seat)
            self._maybe_autostart()
            return self._end()
        grace = 0.0 if code == "normal" else self.config.grace_seconds
        log.info("%s dropped (%s); seat held for %g s", seat.name, code, grace)
        if grace <= 0:
            self._seat_abandoned(seat)
        else:
            self._timers.arm(GraceExpiry(seat.id), grace)
            self._follow_clock()  # its clock stands still while the grace period runs
        self._lobby.mark()
        return self._end()

    def timer_fired(self, key: TimerKey, now: float) -> list[Output]:
        """The timer armed with `key` came due (one cancelled or already fired: nothing)."""
        self._begin(now)
        if self._timers.fired(key):
            if isinstance(key, BotTurn):
                self._bot_move(key)
            elif isinstance(key, TurnTimeout):
                self._turn_timed_out(key)
            elif isinstance(key, DealSettle):
                self._maybe_autostart(settled=True)
            else:
                seat = next((seat for seat in self.seats if seat.id == key.seat_id), None)
                if seat is not None:
                    self._seat_abandoned(seat)
        return self._end()

    def bot_decided(self, key: BotTurn, move: GameMove, now: float) -> list[Output]:
        """The bot move asked for with `key` (`BotMoveWanted`) is `move`: played once the
        bot's pace timer has fired too. A decision nobody waits for any more (a newer view,
        already played, the match over) is dropped; an illegal one is replaced by the
        greedy choice. Either way it is logged, and nothing is ever played twice."""
        self._begin(now)
        seat_view = self._bots.waits_for(key)
        if seat_view is None or key.version != self._version:
            log.info("a bot's move for seat %d at view %d came after it was needed; dropped",
                     key.seat, key.version)
            return self._end()
        state = self.state
        assert state is not None  # an awaited move is forgotten when the match ends
        if move not in legal_moves(state, key.seat):
            fallback = _FALLBACK_BOT.choose(seat_view, _UNUSED_RNG)
            log.error("bot in seat %d chose a move the rules forbid, %r; the greedy choice "
                      "%r plays instead", key.seat, move, fallback)
            move = fallback
        if self._bots.decided(key, move):
            self._play_bot_move(key)
        return self._end()

    def add_bot(self, kind: str, now: float) -> list[Output]:
        """Seat a bot of `kind`; raises ApplicationError."""
        self._begin(now)
        self._add_bot(kind)
        return self._end()

    def remove_bot(self, index: int, now: float) -> list[Output]:
        """Remove the bot in seat `index`; raises ApplicationError."""
        self._begin(now)
        self._remove_bot(index)
        return self._end()

    def set_options(self, options: dict[str, Any], now: float) -> list[Output]:
        """Change the rules between matches; raises ApplicationError."""
        self._begin(now)
        self._set_options(options)
        return self._end()

    def start(self, now: float) -> list[Output]:
        """Deal a new match with the seated players; raises ApplicationError."""
        self._begin(now)
        self._start()
        return self._end()

    def open_room(self, now: float) -> list[Output]:
        """After a match, take the table back to the waiting room; raises ApplicationError."""
        self._begin(now)
        self._open_room()
        return self._end()

    def restore(self, point: ResumePoint, now: float) -> list[Output]:
        """Take up the unfinished match `point` (a restarted host's journal) at a table that
        has no seats yet: its moves are replayed through the engine, bots sit down again,
        humans are held for the grace period as after a drop (their tokens, known by hash,
        resume them), view numbers go on where they stopped. Raises ResumeError (and then
        has changed nothing)."""
        self._begin(now)
        if self.seats or self.phase != WAITING:
            raise RuntimeError("only a table with no seats can take up a match")
        since = self._bots.memory.now
        if len(point.names) > self.config.capacity:
            raise ResumeError(f"its match has {len(point.names)} seats and this table "
                              f"{self.config.capacity}")
        replayed = replay_point(point)
        duplicate = None
        if point.duplicate is not None:
            try:
                duplicate = DuplicateSet.from_wire(point.duplicate)
            except SetWireError as error:
                raise ResumeError(f"its duplicate set is not usable ({error})") from None
            if (duplicate.seed != point.seed or duplicate.complete
                    or duplicate.seating() != point.names):
                raise ResumeError("its duplicate set does not agree with its deal")
        if point.table:
            log.info("match %d is played on with its table options %s", point.number,
                     point.table)
        for index, (name, kind) in enumerate(zip(point.names, point.kinds, strict=True)):
            human = kind == HUMAN
            seat = Seat(id=next(self._seat_ids), name=name, human=human,
                        bot=None if human else kind, bot_since=since, ready=not human,
                        resigned=index in replayed.resigned, seq=replayed.seqs[index],
                        unrated=index in point.unrated,
                        pending_events=replayed.pending[index])
            self.seats.append(seat)
            digest = point.token_hashes[index]
            if human and digest is not None:
                self._sessions.adopt(seat, digest)
        self.rules = point.rules
        self.state, self._rng = replayed.state, replayed.rng
        self._match_seed = point.seed
        if duplicate is not None:  # the set goes on at this rotation
            self.duplicate_set, self._places = duplicate, replayed.places
            log.info("duplicate set taken up at deal %d of %d", duplicate.rotation + 1,
                     duplicate.size)
        self._phases.change(PhaseChange.DEAL)
        self._history.clear()
        self._history.extend(replayed.events)
        self.matches_dealt = point.number
        self._matches_won, self._matches_played = dict(point.won), dict(point.played)
        for _ in range(point.number):  # the next deal's seed follows on, as without a restart
            self._seeds.getrandbits(64)
        if point.host_seat is not None:
            self.host = self.seats[point.host_seat]
        self._version += 1
        log.info("match %d taken up from the journal after %d records", point.number,
                 len(point.steps))
        for seat in self.seats:
            if seat.human:
                if self.config.grace_seconds > 0:
                    self._timers.arm(GraceExpiry(seat.id), self.config.grace_seconds)
                else:
                    self._seat_abandoned(seat)
        self._flush_lobby()
        if replayed.state.phase == MATCH_OVER:
            # Every move is in the journal but not its end (a power cut before the `won`
            # record): the match is over, so it ends now, as it would have then.
            log.info("match %d taken up had ended; its results are shown", point.number)
            self._finish_match()
        else:
            self._schedule_bots()
        return self._end()

    def go_on_from(self, standing: Standing, now: float) -> list[Output]:
        """A restarted host whose journal's last match is over (a table with no seats
        yet): count on from it, so the next deal gets the next number and the evening's
        standings go on."""
        self._begin(now)
        if self.seats or self.phase != WAITING or self.matches_dealt:
            raise RuntimeError("only a table that dealt nothing yet can go on from a journal")
        self.matches_dealt = standing.number
        self._matches_won, self._matches_played = dict(standing.won), dict(standing.played)
        for _ in range(standing.number):  # the next deal's seed follows on, as in `restore`
            self._seeds.getrandbits(64)
        if standing.duplicate is not None and self.duplicate:
            try:
                duplicate: DuplicateSet | None = DuplicateSet.from_wire(standing.duplicate)
            except SetWireError as error:  # the next deal starts a new set
                log.warning("the journal's duplicate set is not usable (%s)", error)
                duplicate = None
            if duplicate is not None and not duplicate.complete:
                self.duplicate_set = duplicate
                log.info("the duplicate set goes on at deal %d of %d", duplicate.rotation + 1,
                         duplicate.size)
        log.info("the table goes on from match %d of its journal", standing.number)
        self._lobby.mark()
        return self._end()

    def close(self, now: float, *, on_purpose: bool = False) -> list[Output]:
        """The table is closing: cancel every timer; later inputs arm none. `on_purpose`:
        its host chose to close it (not a signal): a match being played ends for good, as
        abandoned, so that no restart takes it up."""
        self._begin(now)
        if on_purpose and self.phase == PLAYING and not self._closed:
            log.info("match %d ends unfinished: the host closed the table", self.matches_dealt)
            self._out.append(MatchAbandoned(CLOSED_BY_HOST))
        self._closed = self._timers.closed = True
        self._timers.cancel_all()
        self._bots.forget()
        self._bots.standing_in = None
        return self._end()

    # --- reading -------------------------------------------------------------------------

    @property
    def timers(self) -> Mapping[TimerKey, float]:
        """Every timer armed now, with its deadline (read-only)."""
        return MappingProxyType(self._timers.deadlines)

    @property
    def match_events(self) -> Sequence[dict[str, Any]]:
        """Every public event of the match in progress (or just over), oldest first, as
        the seats were sent them (read-only: what a (re)joined view's history is cut from)."""
        return self._history.events

    def seat_of(self, peer: int) -> Seat | None:
        """The seat connection `peer` plays, if any."""
        seat = self._peer_seats.get(peer)
        return seat if seat is not None and seat in self.seats else None

    # --- message handlers ----------------------------------------------------------------

    def _on_hello(self, peer: int, hello: Hello) -> None:
        password = self.config.password
        if password is not None and not secrets.compare_digest(
                (hello.password or "").encode(), password.encode()):
            raise BadPassword("wrong or missing table password")
        name = clean_name(hello.name)
        hosts = offered_key_grants_rights(self.config, hello.host_key)
        wants_seat = not hello.spectate
        if wants_seat and hosts and self._host_seat_held():
            # The operator's own app, back after a restart of the host: it never had the
            # seat's token, but the host key is proof enough.
            assert self.host is not None
            self._take_back(peer, self.host, self._sessions.issue(self.host))
            return
        between_matches = self._phases.between_matches
        if wants_seat and between_matches and len(self.seats) >= self.config.capacity:
            self._make_room_for_a_person()
        if wants_seat and between_matches and len(self.seats) < self.config.capacity:
            self._seat_human(peer, name, hosts, unrated=bool(hello.unrated))
        else:
            self._seat_spectator(peer, name)

    def _make_room_for_a_person(self) -> None:
        """A newcomer asks for a seat at a full table between matches. At a finished table,
        seats nobody plays any more go first (the rematch would not deal them anyway); if
        the table is still full, a bot gives up its seat, the last one seated: bots only
        fill seats people leave empty, so a latecomer at a table of bots plays the next
        match rather than watching the bots for the rest of the evening."""
        # One lobby for it all (as for every change): the newcomer's seat (or, full of
        # people, their spectating) is in the lobby that shows who took whose.
        if self.phase == FINISHED:
            self._free_absent_seats()
        if len(self.seats) < self.config.capacity:
            return
        bot = next((seat for seat in reversed(self.seats) if not seat.human), None)
        if bot is not None:
            log.info("%s gives up seat %d to a person", bot.name, self.seats.index(bot))
            self._remove_seat(bot)

    def _seat_human(self, peer: int, name: str, hosts: bool, *, unrated: bool = False) -> None:
        seat = Seat(id=next(self._seat_ids), name=self._unique_name(name), human=True,
                    peer=peer, unrated=unrated)
        self.seats.append(seat)
        self._seats_changed()
        self._peer_seats[peer] = seat
        token = self._sessions.issue(seat)
        if hosts or (self.host is None and first_player_hosts(self.config)):
            self.host = seat
        self._send(peer, Welcome(proto=PROTOCOL_VERSION, role="player",
                                 seat=len(self.seats) - 1, token=token, host=self.host is seat,
                                 table=self._table_info()))
        log.info("%s sat down in seat %d", seat.name, len(self.seats) - 1)
        self._lobby.mark()
        self._maybe_autostart()

    def _seat_spectator(self, peer: int, name: str) -> None:
        door_peers = self._door_peers
        if peer not in door_peers and sum(
                1 for other in self.spectators
                if other not in door_peers) >= self.config.max_spectators:
            # Refused before anything changed: seats keep their room (PROTOCOL.md §4).
            # A door's watchers are the door's to bound (the server's cap on the door).
            raise ServerFull(f"this table takes at most {self.config.max_spectators} "
                             f"spectators")
        self.spectators[peer] = 0
        self._spectator_names[peer] = name
        self._send(peer, Welcome(proto=PROTOCOL_VERSION, role="spectator",
                                 table=self._table_info()))
        self._lobby.mark()
        if self.state is not None:
            self._send_views((), (peer,), (), catch_up=True)  # with the match so far

    def _on_resume(self, peer: int, resume: Resume) -> None:
        seat = self._sessions.lookup(resume.token)
        if seat is None or seat not in self.seats:
            raise BadToken("this token holds no seat at this table")
        self._take_back(peer, seat, resume.token)

    def _host_seat_held(self) -> bool:
        """Whether the host's seat is held mid-match with nobody connected to it."""
        seat = self.host
        # Finished too: a restart that took up a match whose moves were all in ends it.
        return (seat is not None and seat.human and seat.peer is None
                and self.phase in (PLAYING, FINISHED))

    def _take_back(self, peer: int, seat: Seat, token: str) -> None:
        """Connection `peer` plays `seat` again (its token `token`)."""
        old = seat.peer
        if old is not None and old != peer:
            self._peer_seats.pop(old, None)
            self._out.append(Close(old, "replaced",
                                   "the seat was resumed from another connection"))
        seat.peer = peer
        self._peer_seats[peer] = seat
        self._timers.cancel(GraceExpiry(seat.id))
        seat.taken_over = False
        index = self.seats.index(seat)
        self._send(peer, Welcome(proto=PROTOCOL_VERSION, role="player", seat=index,
                                 token=token, host=self.host is seat,
                                 table=self._table_info()))
        log.info("%s resumed seat %d", seat.name, index)
        self._lobby.mark()
        playing = self._phases.playing
        timed = self._follow_clock() if playing else False
        if playing:  # a restart must number this seat's views on from here
            self._out.append(SeatResumed(index, seat.seq + 1))
            if timed:  # and the others' too: below, they get a view with the new clock
                for other, taken in enumerate(self.seats):
                    if other != index and taken.peer is not None:
                        self._out.append(SeatResumed(other, taken.seq + 1))
        if self.state is not None:  # with the events it missed, and the match before them
            self._send_views((index,), (), (), catch_up=True)
        if timed:  # the clock runs again for this seat: everyone else gets its new time
            others = [other for other in range(len(self.seats)) if other != index]
            self._send_views(others, list(self.spectators), ())
        if playing:
            self._schedule_bots()

    def _on_ready(self, peer: int, ready: Ready) -> None:
        seat = self._own_seat(peer)
        if seat.ready != ready.ready:  # the same mark again changes nothing, sends nothing
            self._allow_mark(seat)
            seat.ready = ready.ready
            self._lobby.mark()
        self._maybe_autostart()

    def _allow_mark(self, seat: Seat) -> None:
        """Count a change of the seat's own marks (ready, rated), or refuse it `slow-down`
        past the limit (`host/chat.py`: each is a lobby for everyone)."""
        if not self._marks.allow(("seat", seat.id), self._now):
            raise ApplicationError(TableError.SLOW_DOWN.value, self._marks.refusal("changes"))

    def _on_rated(self, peer: int, message: Rated) -> None:
        """A player asks to be rated, or not, from the next match on: between matches only
        (the deal's journal header lists the unrated seats, and a match is rated as it was
        dealt)."""
        seat = self._own_seat(peer)
        self._phases.require(Action.RATED)
        unrated = not message.rated
        if seat.unrated != unrated:
            self._allow_mark(seat)
            seat.unrated = unrated
            log.info("%s asked %s", seat.name, "not to be rated" if unrated else "to be rated")
            self._lobby.mark()

    def _on_start(self, peer: int, _: Start) -> None:
        self._require_host(peer)
        self._start()

    def _on_open_room(self, peer: int, _: OpenRoom) -> None:
        self._require_host(peer)
        self._open_room()

    def _on_add_bot(self, peer: int, message: AddBot) -> None:
        self._require_host(peer)
        self._add_bot(message.bot)

    def _on_remove_bot(self, peer: int, message: RemoveBot) -> None:
        self._require_host(peer)
        self._remove_bot(message.seat)

    def _on_set_options(self, peer: int, message: SetOptions) -> None:
        self._require_host(peer)
        self._set_options(message.options)

    def _on_move(self, peer: int, message: Move) -> None:
        seat = self._own_seat(peer)
        self._phases.require(Action.MOVE)
        if self.state is None:
            raise table_error(TableError.NO_MATCH)
        if message.seq != seat.seq:
            raise table_error(TableError.STALE_SEQ, f"the move is based on view "
                                                    f"{message.seq}, the latest is {seat.seq}")
        try:
            move = move_from_wire(message.move)
        except MalformedMove as error:
            raise table_error(TableError.MALFORMED_MOVE,
                              f"{error.code}: {error.reason}") from None
        index = self.seats.index(seat)
        if move.seat != index:
            raise table_error(TableError.WRONG_SEAT, f"this connection plays seat {index}")
        bots = self._bots
        if bots.stands_in_for(seat.id):
            bots.standing_in = None  # back before the stand-in chose: the player's own move
        self._play(index, move)
        seat.timeouts = 0
        if seat.taken_over:  # abandoned for idling, and back: the player plays on
            seat.taken_over = False
            log.info("%s is back at seat %d", seat.name, index)
            self._lobby.mark()
            if self._phases.playing:
                self._schedule_bots()
                self._follow_clock()

    def _on_say(self, peer: int, message: Say) -> None:
        """Pass a line of talk (or an emote) on to everyone at the table, made inert: see
        ono99tui/host/chat.py. Checked in full before anything is counted or sent."""
        seat = self.seat_of(peer)
        if seat is not None:
            talker, name, index = ("seat", seat.id), seat.name, self.seats.index(seat)
        elif peer in self.spectators:
            if not self.spectator_chat:
                raise table_error(TableError.CHAT_OFF)
            talker, name, index = ("peer", peer), self._spectator_names[peer], None
        else:
            raise table_error(TableError.NO_SUCH_SEAT,
                              "this connection neither plays nor watches here")
        if message.emote is not None:
            text = EMOTES.get(message.emote)
            if text is None:
                raise table_error(TableError.UNKNOWN_EMOTE,
                                  f"{message.emote!r}; emotes: {', '.join(EMOTES)}")
        else:
            try:
                text = clean_chat_text(message.text or "")
            except EmptyChat:
                raise table_error(TableError.EMPTY_CHAT) from None
        if not self._talk.allow(talker, self._now):
            raise ApplicationError(TableError.SLOW_DOWN.value, self._talk.refusal())
        chat = Chat(name=name, text=text, seat=index, emote=message.emote)
        for listener in self._listeners():
            self._send(listener, chat)

    def _listeners(self) -> list[int]:
        """Every connection at the table: the seated players' and the spectators'."""
        return [seat.peer for seat in self.seats if seat.peer is not None] + list(
            self.spectators)

_HANDLERS: dict[type[Message], Callable[[TableCore, int, Any], None]] = {
    Hello: TableCore._on_hello,
    Resume: TableCore._on_resume,
    Ready: TableCore._on_ready,
    Rated: TableCore._on_rated,
    Start: TableCore._on_start,
    OpenRoom: TableCore._on_open_room,
    AddBot: TableCore._on_add_bot,
    RemoveBot: TableCore._on_remove_bot,
    SetOptions: TableCore._on_set_options,
    Move: TableCore._on_move,
    Say: TableCore._on_say,
}
