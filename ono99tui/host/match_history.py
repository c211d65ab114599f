"""The public events of the match in progress, told again to whoever (re)joins it.

A view carries the events since the seat's previous view, so an app knows only what it
saw itself: one that reconnects, a reloaded web page, a spectator who arrives mid-match
and every seat after a host restart had an empty log. The table therefore keeps every
event it published this match (`MatchHistory`: the very wire maps every seat was sent,
all public, docs/PROTOCOL.md §5) and puts the ones before a view's own events in the
first view after a (re)join, as `view.history`.

A frame holds at most 64 KiB, and a long match does not fit: a 1980 match of eight seats
is up to about 55 KB of events with normal bots (20 play-outs) and 67 KB with random ones
(31 rounds; tests/host/test_core_history.py, measured 2026-11-30). So
`catch_up` shortens the oldest rounds first, keeping of each only what the results
dialogs need (`ABRIDGED_KINDS`: the deal, busts and what they cost, the round's end),
about 250 bytes a round; the round in progress is never shortened. Should even that not
fit (never with eight seats or fewer), the oldest events are left out.

Sans-IO and pure: the core feeds it and asks it; nothing here knows a socket or a clock.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from netproto.wire.packing import prepack

Wire = dict[str, Any]

# What is kept of a shortened round: its deal, every bust and what the bust cost, a
# resignation, and its end (scores and tokens). Plays and draws are left out.
ABRIDGED_KINDS = frozenset({"round_dealt", "busted", "token_lost", "out_of_round",
                            "eliminated", "resigned", "round_ended"})
_ROUND_DEALT = "round_dealt"
# Bytes of a msgpack array header of any length the history may have.
_ARRAY_HEADER = 5


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What a (re)joined view carries as history: the `events` before its own, oldest
    first, and how many rounds at their start were shortened (`abridged`)."""

    events: tuple[Wire, ...]
    abridged: int = 0


def packed_size(value: Any) -> int:
    """Bytes of `value` packed with msgpack, as it goes into a frame."""
    return len(prepack(value).data)


class MatchHistory:
    """Every public event the table published in the match in progress, oldest first."""

    def __init__(self) -> None:
        self._events: list[Wire] = []
        # Each event's packed size, worked out the first time a catch-up needs it (only a
        # (re)join pays for it, never a move).
        self._sizes: list[int] = []

    def __len__(self) -> int:
        return len(self._events)

    @property
    def events(self) -> Sequence[Wire]:
        """The events kept (read them, do not change them)."""
        return self._events

    def clear(self) -> None:
        """Forget the match (a new one is dealt)."""
        self._events.clear()
        self._sizes.clear()

    def extend(self, events: Iterable[Wire]) -> None:
        """Keep the events the table just published, in order."""
        self._events.extend(events)

    def catch_up(self, newer: int, budget: int) -> CatchUp:
        """The events before the newest `newer` (which the view carries in its `events`),
        packed in at most `budget` bytes: whole if they fit, else with the oldest rounds
        shortened (see the module docstring)."""
        events = self._events[:max(0, len(self._events) - newer)]
        sizes = self._sized(len(events))
        total = _ARRAY_HEADER + sum(sizes)
        if total <= budget:
            return CatchUp(tuple(events))
        starts = [index for index, event in enumerate(events)
                  if event.get("kind") == _ROUND_DEALT]
        abridged = 0
        # Every round but the last one begun: the round in progress is told whole.
        for first, end in itertools.pairwise(starts):
            total -= sum(size for event, size in zip(events[first:end], sizes[first:end],
                                                     strict=True)
                         if event.get("kind") not in ABRIDGED_KINDS)
            abridged += 1
            if total <= budget:
                break
        whole_from = starts[abridged] if abridged else 0
        head = starts[0] if starts else len(events)  # before the first deal: nothing, really
        kept = [index for index in range(whole_from)
                if index < head or events[index].get("kind") in ABRIDGED_KINDS]
        kept.extend(range(whole_from, len(events)))
        dropped = 0
        while dropped < len(kept) and total > budget:  # beyond any real match: the oldest go
            total -= sizes[kept[dropped]]
            dropped += 1
        kept = kept[dropped:]
        shortened = set(starts[:abridged])
        return CatchUp(tuple(events[index] for index in kept),
                       sum(1 for index in kept if index in shortened))

    def _sized(self, count: int) -> list[int]:
        sizes = self._sizes
        for event in self._events[len(sizes):count]:
            sizes.append(packed_size(event))
        return sizes[:count]
