"""A `TableCore` run on a fake clock: no sockets, no asyncio, no sleeping.

`ClockedTable` carries out the core's outputs as the asyncio adapter does (timers armed,
replaced and cancelled by key; frames kept per peer; journal records written), and
`advance(seconds)` fires the timers that come due, in deadline order, each at its own
deadline, so a test says exactly how much time passes.

Bot moves the core asks for (`BotMoveWanted`) are chosen at once, after the outputs that
asked for them, and handed back with `bot_decided`, as the asyncio adapter does after
the bot has thought; with `auto_decide=False` they wait in `wanted` for the test to answer
(`decide`), so a test can let time pass while a bot thinks.
"""

from __future__ import annotations

import itertools
from typing import Any

from netproto.wire.messages import (
    PROTOCOL_VERSION,
    Hello,
    Lobby,
    Message,
    Move,
    Resume,
    View,
    Welcome,
)
from ono99tui.game import Move as GameMove
from ono99tui.game import acting_seats, legal_moves, preset
from ono99tui.game.codec import move_to_wire
from ono99tui.host.core import PLAYING, TableCore
from ono99tui.host.journal.records import JOURNAL_RECORDS, MatchRecord, MemoryJournal
from ono99tui.host.outputs import (
    ArmTimer,
    BotMoveWanted,
    CancelTimer,
    Close,
    Output,
    RatingsChanged,
    Send,
    SummaryChanged,
    TableSummary,
    TimerKey,
)
from ono99tui.host.ratings import RatingBook
from ono99tui.host.table_config import TableConfig


def config(**options: Any) -> TableConfig:
    """A table with a fixed seed; rules may be given by preset name."""
    options.setdefault("seed", 7)
    if isinstance(options.get("rules"), str):
        options["rules"] = preset(options["rules"])
    return TableConfig(**options)


