"""What the table does, behind `TableCore`'s inputs: its state, and every change an input
leads to — seats taken and freed, host actions, deals and moves, the views each seat is
sent, bots asked for their moves, the turn clock, the lobby. Sans-IO like the core: each
change appends outputs (`ono99tui.host.outputs`) to the input's list.

`TableCore` (`ono99tui.host.core`) is this class with the inputs on it: the messages of
connections, the timers, the bots' decisions and the operator's commands; it checks each
input and then calls these. Its parts with state of their own live beside it: the phases
(`table_phases`), the timers (`timers`), the turn clock (`turn_clock.TableClock`), bot
pacing and the stand-in (`bot_pacing`), and the lobby sent once per change (`lobby`).
"""

from __future__ import annotations

import itertools
import logging
import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from netproto.wire.errors import ApplicationError
from netproto.wire.framing import MAX_FRAME_SIZE
from netproto.wire.messages import (
    MAX_EVENTS,
    Message,
    View,
)
from netproto.wire.names import MAX_NAME_LENGTH
from netproto.wire.sessions import SessionRegistry
from ono99tui.bots import BOT_NAMES, UnknownBot, bot_kind_of, level_of
from ono99tui.game import (
    MATCH_OVER,
    IllegalMove,
    MalformedMove,
    TimedOut,
    acting_seats,
    apply,
    resign,
    start_match,
    view,
)
from ono99tui.game import Move as GameMove
from ono99tui.game import State as GameState
from ono99tui.game.codec import event_to_wire, move_to_wire, rules_to_wire
from ono99tui.game.duplicate import DuplicateRandom, PlaceTracker
from ono99tui.game.finish import elimination_groups, finishing_ranks
from ono99tui.host.bot_pacing import BotPacing, StandIn, WantedMove
from ono99tui.host.chat import MARK_BURST, MARK_PER_SECOND, TalkLimiter
from ono99tui.host.duplicate_set import DuplicateSet, comparison_to_wire
from ono99tui.host.journal.records import (
    MatchDealt,
    MatchWon,
    MovePlayed,
    OptionsChanged,
    SeatResigned,
    SeatResumed,
)
from ono99tui.host.journal.resume import HUMAN
from ono99tui.host.lobby import LobbyBroadcast, lobby_messages
from ono99tui.host.match_history import MatchHistory, packed_size
from ono99tui.host.outputs import (
    BotTurn,
    DealSettle,
    GraceExpiry,
    Output,
    RatingsChanged,
    SummaryChanged,
    TableSummary,
    TurnTimeout,
    new_send,
)
from ono99tui.host.ratings import BOT, PLAYER, Entrant, Rated, RatingBook, rate_match
from ono99tui.host.rights import first_player_hosts
from ono99tui.host.seats import Seat
from ono99tui.host.table_config import (
    TableConfig,
    duplicate_from_options,
    hints_from_options,
    rules_from_options,
    spectator_chat_from_options,
    turn_seconds_from_options,
)
from ono99tui.host.table_phases import (
    WAITING,
    Action,
    PhaseChange,
    TablePhases,
    table_error,
)
from ono99tui.host.timers import TimerBook
from ono99tui.host.turn_clock import (
    IDLE_RECLAIM_SECONDS,
    MAX_STAND_IN_MOVES,
    TableClock,
    stand_in_goes_on,
    waited_seat,
)
from ono99tui.host.view_encoding import StateViews
from ono99tui.table_protocol import TableError

# The table core speaks as one log, whichever of its modules has something to say.
log = logging.getLogger("ono99tui.host.core")

# Bytes of a view frame besides its view, events and history: the kind, seq and clock
# and the fields' names, with room to spare (the frame's limit must never be reached).
_FRAME_SLACK = 1024

# What the host may change while a match is played: the turn clock (at a table without
# one, a player who walked away mid-turn holds everyone up until the match ends) and
# spectators' chat. The rules and hints wait for the waiting room.
MID_MATCH_OPTIONS = frozenset({"turn_seconds", "spectator_chat"})


class CarriedOut(list[Output]):
    """The outputs of an input, carried out as each is appended, and not kept."""

    __slots__ = ("_carry_out",)

    def __init__(self, carry_out: Callable[[Output], None]) -> None:
        super().__init__()
        self._carry_out = carry_out

    def append(self, output: Output) -> None:
        """Carry `output` out now."""
        self._carry_out(output)


