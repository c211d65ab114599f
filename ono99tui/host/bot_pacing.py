"""Bot pacing for the table core: the bot moves it waits for, the stand-in of a timed-out
turn, and what each bot has seen — state of their own, kept out of the core.

A bot never thinks inside the core, nor lives there: a seat knows its bot's kind, and when
a bot-played seat (or the stand-in) has a move to make, `BotPacing.want` asks for it with
a `BotMoveWanted` of values (the kind, the seat's view, the public events the bot has seen,
a seed, a budget) and arms the bot's pace timer `BotTurn` alike. The move is played once
both are in (`decided`, `due`), so a bot's thinking and its pause overlap; the stand-in
has no pause, its move plays as soon as it is chosen.

`BotMemory` keeps the game's events since the current deal began, numbered from the
table's start, so that each request carries exactly what a bot that sat down at a given
moment would have observed: everything since the deal, or since it sat down if later
(bots forget everything at each deal, `RoundDealt`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ono99tui.game import Event, PlayerView, RoundDealt
from ono99tui.game import Move as GameMove
from ono99tui.host.outputs import BotMoveWanted, BotTurn, Output
from ono99tui.host.timers import TimerBook


class BotMemory:
    """The events of the current deal, numbered from the table's start."""

    __slots__ = ("_count", "_deal", "_start")

    def __init__(self) -> None:
        self._deal: list[Event] = []
        self._start = 0  # the number of `_deal[0]`
        self._count = 0  # events seen in all

    @property
    def now(self) -> int:
        """The number of the next event: a bot that sits down now has seen none before it."""
        return self._count

    def observe(self, events: Iterable[Event]) -> None:
        """Take in a batch of events, in order; a deal starts the memory afresh."""
        deal = self._deal
        for event in events:
            if type(event) is RoundDealt:
                deal.clear()
                self._start = self._count
            deal.append(event)
            self._count += 1

    def seen_since(self, since: int) -> tuple[Event, ...]:
        """What a bot that sat down at event number `since` has observed of this deal."""
        return tuple(self._deal[max(0, since - self._start):])


@dataclass(slots=True)
class StandIn:
    """A stand-in plays the rest of a timed-out turn: for which seat (`seat_id`, `index`),
    in which round, and how many moves it has made so far."""

    seat_id: int
    index: int
    round_no: int
    moves: int = 0


@dataclass(slots=True)
class _AwaitedMove:
    """A bot move asked for: the move once it came, whether its pace timer fired (`due`),
    and the view it was asked in (the greedy fallback is chosen from it if need be)."""

    view: PlayerView
    move: GameMove | None = None
    due: bool = False


@dataclass(frozen=True, slots=True)
class WantedMove:
    """A bot move the table waits for now: the bot's kind, the event number it sat down
    at, and its pause (None: none, the stand-in of a turn whose time is up)."""

    kind: str
    since: int
    delay: float | None


class BotPacing:
    """The bot moves asked for and not yet played, and the stand-in of a timed-out turn."""

    __slots__ = ("_awaited", "_seeds", "_timers", "memory", "stand_in_since",
                 "standing_in")

    def __init__(self, timers: TimerBook, seed: int) -> None:
        self._timers = timers
        self._seeds = random.Random(seed ^ 0x5EED)
        self._awaited: dict[BotTurn, _AwaitedMove] = {}
        self.memory = BotMemory()
        # The turn a stand-in plays now, if any; and since when the table's stand-in has
        # been watching (None: it never had to play yet).
        self.standing_in: StandIn | None = None
        self.stand_in_since: int | None = None

    def stands_in_for(self, seat_id: int) -> bool:
        """Whether the stand-in plays this seat's timed-out turn now."""
        standing_in = self.standing_in
        return standing_in is not None and standing_in.seat_id == seat_id

    def want(self, wanted: dict[BotTurn, WantedMove], view_of: Callable[[int], PlayerView],
             budget: float, out: list[Output]) -> BotTurn | None:
        """Ask for each move in `wanted` not asked for yet (`BotMoveWanted` into `out`,
        with the seat's view, `view_of(seat)`) and arm each pace timer; forget the moves no
        seat waits for any more. Returns the stand-in's move to play now, if it came in
        already (its move has no pause)."""
        awaited = self._awaited
        for key in [key for key in awaited if key not in wanted]:
            del awaited[key]
        for key, move in wanted.items():
            if move.delay is not None:
                self._timers.arm(key, move.delay)
            asked = awaited.get(key)
            if asked is None:
                seat_view = view_of(key.seat)
                asked = awaited[key] = _AwaitedMove(seat_view)
                if not self._timers.closed:
                    out.append(BotMoveWanted(key, move.kind, seat_view,
                                             self.memory.seen_since(move.since),
                                             self._seeds.getrandbits(64), budget))
            if move.delay is None:  # the stand-in: its move plays as soon as it is chosen
                asked.due = True
                if asked.move is not None:
                    return key
        return None

    def waits_for(self, key: BotTurn) -> PlayerView | None:
        """The view of the move asked for with `key`, if it is awaited and has not come."""
        asked = self._awaited.get(key)
        return asked.view if asked is not None and asked.move is None else None

    def decided(self, key: BotTurn, move: GameMove) -> bool:
        """The move asked for with `key` came (it is awaited and checked legal): True if
        its time is due too, so it plays now."""
        asked = self._awaited[key]
        asked.move = move
        return asked.due

    def due(self, key: BotTurn) -> bool:
        """The pace timer of `key` fired: True if its move has come, so it plays now."""
        asked = self._awaited.get(key)
        if asked is None:
            return False
        asked.due = True
        return asked.move is not None

    def take(self, key: BotTurn) -> GameMove:
        """The move of `key` to play now (it has come and its time is due), once; a
        stand-in's counts toward its turn's bound."""
        move = self._awaited.pop(key).move
        assert move is not None
        standing_in = self.standing_in
        if standing_in is not None and standing_in.index == key.seat:
            standing_in.moves += 1
        return move

    def forget(self) -> None:
        """No bot has a move to make any more (the match is over, or the table closes)."""
        self._awaited.clear()