class ClockedTable:
    """One core, its fake clock, and everything its outputs asked for."""

    def __init__(self, table_config: TableConfig, *, auto_decide: bool = True,
                 ratings: RatingBook | None = None) -> None:
        self.core = TableCore(table_config, ratings=ratings)
        # The rated matches' changes the core asked to keep, oldest first.
        self.ratings_changed: list[RatingsChanged] = []
        # Bot moves asked for and not yet answered, oldest first.
        self.wanted: list[BotMoveWanted] = []
        self.auto_decide = auto_decide
        self._deciding = False
        self.now = 0.0
        # Armed timers: key -> (deadline, order armed), as the adapter's call_at handles.
        self.timers: dict[TimerKey, tuple[float, int]] = {}
        self._armed_order = itertools.count()
        self.frames: dict[int, list[Message]] = {}
        self.closed: list[Close] = []
        self.summaries: list[TableSummary] = []
        self._journal = MemoryJournal()
        self._peer_ids = itertools.count(1)

    @property
    def journal(self) -> list[MatchRecord]:
        """Every match dealt, newest last."""
        return self._journal.records

    # --- carrying out outputs ------------------------------------------------------------

    def run(self, outputs: list[Output]) -> list[Output]:
        """Carry out `outputs` in order (and return them, for the test to look at)."""
        for output in outputs:
            if isinstance(output, Send):
                self.frames.setdefault(output.peer, []).append(output.message)
            elif isinstance(output, ArmTimer):
                self.timers.pop(output.key, None)
                self.timers[output.key] = (output.deadline, next(self._armed_order))
            elif isinstance(output, CancelTimer):
                self.timers.pop(output.key, None)
            elif isinstance(output, Close):
                self.closed.append(output)
            elif isinstance(output, SummaryChanged):
                self.summaries.append(output.summary)
            elif isinstance(output, JOURNAL_RECORDS):
                self._journal.write(output)
            elif isinstance(output, BotMoveWanted):
                self.wanted.append(output)
            elif isinstance(output, RatingsChanged):
                self.ratings_changed.append(output)
            else:
                raise AssertionError(f"unknown output {output!r}")
        if self.auto_decide and not self._deciding:
            self._deciding = True  # decisions' own requests are answered by this loop
            try:
                while self.wanted:
                    self.decide(self.wanted[0])
            finally:
                self._deciding = False
        return outputs

    def decide(self, request: BotMoveWanted, move: GameMove | None = None) -> list[Output]:
        """Answer `request` with `move` (default: what its bot chooses), now."""
        if request in self.wanted:
            self.wanted.remove(request)
        if move is None:
            move = request.choose()
        return self.run(self.core.bot_decided(request.key, move, self.now))

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass, firing every timer due by then in deadline order."""
        until = self.now + seconds
        while self.timers:
            key, (deadline, _) = min(self.timers.items(), key=lambda item: item[1])
            if deadline > until:
                break
            del self.timers[key]
            self.now = max(self.now, deadline)
            self.run(self.core.timer_fired(key, self.now))
        self.now = until

    def deadline(self, key: TimerKey) -> float | None:
        """When the timer `key` fires (None: not armed)."""
        armed = self.timers.get(key)
        return None if armed is None else armed[0]

    # --- inputs --------------------------------------------------------------------------

    def new_peer(self) -> int:
        """A new connection's peer id (it has said nothing yet)."""
        return next(self._peer_ids)

    def connect(self, name: str, **hello: Any) -> int:
        """A new connection says hello; its peer id."""
        peer = self.new_peer()
        self.send(peer, Hello(proto=PROTOCOL_VERSION, name=name, **hello))
        return peer

    def resume(self, token: str) -> int:
        """A new connection resumes the seat `token` holds; its peer id."""
        peer = next(self._peer_ids)
        self.send(peer, Resume(proto=PROTOCOL_VERSION, token=token))
        return peer

    def send(self, peer: int, message: Message) -> list[Output]:
        """Peer `peer` sends `message` (a refusal raises, as to the server pump)."""
        return self.run(self.core.peer_message(peer, message, self.now))

    def drop(self, peer: int, code: str = "eof") -> list[Output]:
        """Peer `peer`'s connection ends."""
        return self.run(self.core.peer_gone(peer, code, self.now))

    def play(self, peer: int, move: GameMove) -> list[Output]:
        """Peer `peer` plays `move`, chosen from its latest view."""
        seat = self.core.seat_of(peer)
        assert seat is not None
        return self.send(peer, Move(seq=seat.seq, move=move_to_wire(move)))

    # --- reading -------------------------------------------------------------------------

    def of_kind(self, peer: int, kind: type[Message]) -> list[Any]:
        """The frames of `kind` peer `peer` was sent, oldest first."""
        return [frame for frame in self.frames.get(peer, []) if isinstance(frame, kind)]

    def welcome(self, peer: int) -> Welcome:
        """The welcome peer `peer` got."""
        welcomes = self.of_kind(peer, Welcome)
        assert len(welcomes) >= 1
        return welcomes[-1]  # type: ignore[no-any-return]

    def lobby(self, peer: int) -> Lobby:
        """The newest lobby peer `peer` got."""
        return self.of_kind(peer, Lobby)[-1]  # type: ignore[no-any-return]

    def views(self, peer: int) -> list[View]:
        """The views peer `peer` got."""
        return self.of_kind(peer, View)

    def moves_played(self) -> int:
        """Moves (and resignations) in the newest match's journal record."""
        return len(self.journal[-1].moves) if self.journal else 0

    def human_to_act(self) -> int | None:
        """The seat index of a connected human with a move now, if any."""
        state = self.core.state
        if state is None or self.core.phase != PLAYING:
            return None
        for index in acting_seats(state):
            seat = self.core.seats[index]
            if seat.human and seat.peer is not None and not seat.bot_plays:
                return index
        return None

    def play_until(self, done: Any, *, limit: int = 5000) -> None:
        """Play on (humans: their first legal move; bots: by letting their time pass)
        until `done()` holds."""
        for _ in range(limit):
            if done():
                return
            index = self.human_to_act()
            if index is not None:
                state = self.core.state
                assert state is not None
                peer = self.core.seats[index].peer
                assert peer is not None
                self.play(peer, legal_moves(state, index)[0])
            elif self.timers:
                self.advance(min(deadline for deadline, _ in self.timers.values()) - self.now)
            else:
                raise AssertionError("nothing can happen any more")
        raise AssertionError("the condition never held")