class TableActions:
    """One table's state and the changes its inputs lead to (see the module docstring)."""

    def __init__(self, config: TableConfig,
                 carry_out: Callable[[Output], None] | None = None,
                 ratings: RatingBook | None = None) -> None:
        self.config = config
        # Every rating (ono99tui.host.ratings), kept on from each finished match; None: this
        # table rates nobody (no ratings file, or a damaged one).
        self.ratings = ratings
        # The seed of the match dealt last: with the table's name and the match's number,
        # it names the match in the ratings file.
        self._match_seed = 0
        # The rules of the next match: the host may change them between matches.
        self.rules = config.rules
        # The turn time of the next match (None: no clock); the host may change it too.
        self.turn_seconds = config.turn_seconds
        # May players ask their apps for hints (an honour setting); the host may change it.
        self.hints = config.hints
        # Deal duplicate sets (docs/DUPLICATE.md); the set in play, if one is; and the
        # finishing places of the set's match being played (its events followed).
        self.duplicate = config.duplicate
        self.duplicate_set: DuplicateSet | None = None
        self._places: PlaceTracker | None = None
        self.seats: list[Seat] = []
        # Each spectator's peer id and the seq of the last view it was sent; and its name.
        self.spectators: dict[int, int] = {}
        self._spectator_names: dict[int, str] = {}
        # Connections whose hello came through a door the host trusts (`through_door`):
        # watching, they count under the door's own cap, not `max_spectators`.
        self._door_peers: set[int] = set()
        # Whether spectators may chat (the host may change it between matches), and how
        # fast anyone may (ono99tui.host.chat).
        self.spectator_chat = config.spectator_chat
        self._talk = TalkLimiter()
        self._marks = TalkLimiter(MARK_BURST, MARK_PER_SECOND)  # ready, rated
        self._phases = TablePhases()
        # The host took the table back to the waiting room after a match (`open_room`):
        # it deals as a rematch does, never merely because enough seats are taken.
        self._reopened = False
        self.state: GameState | None = None
        self.host: Seat | None = None
        self.matches_dealt = 0
        seed = config.seed if config.seed is not None else secrets.randbits(64)
        self._seeds = random.Random(seed)
        self._rng = random.Random(0)
        self._sessions: SessionRegistry[Seat] = SessionRegistry()
        self._peer_seats: dict[int, Seat] = {}
        self._seat_ids = itertools.count(1)
        # Bumped with every view published: a bot turn armed for an older one is stale.
        self._version = 0
        # Every timer armed and not yet fired or cancelled; the turn clock; the bot moves
        # asked for and the stand-in of a timed-out turn.
        self._timers = TimerBook(self._emit)
        self._clock = TableClock(self._timers)
        self._bots = BotPacing(self._timers, seed)
        # The table's own events (a timed-out turn) waiting to go out with the next views.
        self._table_events: list[dict[str, Any]] = []
        # Every public event of the match in progress (or just over): the first view after
        # a (re)join tells them again (ono99tui/host/match_history.py).
        self._history = MatchHistory()
        self._lobby = LobbyBroadcast()
        self._last_summary: TableSummary | None = None
        self._results: dict[str, Any] = {}
        # Matches won at this table, by player name (names are unique at a table and a
        # resumed seat keeps its name): the standings across rematches.
        self._matches_won: dict[str, int] = {}
        # Matches finished at this table by player name, whoever won them: with the matches
        # won, the evening's standings.
        self._matches_played: dict[str, int] = {}
        self._closed = False
        # The input being handled: its time, and the outputs it has asked for so far.
        self._now = 0.0
        self._out: list[Output] = []
        # An adapter that carries each output out the moment it is asked for (in order,
        # as it would the list): a move's views then leave before the core goes on to ask
        # the bots for their moves. Inputs then return no outputs.
        self._carried_out = None if carry_out is None else CarriedOut(carry_out)

    @property
    def phase(self) -> str:
        """WAITING, PLAYING or FINISHED (changed only by `table_phases.TRANSITIONS`)."""
        return self._phases.phase

    # --- reading -------------------------------------------------------------------------

    def table_options(self) -> dict[str, Any]:
        """The table's own options as they are now (not the rules), by their
        `lobby.options` names: what the journal keeps with a match, so that a restarted
        host plays it on with them (`settings.with_table_options` reads them back)."""
        return {"turn_seconds": self.turn_seconds,
                "timeouts_to_abandon": self.config.timeouts_to_abandon,
                "hints": self.hints, "spectator_chat": self.spectator_chat,
                "bot_level": level_of(self.config.takeover_bot),
                "duplicate": self.duplicate}

    def summary(self) -> TableSummary:
        """The public summary of the table, for discovery."""
        # With no host seated (a headless table), the first human names the table on the
        # LAN, as when the first human was its host.
        named = self.host or next((seat for seat in self.seats if seat.human), None) or (
            self.seats[0] if self.seats else None)
        host = named.name if named is not None else "nobody"
        return TableSummary(
            name=self.config.name, host_player=host, rules=self.rules.name,
            seats_taken=len(self.seats), people=sum(seat.human for seat in self.seats),
            capacity=self.config.capacity, phase=self.phase,
            password_required=self.config.password is not None)

    def duplicate_order(self) -> tuple[tuple[str, ...], ...] | None:
        """For ratings (issue 28): once the last deal of a duplicate set is over, the set's
        finishing order by its comparison (docs/DUPLICATE.md), best first, players whose
        edges tie grouped; None otherwise. A match of a set is rated by the set, not by its
        own finishing order: a rating that sees `self.duplicate_set` set and this None
        waits for the set's end."""
        duplicate = self.duplicate_set
        if duplicate is None or not duplicate.complete or self.phase == WAITING:
            return None
        return duplicate.comparison().order()

    # --- outputs -------------------------------------------------------------------------

    def _begin(self, now: float) -> None:
        self._now = self._timers.now = now
        self._out = self._carried_out if self._carried_out is not None else []

    def _end(self) -> list[Output]:
        """The outputs of the input handled, the lobby last if it changed (once)."""
        if self._lobby.dirty:
            self._flush_lobby()
        out = self._out
        self._out = []
        return out

    def _emit(self, output: Output) -> None:
        self._out.append(output)

    def _send(self, peer: int, message: Message) -> None:
        self._out.append(new_send((peer, message)))

    # --- host actions --------------------------------------------------------------------

    def _add_bot(self, kind: str) -> None:
        self._phases.require(Action.ADD_BOT)
        if len(self.seats) >= self.config.capacity:
            raise table_error(TableError.TABLE_FULL)
        try:
            bot = bot_kind_of(kind)
        except UnknownBot:
            raise table_error(TableError.UNKNOWN_BOT,
                              f"{kind!r}; bots: {', '.join(BOT_NAMES)}") from None
        seat = Seat(id=next(self._seat_ids), name=self._unique_name(f"{kind.capitalize()} bot"),
                    human=False, bot=bot, bot_since=self._bots.memory.now, ready=True)
        self.seats.append(seat)
        self._seats_changed()
        self._lobby.mark()
        self._maybe_autostart()

    def _remove_bot(self, index: int) -> None:
        self._phases.require(Action.REMOVE_BOT)
        if not 0 <= index < len(self.seats):
            raise table_error(TableError.NO_SUCH_SEAT, str(index))
        seat = self.seats[index]
        if seat.human:
            raise table_error(TableError.NOT_A_BOT, seat.name)
        self._remove_seat(seat)

    def _set_options(self, options: dict[str, Any]) -> None:
        playing = self._phases.playing
        if playing and not options.keys() <= MID_MATCH_OPTIONS:
            raise table_error(TableError.MATCH_RUNNING, "only the turn time and spectators' "
                                                        "chat may change during a match")
        try:
            rules = rules_from_options(self.rules, options)
            turn_seconds = turn_seconds_from_options(self.turn_seconds, options)
            spectator_chat = spectator_chat_from_options(self.spectator_chat, options)
            hints = hints_from_options(self.hints, options)
            duplicate = duplicate_from_options(self.duplicate, options)
        except (ValueError, TypeError) as error:
            raise table_error(TableError.BAD_OPTIONS, str(error)) from None
        clock_changed = turn_seconds != self.turn_seconds
        next_match_changed = (rules != self.rules or clock_changed or hints != self.hints
                              or duplicate != self.duplicate)
        table_before = self.table_options()
        if rules != self.rules or not duplicate:
            self.duplicate_set = None  # a set is played with one set of rules, or not at all
        self.rules, self.turn_seconds, self.hints = rules, turn_seconds, hints
        self.duplicate = duplicate
        self.spectator_chat = spectator_chat
        table = self.table_options()
        if playing and table != table_before:  # between matches the next deal records them
            self._out.append(OptionsChanged(tuple(table.items())))
        if not playing and next_match_changed:
            # "Ready" was said to the rules shown then: everyone says it again to these
            # (the host, who changed them, deals with `start` and needs no ready).
            for seat in self.seats:
                if seat.human and seat is not self.host:
                    seat.ready = False
        self._lobby.mark()
        if playing and clock_changed:
            self._restart_clock()
        elif not playing:
            self._maybe_autostart()  # nobody is ready now: a deal waiting to settle is off

    def _restart_clock(self) -> None:
        """The turn time changed mid-match: the seat waited for gets the whole new time
        from now (or no clock), and every seat a view that shows it."""
        self._clock.stop()
        self._follow_clock()
        # Views sent outside a move: a restart must number the seats' views on from them.
        connected = [index for index, seat in enumerate(self.seats) if seat.peer is not None]
        for index in connected:
            self._out.append(SeatResumed(index, self.seats[index].seq + 1))
        self._send_views(connected, list(self.spectators), ())

    # --- the match -----------------------------------------------------------------------

    def _start(self) -> None:
        self._phases.require(Action.START)
        # The deal goes only to live players and bots: a human seat nobody is connected to
        # (resigned, taken over by a bot, or still in its grace period after the last match)
        # is freed rather than dealt cards nobody would play. (Until now the last match's
        # results name it.)
        if sum(seat.connected for seat in self.seats) < 2:
            raise table_error(TableError.NOT_ENOUGH_PLAYERS)
        self._timers.cancel(DealSettle())
        self._free_absent_seats()
        self._reopened = False
        seed = self._seeds.getrandbits(64)
        duplicate = self._deal_duplicate(seed)
        if duplicate is None:
            self._rng = random.Random(seed)
            self._places = None
        else:
            seed = duplicate.seed
            self._rng = DuplicateRandom(seed)
            self._places = PlaceTracker()
        self._match_seed = seed
        state, events = start_match(self.rules, len(self.seats), self._rng)
        self.matches_dealt += 1
        self.state = state
        self._phases.change(PhaseChange.DEAL)
        # Each waiting room's marks start from a full burst: a ready per match is no flood,
        # and a match has to be played through before the next room opens.
        self._marks.forget_all()
        for seat in self.seats:
            seat.ready = not seat.human
            seat.resigned = False
            seat.timeouts = 0
            seat.pending_events.clear()
        self._history.clear()
        sessions = self._sessions
        self._out.append(MatchDealt(
            seed=seed, rules=rules_to_wire(self.rules),
            names=tuple(seat.name for seat in self.seats),
            kinds=tuple(HUMAN if seat.human or seat.bot is None else seat.bot
                        for seat in self.seats),
            token_hashes=tuple(sessions.digest_for(seat) if seat.human else None
                               for seat in self.seats),
            host_seat=self.seats.index(self.host) if self.host in self.seats else None,
            number=self.matches_dealt, seqs=self._seqs_after_views(),
            won=tuple(self._matches_won.items()), played=tuple(self._matches_played.items()),
            table=tuple(self.table_options().items()),
            unrated=tuple(index for index, seat in enumerate(self.seats) if seat.unrated),
            duplicate=None if duplicate is None else duplicate.to_wire()))
        log.info("match %d dealt (%s, %d seats)", self.matches_dealt, self.rules.name,
                 len(self.seats))
        if duplicate is not None:
            log.info("duplicate set: deal %d of %d", duplicate.rotation + 1, duplicate.size)
        self._lobby.mark()  # sent before the views: it moves each connection to SEATED
        self._publish(events)

    def _deal_duplicate(self, seed: int) -> DuplicateSet | None:
        """At a duplicate table, the set the deal belongs to, with the seats put in its
        rotation's order: the set in play if these are its players, else a new set of
        the seats as they are (its seed `seed`). None at a table that deals no sets."""
        if not self.duplicate:
            self.duplicate_set = None
            return None
        names = [seat.name for seat in self.seats]
        current = self.duplicate_set
        if current is None or not current.fits(names):
            if current is not None and not current.complete:
                log.info("the duplicate set's players changed: a new set starts")
            current = self.duplicate_set = DuplicateSet(seed=seed, players=tuple(names))
        by_name = {seat.name: seat for seat in self.seats}
        self.seats[:] = [by_name[name] for name in current.seating()]
        return current

    def _open_room(self) -> None:
        """The match is over and the host takes the table back to the waiting room: the
        next match's rules and seats may change there before anyone deals. Seats nobody
        plays any more are freed (before a deal, seats are for live players), everyone
        says ready again (to what the room will show), and the last match is put away: a
        newcomer, a spectator or a resumed seat is sent no view of it. The standings stay:
        they count matches, whatever their rules."""
        self._phases.require(Action.OPEN_ROOM)
        if self.phase == WAITING:
            return  # the room is open already (a second press): nothing changes
        self._timers.cancel(DealSettle())
        self._phases.change(PhaseChange.OPEN_ROOM)
        self._reopened = True
        self._free_absent_seats()
        for seat in self.seats:
            seat.ready = not seat.human
            seat.resigned = False
            seat.taken_over = False  # its player is here (absent seats were freed)
            seat.pending_events.clear()
        self.state = None
        self._history.clear()
        self._results = {}
        log.info("back to the waiting room after match %d", self.matches_dealt)
        self._lobby.mark()
        self._maybe_autostart()

    def _play(self, index: int, move: GameMove) -> None:
        state = self.state
        assert state is not None
        if index not in acting_seats(state):
            raise table_error(TableError.NOT_YOUR_TURN)
        try:
            self.state, events = apply(state, move, self._rng)
        except IllegalMove as error:
            raise table_error(TableError.ILLEGAL_MOVE, f"{error.code}: {error.reason}") from None
        except MalformedMove as error:
            raise table_error(TableError.MALFORMED_MOVE,
                              f"{error.code}: {error.reason}") from None
        self._out.append(MovePlayed(move_to_wire(move), self._seqs_after_views()))
        self._publish(events, moved=index)

    def _publish(self, events: Iterable[Any], moved: int | None = None) -> None:
        """Send every seat its new view with the events since its last one (`moved`: the
        seat whose move led to it, if one did)."""
        state = self.state
        assert state is not None
        self._version += 1
        events = tuple(events)
        self._bots.memory.observe(events)
        if self._places is not None:
            self._places.observe(events)
        wire_events = tuple([event_to_wire(event) for event in events])
        if self._table_events:
            wire_events = (*self._table_events, *wire_events)
            self._table_events.clear()
        self._history.extend(wire_events)
        wire_events = wire_events[-MAX_EVENTS:]
        for seat in self.seats:
            if seat.peer is None:  # away: the events wait for its next view
                seat.queue_events(wire_events)
        if self._bots.standing_in is not None:
            self._stand_in_goes_on()
        self._follow_clock(moved)
        self._send_views(range(len(self.seats)), list(self.spectators), wire_events)
        if state.phase == MATCH_OVER:
            self._finish_match()
        else:
            self._schedule_bots()

    def _seqs_after_views(self) -> tuple[int, ...]:
        """Every seat's view seq once the views `_publish` is about to send are out (the
        journal records them, so that a restart numbers views on from there)."""
        return tuple([seat.seq + 1 if seat.peer is not None else seat.seq
                      for seat in self.seats])

    def _send_views(self, seat_indexes: Iterable[int], spectators: Iterable[int],
                    events: tuple[dict[str, Any], ...], *, catch_up: bool = False) -> None:
        """Send the current state's view with `events` to each listed seat that is connected
        (after the events it missed while away) and to each listed spectator; `catch_up`:
        they just (re)joined, and the view tells the match before those events too.

        The one place views are built and packed: one `StateViews` per call converts the
        public facts once for every seat and spectator.
        """
        state = self.state
        assert state is not None
        if self._lobby.dirty:  # the lobby leaves first: it may move connections to SEATED
            self._flush_lobby()
        views = StateViews(state)
        clock = self._clock.for_views(self.turn_seconds)
        out = self._out
        seats = self.seats
        for index in seat_indexes:
            seat = seats[index]
            peer = seat.peer
            if peer is None:
                continue
            seat.seq += 1
            seat_events = seat.take_events(events) if seat.pending_events else events
            seat_view = views.seat(index)
            view = View(seq=seat.seq, view=seat_view, events=seat_events, clock=clock)
            if catch_up:
                view = self._with_history(view, seat_view.size)
            out.append(new_send((peer, view)))
        seqs = self.spectators
        for peer in spectators:
            seq = seqs[peer] + 1
            seqs[peer] = seq
            spectator_view = views.spectator()
            view = View(seq=seq, view=spectator_view, events=events, clock=clock)
            if catch_up:
                view = self._with_history(view, spectator_view.size)
            out.append(new_send((peer, view)))

    def _with_history(self, view: View, view_size: int) -> View:
        """`view` with the match's public events before its own as `history`: the same
        events every seat was sent (they are all public), shortened to fit the frame."""
        # Room in the frame once the view, its events and the other fields are in.
        budget = MAX_FRAME_SIZE - view_size - packed_size(list(view.events)) - _FRAME_SLACK
        catch_up = self._history.catch_up(len(view.events), budget)
        return replace(view, history=catch_up.events, history_abridged=catch_up.abridged)

    def _finish_match(self) -> None:
        state = self.state
        assert state is not None
        self._phases.change(PhaseChange.WON)
        for winner in state.winners:
            name = self.seats[winner].name
            self._matches_won[name] = self._matches_won.get(name, 0) + 1
        for seat in self.seats[:state.seats]:
            self._matches_played[seat.name] = self._matches_played.get(seat.name, 0) + 1
        self._bots.forget()  # no bot has a move to make any more
        self._results = {"winners": list(state.winners),
                         "winner_names": [self.seats[seat].name for seat in state.winners],
                         "scores": list(state.scores), "tokens": list(state.tokens)}
        duplicate = self.duplicate_set
        if duplicate is not None and self._places is not None and not duplicate.complete:
            duplicate.finished_rotation(self._places.places(state))
            self._results["duplicate"] = comparison_to_wire(duplicate.comparison())
            self._out.append(MatchWon(tuple(state.winners), duplicate.to_wire()))
            log.info("duplicate set: deal %d of %d played; order %s", duplicate.rotation,
                     duplicate.size, duplicate.comparison().order())
        else:
            self._out.append(MatchWon(tuple(state.winners)))
        self._rate_match(state)
        self._timers.cancel_of_type(BotTurn)
        self._follow_clock()
        names = ", ".join(self.seats[seat].name for seat in state.winners)
        log.info("match %d over; won by %s", self.matches_dealt, names)
        self._lobby.mark()

    def _rated(self, seat: Seat) -> Rated:
        """Who a seat's rating belongs to: its person by name, or its bot's level."""
        if seat.human or seat.bot is None:
            return Rated(PLAYER, seat.name)
        return Rated(BOT, level_of(seat.bot))

    def _shown_rating(self, seat: Seat) -> int | None:
        """The rating the waiting room shows beside a seat (None: not rated here)."""
        if self.ratings is None or seat.unrated:
            return None
        return self.ratings.get(self._rated(seat)).shown

    def _rate_match(self, state: GameState) -> None:
        """Rate the match just won from its finishing order, ask for the changes to be
        kept (`RatingsChanged`, after the `won` record) and put each seat's new rating and
        its change in the results. A match of a duplicate set is rated by the set: not
        at all before its last deal, then from the set's comparison (`duplicate_order`)."""
        if self.ratings is None:
            return
        seats = self.seats[:state.seats]
        if self._places is not None:  # a deal of a duplicate set
            order = self.duplicate_order()
            if order is None:
                return  # the set is still in play: it is rated at its end
            rank = {name: place for place, group in enumerate(order) for name in group}
            places = [rank[seat.name] for seat in seats]
        else:
            places = list(finishing_ranks(state, elimination_groups(
                (event.get("kind", ""), event.get("seat")) for event in self._history.events)))
        # A player who left (a bot played their seat on to the end, or it resigned) is
        # rated last, whatever the seat made of it: leaving never spares a rating.
        last = max(places) + 1
        for index, seat in enumerate(seats):
            if seat.human and (seat.taken_over or seat.resigned):
                places[index] = last
        entrants = [Entrant(self._rated(seat), place, seat.unrated)
                    for seat, place in zip(seats, places, strict=True)]
        match_id = f"{self.config.name}#{self.matches_dealt}#{self._match_seed}"
        self.ratings, changes = rate_match(self.ratings, entrants, match_id)
        if not changes:
            return
        self._out.append(RatingsChanged(match_id, changes))
        by_who = {change.who: change for change in changes}
        shown: list[dict[str, int] | None] = []
        for seat in seats:
            change = None if seat.unrated else by_who.get(self._rated(seat))
            shown.append(None if change is None else {"rating": change.after.shown,
                                                      "change": change.shown_change})
        self._results["ratings"] = shown
        log.info("match %d rated: %s", self.matches_dealt, ", ".join(
            f"{change.who.label} {change.shown_change:+d}" for change in changes))

    # --- bots (ono99tui.host.bot_pacing) -------------------------------------------------

    def _schedule_bots(self) -> None:
        """Ask for the move of every bot-played seat (and of a stand-in) that has one to
        make now, and arm each bot's pace timer; a move already asked for at this view is
        not asked for again, and one no seat waits for any more is forgotten."""
        if self._timers:
            self._timers.cancel_of_type(BotTurn)
        state = self.state
        wanted: dict[BotTurn, WantedMove] = {}
        if state is not None and self._phases.playing:
            wanted = self._bot_turns_now(state)
        if not wanted:
            self._bots.forget()
            return
        assert state is not None
        now = self._bots.want(wanted, lambda seat: view(state, seat),
                              self.config.bot_think_seconds, self._out)
        if now is not None:
            self._play_bot_move(now)  # its views schedule whatever comes next

    def _bot_turns_now(self, state: GameState) -> dict[BotTurn, WantedMove]:
        """Each bot move the table waits for now, by its key."""
        turns: dict[BotTurn, WantedMove] = {}
        version = self._version
        pending = state.pending_draw
        bots = self._bots
        standing_in = bots.standing_in
        for index in acting_seats(state):
            seat = self.seats[index]
            if seat.bot_plays and seat.bot is not None:
                delay = self.config.bot_delay
                if (state.rules.late_draw_penalty and 0 <= pending != index
                        and not self.seats[pending].bot_plays):
                    # RULES.md §3: give the human who still has to draw a fair chance.
                    delay = max(delay, self.config.late_draw_bot_wait)
                if seat.peer is not None:  # its idle player is still there: a chance to
                    delay = max(delay, IDLE_RECLAIM_SECONDS)  # come back
                turns[BotTurn(version, index)] = WantedMove(seat.bot, seat.bot_since, delay)
            elif standing_in is not None and standing_in.index == index:
                if bots.stand_in_since is None:  # the table's stand-in sits down now
                    bots.stand_in_since = bots.memory.now
                turns[BotTurn(version, index)] = WantedMove(
                    self.config.takeover_bot, bots.stand_in_since, None)
        return turns

    def _bot_move(self, turn: BotTurn) -> None:
        """The bot's pace timer fired: play its move if it has come, else once it comes."""
        if turn.version != self._version or not self._phases.playing:
            return
        if self._bots.due(turn):
            self._play_bot_move(turn)

    def _play_bot_move(self, key: BotTurn) -> None:
        """Play the awaited move of `key` (it has come and its time is due), once."""
        move = self._bots.take(key)
        try:
            self._play(key.seat, move)
        except ApplicationError as error:  # a bot bug must not stall the table
            log.error("bot in seat %d chose a refused move %r: %s", key.seat, move, error)

    # --- the turn clock (ono99tui.host.turn_clock) -----------------------------------------

    def _follow_clock(self, moved: int | None = None) -> bool:
        """Keep the clock on the human seat the table waits for: a new turn (or a move by
        that seat, `moved`) restarts it, an away player stops it, a bot never has one.
        True when it was (re)armed now."""
        state, seconds = self.state, self.turn_seconds
        index = (waited_seat(state) if seconds is not None and state is not None
                 and self._phases.playing else None)
        seat = self.seats[index] if index is not None else None
        if (index is None or seat is None or not seat.human or seat.bot_plays
                or self._bots.stands_in_for(seat.id)):
            self._clock.stop()
            return False
        return self._clock.follow(index, seat.id, seconds=seconds, away=seat.peer is None,
                                  new_turn=moved == index)

    def _turn_timed_out(self, key: TurnTimeout) -> None:
        """The clocked seat did not move in time: everyone is told; a stand-in plays the
        turn, or, after too many in a row, the abandon policy applies."""
        state = self.state
        if state is None or not self._phases.playing:
            return
        timed = self._clock.ran_out(key)
        if timed is None:
            return
        index = timed.index
        seat = self.seats[index]
        seat.timeouts += 1
        log.info("%s ran out of time (%d in a row)", seat.name, seat.timeouts)
        self._table_events.append(event_to_wire(TimedOut(index, seat.timeouts)))
        if seat.timeouts >= self.config.timeouts_to_abandon:
            log.info("%s idled %d turns in a row: seat %d counts as abandoned", seat.name,
                     seat.timeouts, index)
            self._abandon(seat)
            if self._table_events:  # nothing was published (a bot plays on): tell them now
                self._publish(())
        else:
            # The stand-in's first move tells everyone (its view carries the event).
            self._bots.standing_in = StandIn(seat.id, index, state.round_no)
            self._schedule_bots()

    def _stand_in_goes_on(self) -> None:
        """After a new state: the stand-in keeps playing the timed-out turn while it is
        unfinished (`turn_clock.stand_in_goes_on`), at most `MAX_STAND_IN_MOVES` moves."""
        bots, state = self._bots, self.state
        standing_in = bots.standing_in
        assert standing_in is not None
        index = standing_in.index
        if (state is None or not self._phases.playing or state.phase == MATCH_OVER
                or index >= len(self.seats) or self.seats[index].id != standing_in.seat_id
                or standing_in.moves >= MAX_STAND_IN_MOVES
                or not stand_in_goes_on(state, index, standing_in.round_no)):
            bots.standing_in = None

    # --- seats ---------------------------------------------------------------------------

    def _seat_abandoned(self, seat: Seat) -> None:
        """The grace period ran out (or the player left): a bot plays on or the seat resigns
        (the abandon policy), or, between matches, the seat frees."""
        if seat.peer is not None or seat not in self.seats:
            return
        self._abandon(seat)

    def _abandon(self, seat: Seat) -> None:
        """The abandon policy for a seat given up on (gone, or idle past the turn clock)."""
        playing = self._phases.playing
        if playing and self.config.abandon_policy == "eliminate":
            self._resign(seat)
        elif playing:
            seat.taken_over = True
            if seat.bot is None:
                seat.bot = bot_kind_of(self.config.takeover_bot)
                seat.bot_since = self._bots.memory.now
            log.info("a %s bot plays on for %s", self.config.takeover_bot, seat.name)
            self._lobby.mark()
            self._schedule_bots()
            self._follow_clock()
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
        self._out.append(SeatResigned(index, self._seqs_after_views()))
        seat.resigned = True
        log.info("%s did not come back: seat %d resigns", seat.name, index)
        self._lobby.mark()
        self._publish(events)

    def _remove_seat(self, seat: Seat) -> None:
        self._timers.cancel(GraceExpiry(seat.id))
        self.seats.remove(seat)
        self._seats_changed()
        self._sessions.revoke(seat)
        self._talk.forget(("seat", seat.id))
        self._marks.forget(("seat", seat.id))
        if self.host is seat:
            self.host = None
            if first_player_hosts(self.config):
                self.host = next(
                    (s for s in self.seats if s.human and s.peer is not None), None)
        self._lobby.mark()

    def _free_absent_seats(self) -> None:
        """Free every human seat nobody is connected to (between matches)."""
        for seat in [seat for seat in self.seats if not seat.connected]:
            self._remove_seat(seat)

    def _seats_changed(self) -> None:
        # Between matches, the last match's state no longer matches the seat numbers:
        # drop it, so that no view is ever computed for the wrong seat.
        if self._phases.between_matches:
            self.state = None

    def _maybe_autostart(self, *, settled: bool = False) -> None:
        """Deal if the table's settings say so: the first match once `start_when` seats
        are live; a rematch (from a finished table, or from the waiting room the host
        opened after a match) once every live human is ready and `start_when` (at least
        two) seats are live, whether they just played or joined since. With a settle time
        the condition must hold that long first (`settled`: it has)."""
        if not self._phases.may(Action.START):
            return
        live = [seat for seat in self.seats if seat.connected]
        start_when = self.config.start_when
        if self.phase == WAITING and not self._reopened:
            due = start_when is not None and len(live) >= start_when
        else:
            present = [seat for seat in live if seat.human]
            due = (len(live) >= max(start_when or 2, 2) and bool(present)
                   and all(seat.ready for seat in present))
        settle = self.config.deal_settle_seconds
        if due and self._held_by_doors(live):
            settle = 0.0
        if not due:
            self._timers.cancel(DealSettle())  # a seat went: the next time counts afresh
        elif settled or settle <= 0:
            self._start()
        elif DealSettle() not in self._timers:
            self._timers.arm(DealSettle(), settle)

    def _held_by_doors(self, live: list[Seat]) -> bool:
        """Are the live human seats all held through a door the host trusts (the web
        door's phones)? The settle time keeps connections that say hello and are reset at
        once from being dealt to; a door's connection is its own session's, which stays up
        when the page behind it goes (the web door keeps a phone's seat for its linger
        time), so there is nothing to wait for: its players get their hand a second
        sooner."""
        humans = [seat for seat in live if seat.human]
        return bool(humans) and all(seat.peer in self._door_peers for seat in humans)

    def _own_seat(self, peer: int) -> Seat:
        seat = self._peer_seats.get(peer)
        if seat is None or seat not in self.seats:
            raise table_error(TableError.NO_SUCH_SEAT, "this connection holds no seat")
        return seat

    def _require_host(self, peer: int) -> None:
        if self.host is None or self._peer_seats.get(peer) is not self.host:
            raise table_error(TableError.NOT_HOST)

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

    # --- the lobby -----------------------------------------------------------------------

    def _table_info(self) -> dict[str, Any]:
        # "chat": this table answers `say` with `chat`; "room": it answers `open_room`;
        # "rates": it rates its players, and answers `rated` (docs/PROTOCOL.md §9).
        info: dict[str, Any] = {"name": self.config.name, "capacity": self.config.capacity,
                                "preset": self.rules.name, "chat": True, "room": True}
        if self.ratings is not None:
            info["rates"] = True
        return info

    def _flush_lobby(self) -> None:
        """Send everyone the lobby as it stands now (it changed since it was last sent),
        and the LAN its new summary if that changed too."""
        self._lobby.dirty = False
        # The rules in force now, not the config's: the host may have changed them.
        options = self.config.public_options() | {"preset": self.rules.name,
                                                  "rules": rules_to_wire(self.rules),
                                                  "turn_seconds": self.turn_seconds,
                                                  "spectator_chat": self.spectator_chat,
                                                  "hints": self.hints,
                                                  "duplicate": self.duplicate}
        if self.duplicate_set is not None:  # "deal 2 of 4": the set's progress
            duplicate = self.duplicate_set
            playing = self._phases.playing
            options["duplicate_set"] = {
                # The deal being played, else the last one played (0: none yet).
                "deal": duplicate.rotation + 1 if playing else duplicate.rotation,
                "of": duplicate.size, "players": list(duplicate.players),
                "complete": duplicate.complete}
        for peer, lobby in lobby_messages(
                phase=self._phases.phase, seats=self.seats, host=self.host,
                spectators=list(self.spectators), capacity=self.config.capacity,
                options=options, results=self._results, matches_won=self._matches_won,
                matches_played=self._matches_played,
                ratings=[self._shown_rating(seat) for seat in self.seats]):
            self._send(peer, lobby)
        summary = self.summary()
        if summary != self._last_summary:
            self._last_summary = summary
            self._out.append(SummaryChanged(summary))

