"""A table in a script, for the client session's tests: the real engine plays a real match,
and each seat is sent what a host would send it (a welcome, lobbies, views with the events
since that seat's last view, a history after a rejoin) as netproto message objects, with
no socket and no host core in between."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from netproto.wire.messages import (
    PROTOCOL_VERSION,
    Lobby,
    SeatInfo,
    SeatKind,
    TablePhase,
    TurnClock,
    View,
    Welcome,
)
from ono99tui.client.session import TableSession
from ono99tui.game import MATCH_OVER, Event, apply, legal_moves, preset, start_match, view
from ono99tui.game import Move as GameMove
from ono99tui.game import State as GameState
from ono99tui.game.codec import event_to_wire, rules_to_wire, view_to_wire
from ono99tui.host.table_config import TableConfig


@dataclass
class ScriptedTable:
    """One match at a table of `names` (bots where `bots` says), dealt from `seed`."""

    names: tuple[str, ...] = ("ana", "bob", "cy")
    rules: str = "2022"
    seed: int = 1
    bots: frozenset[int] = frozenset()
    host_seat: int | None = 0
    config: TableConfig = field(default_factory=TableConfig)
    state: GameState = field(init=False)
    history: list[Event] = field(init=False)
    _unsent: dict[int | None, list[Event]] = field(init=False)
    _seqs: dict[int | None, int] = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.state, events = start_match(preset(self.rules), len(self.names), self.rng)
        self.history = list(events)
        self._unsent = {seat: list(events) for seat in (*range(len(self.names)), None)}
        self._seqs = {}

    # --- what a seat is sent ------------------------------------------------------------

    def welcome(self, seat: int | None = 0, *, token: str = "token-1", host: bool = False,
                chat: bool = True, name: str = "Kitchen") -> Welcome:
        return Welcome(proto=PROTOCOL_VERSION, role="player" if seat is not None else "spectator",
                       seat=seat, token=token if seat is not None else None, host=host,
                       table={"name": name, "chat": chat})

    def lobby(self, you: int | None = 0, *, phase: TablePhase = TablePhase.PLAYING,
              names: tuple[str, ...] | None = None, options: dict[str, Any] | None = None,
              spectators: int = 0, capacity: int | None = None,
              ready: frozenset[int] = frozenset()) -> Lobby:
        names = self.names if names is None else names
        seats = tuple(SeatInfo(seat=index, name=name,
                               kind=SeatKind.BOT if index in self.bots else SeatKind.HUMAN,
                               ready=index in ready, connected=True)
                      for index, name in enumerate(names))
        config = self.config
        public = config.public_options() | {"preset": self.rules,
                                            "rules": rules_to_wire(preset(self.rules))}
        return Lobby(phase=phase, seats=seats, host_seat=self.host_seat, you=you,
                     capacity=capacity or len(names), spectators=spectators,
                     options=public | (options or {}))

    def view(self, seat: int | None = 0, *, history: bool = False,
             clock: TurnClock | None = None, seq: int | None = None) -> View:
        """The next view for `seat` (None: a spectator's), with the events since its last;
        `history`: with the match so far before them, as after a (re)join."""
        events = self._unsent[seat]
        self._unsent[seat] = []
        if seq is None:
            seq = self._seqs.get(seat, 0) + 1
        self._seqs[seat] = seq
        told = self.history[:len(self.history) - len(events)]
        if seat is None:
            from ono99tui.game.view import spectator_view

            wire = view_to_wire(spectator_view(self.state))
        else:
            wire = view_to_wire(view(self.state, seat))
        return View(seq=seq, view=wire, events=tuple(event_to_wire(e) for e in events),
                    clock=clock,
                    history=tuple(event_to_wire(e) for e in told) if history else None)

    # --- playing --------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.phase == MATCH_OVER

    def acting(self) -> int:
        """The seat with a move to make (the first, should several have one)."""
        return next(seat for seat in range(len(self.names)) if legal_moves(self.state, seat))

    def play(self, move: GameMove | None = None) -> tuple[Event, ...]:
        """Apply `move` (default: the acting seat's first legal move)."""
        if move is None:
            move = legal_moves(self.state, self.acting())[0]
        self.state, events = apply(self.state, move, self.rng)
        self.history += events
        for unsent in self._unsent.values():
            unsent += events
        return events

    def play_until(self, done: Callable[[ScriptedTable], bool], limit: int = 2000) -> None:
        for _ in range(limit):
            if done(self):
                return
            self.play()
        raise AssertionError("the match did not get there")


def seated_session(table: ScriptedTable, seat: int = 0, *, hosting: str = "guest",
                   token: str = "token-1") -> TableSession:
    """A session seated at `table` in `seat`, welcomed, told the lobby and its first view."""
    session = TableSession(hosting=hosting)  # type: ignore[arg-type]
    session.connect()
    session.receive(table.welcome(seat, token=token), 0.0)
    session.receive(table.lobby(seat), 0.0)
    session.receive(table.view(seat), 0.0)
    return session
