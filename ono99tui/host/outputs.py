"""What the table core asks of whoever runs it: frozen values, executed in order.

The core (`ono99tui.host.core`) never sends, closes, sleeps or writes; each of its inputs
returns a list of these outputs (and of the journal's records, `ono99tui.host.journal.records`),
and its adapter (`ono99tui.host.server` on asyncio, a fake clock in tests) carries them
out in the order given: a `Welcome` must leave before the `Lobby` that follows it, because
netproto's connection state machine moves on each.

A bot's move is asked for, not made, by the core: `BotMoveWanted` carries values only —
the bot's kind, its seat's view, the public events it has seen, a seed for its random
generator and a thinking budget; the adapter makes that bot (`choose`: the same move the
core's own bot would have made) off its event loop and hands the move back as the core's
`bot_decided(key, move, now)` input (the greedy choice, `fallback`, if the budget ran out).
Nothing of the core is shared with the thread a bot thinks on.

Peers are the opaque ids the adapter gave them (netproto's `Peer.id`). Timers are named by
keys that are values (`BotTurn`, `GraceExpiry`, `TurnTimeout`, `DealSettle`): arming a key
that is armed replaces it, and a key that fires after the core stopped caring finds nothing
to do.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from netproto.wire.messages import Message
from ono99tui.bots import Bot, GreedyBot, make_bot
from ono99tui.game import Event, Move, PlayerView
from ono99tui.host.journal.records import JournalRecord
from ono99tui.host.ratings import Change


@dataclass(frozen=True, slots=True)
class BotTurn:
    """Timer key: the bot in seat `seat` moves, if the table is still at view `version`."""

    version: int
    seat: int


@dataclass(frozen=True, slots=True)
class GraceExpiry:
    """Timer key: the seat whose player dropped (`Seat.id`, stable across seat shifts)
    was not taken back in time."""

    seat_id: int


@dataclass(frozen=True, slots=True)
class TurnTimeout:
    """Timer key: the human in seat `seat_id` (`Seat.id`) did not move within the turn time.
    `serial` numbers each arming, so a clock restarted for the same seat is a new key."""

    seat_id: int
    serial: int


@dataclass(frozen=True, slots=True)
class DealSettle:
    """Timer key: enough seats have been live for `TableConfig.deal_settle_seconds`; deal
    if they still are (connections that say hello and vanish at once are never dealt to)."""


TimerKey = BotTurn | GraceExpiry | TurnTimeout | DealSettle


# The outputs are NamedTuples, the cheapest immutable values to build: the core builds one
# `Send` per seat per move. (Timer keys, which are hashed and compared, are dataclasses.)


class Send(NamedTuple):
    """Send `message` to peer `peer`."""

    peer: int
    message: Message


# `new_send((peer, message))` builds the same `Send` without running the NamedTuple's
# Python-level `__new__`: the core builds one per seat for every move, and this saves about
# 1 % of a move's work at 4 seats (callgrind, bench/latency.py's table, PYTHONHASHSEED=0).
new_send: Callable[[tuple[int, Message]], Send] = functools.partial(tuple.__new__, Send)


class Close(NamedTuple):
    """Say bye to peer `peer` with `code` and `reason`, and close its connection."""

    peer: int
    code: str
    reason: str


class ArmTimer(NamedTuple):
    """Call the core's `timer_fired(key, now)` once the clock reads `deadline` (replaces
    a timer armed with the same key)."""

    key: TimerKey
    deadline: float


class CancelTimer(NamedTuple):
    """Forget the timer armed with `key`."""

    key: TimerKey


class BotMoveWanted(NamedTuple):
    """Ask a bot of kind `kind` for its move in `view` off the event loop, and give the
    core `bot_decided(key, move, now)` once it has it; if it has none within `budget`
    seconds (or fails), give it `fallback()`, the greedy bot's choice. `seen`: the public
    events that bot has observed (since the deal, or since it sat down); `seed`: its random
    generator's. `key` also names the bot's pace timer: the core plays the move once both
    the move and the timer are in."""

    key: BotTurn
    kind: str
    view: PlayerView
    seen: tuple[Event, ...]
    seed: int
    budget: float

    def bot(self) -> Bot:
        """A bot of this kind that has observed what the seat's bot has."""
        bot = make_bot(self.kind)
        bot.observe(self.seen)
        return bot

    def choose(self) -> Move:
        """The bot's move, made here and now (it may think as long as it likes)."""
        return self.bot().choose(self.view, self.rng())

    def rng(self) -> random.Random:
        """The bot's own random generator for this move."""
        return random.Random(self.seed)

    def fallback(self) -> Move:
        """The greedy choice in this view: what plays when the bot has no move in time."""
        return _GREEDY.choose(self.view, _UNUSED_RNG)


# The greedy bot's choice is every bot decision's fallback; it never uses its generator.
_GREEDY = GreedyBot()
_UNUSED_RNG = random.Random(0)


@dataclass(frozen=True)
class TableSummary:
    """What the LAN may know about the table (discovery advertises it)."""

    name: str
    host_player: str
    rules: str
    seats_taken: int  # every seat, bots' included
    capacity: int
    phase: str
    password_required: bool
    # Seats people hold (the LAN is told these: a bot gives its seat up to a newcomer
    # between matches, so a table of bots is not "full" to someone looking for a game).
    people: int = 0


class SummaryChanged(NamedTuple):
    """The table's public summary changed: tell the lobby listeners (the advertisement)."""

    summary: TableSummary


class RatingsChanged(NamedTuple):
    """A finished match was rated (`ono99tui.host.ratings`): keep its changes in the
    ratings file (`ono99tui.host.journal.ratings_file`). Asked for after the match's `won`
    record; `match_id` makes a second keep of the same match do nothing."""

    match_id: str
    changes: tuple[Change, ...]


# A `JournalRecord` (`ono99tui.host.journal.records`) is an output too: write it to the journal.
Output = (Send | Close | ArmTimer | CancelTimer | JournalRecord | SummaryChanged | BotMoveWanted
          | RatingsChanged)
