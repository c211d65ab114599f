"""One seat at the table: who plays it (a connected human, a bot, or a bot standing in)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from netproto.wire.messages import MAX_EVENTS, SeatInfo, SeatKind


@dataclass(eq=False)
class Seat:
    """A seat; identity (not its index, which shifts in the waiting room) keys its token."""

    # Unique at its table for the table's life: names the seat's grace timer.
    id: int
    name: str
    human: bool
    # The kind of bot that plays it or would stand in for its player (`make_bot`'s name),
    # and the number of the game event it sat down at (what it has seen:
    # `ono99tui.host.bot_pacing.BotMemory`). A seat holds no live bot: bots think off the
    # table's loop, from values.
    bot: str | None = None
    bot_since: int = 0
    # The id of the connection playing it (netproto's `Peer.id`); None while away.
    peer: int | None = None
    ready: bool = False
    # A bot plays for a human who left or dropped past the grace period.
    taken_over: bool = False
    # The seat left the match this match (abandon policy "eliminate"): it can never act
    # again in it; its player may come back and watch from it.
    resigned: bool = False
    # Turns in a row the turn clock ran out on (a move by the player resets it).
    timeouts: int = 0
    # Sequence number of the last view sent to this seat (strictly increasing, never reset).
    seq: int = 0
    # Its player asked not to be rated (`Hello.unrated`, or `Rated` between matches): left
    # out of every rating; fixed for a match once it is dealt (the journal's header says so).
    unrated: bool = False
    # Events (wire form) not yet delivered with a view, e.g. while the player is away.
    pending_events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def connected(self) -> bool:
        """A bot is always there; a human when their connection is up."""
        return not self.human or self.peer is not None

    @property
    def bot_plays(self) -> bool:
        """Whether the host chooses this seat's moves."""
        return self.bot is not None and (not self.human or self.taken_over)

    def queue_events(self, events: tuple[dict[str, Any], ...]) -> None:
        """Keep events for the next view, dropping the oldest past the per-view limit."""
        self.pending_events.extend(events)
        if len(self.pending_events) > MAX_EVENTS:
            del self.pending_events[: len(self.pending_events) - MAX_EVENTS]

    def take_events(self, newer: tuple[dict[str, Any], ...] = ()) -> tuple[dict[str, Any], ...]:
        """The queued events followed by `newer` (at most the per-view limit, the newest),
        emptying the queue."""
        self.queue_events(newer)
        events = tuple(self.pending_events)
        self.pending_events.clear()
        return events

    def info(self, index: int, rating: int | None = None) -> SeatInfo:
        """This seat as the waiting room lists it (with its shown rating, if rated)."""
        return SeatInfo(
            seat=index,
            name=self.name,
            kind=(SeatKind.RESIGNED if self.resigned
                  else SeatKind.BOT if self.bot_plays else SeatKind.HUMAN),
            ready=self.ready or not self.human,
            connected=self.connected,
            rating=rating,
            unrated=self.unrated,
        )
