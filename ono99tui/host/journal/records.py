"""The table's journal: each match's seed and applied moves, enough to replay it exactly.

The table core (`ono99tui.host.core`) does not keep the journal: among its outputs it emits
one record per fact (`MatchDealt`, `MovePlayed`, `SeatResigned`, `SeatResumed`,
`OptionsChanged`, `MatchWon`, `MatchAbandoned`) and its adapter hands each to its journal:
`MemoryJournal` here (in-process tables), or
`ono99tui.host.journal.table.FileJournal` (the file a hosted table appends to, from which a
restarted host resumes its match).

Each record that sends views carries `seqs`, every seat's view sequence number once the
record's views are out, so that a restarted table goes on numbering views where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from ono99tui.game import State, apply, resign, start_match
from ono99tui.game.codec import move_from_wire, rules_from_wire
from ono99tui.game.duplicate import match_rng

RESIGN = "resign"


def resign_record(seat: int) -> dict[str, Any]:
    """The journal entry of a seat that resigned."""
    return {"kind": RESIGN, "seat": seat}


@dataclass
class MatchRecord:
    """One match: the deal's seed, the rules and seat names, and every move applied.

    A seat the table made resign is recorded among the moves as {"kind": "resign", "seat": i}.
    """

    seed: int
    rules: dict[str, Any]
    names: tuple[str, ...]
    moves: list[dict[str, Any]] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    # A match of a duplicate set is dealt by `DuplicateRandom` (docs/DUPLICATE.md).
    duplicate: bool = False


# The journal's entries, as the table core emits them among its outputs. NamedTuples: the
# cheapest immutable values to build, and the core builds one per move.


class MatchDealt(NamedTuple):
    """A match was dealt: the journal opens a new `MatchRecord`.

    Besides what a replay needs (seed, rules, names), what a restart needs: each seat's
    kind ("human" or the bot's kind) and, for humans, the SHA-256 of its resume token
    (`netproto.wire.sessions.token_digest`; never the token), the seat with host rights, the
    match's number at the table, and the seats' view sequence numbers after the deal.
    """

    seed: int
    rules: dict[str, Any]
    names: tuple[str, ...]
    kinds: tuple[str, ...] = ()
    token_hashes: tuple[str | None, ...] = ()
    host_seat: int | None = None
    number: int = 0
    seqs: tuple[int, ...] = ()
    # The table's standings before this match, by player name: matches won, matches played
    # to their end. A restarted host takes them up with the match, so the evening's
    # standings go on rather than starting again at 0.
    won: tuple[tuple[str, int], ...] = ()
    played: tuple[tuple[str, int], ...] = ()
    # The table's own options the match is played with (`TableCore.table_options`: the turn
    # clock, the idle limit, hints, spectators' chat, the stand-ins' level), by their
    # `lobby.options` names: a restarted host that takes the match up plays it on with them.
    table: tuple[tuple[str, Any], ...] = ()
    # A match of a duplicate set (docs/DUPLICATE.md): the set as it stood before the deal
    # (`DuplicateSet.to_wire`: its seed, which is also this match's, its players and the
    # places of the rotations played); None for any other match.
    duplicate: dict[str, Any] | None = None
    # The seats whose players asked not to be rated (`Hello.unrated`): a restarted host
    # that takes the match up leaves them out of its rating too.
    unrated: tuple[int, ...] = ()


class MovePlayed(NamedTuple):
    """A move was applied (its wire map); `seqs`: every seat's view seq after it."""

    move: dict[str, Any]
    seqs: tuple[int, ...] = ()


class SeatResigned(NamedTuple):
    """The table made a seat resign (the abandon policy "eliminate")."""

    seat: int
    seqs: tuple[int, ...] = ()


class SeatResumed(NamedTuple):
    """A seat was taken back mid-match and sent a view: its view seq is now `seq`."""

    seat: int
    seq: int


class OptionsChanged(NamedTuple):
    """The host changed the table's options during a match (the turn clock, spectators'
    chat): all of them as they are now, as in `MatchDealt.table`."""

    table: tuple[tuple[str, Any], ...]


class MatchWon(NamedTuple):
    """The match is over; these seats won it (and, for a match of a duplicate set, the
    set after it, this rotation's places in)."""

    winners: tuple[int, ...]
    duplicate: dict[str, Any] | None = None


# Why a match ended without a winner (`MatchAbandoned.reason`).
CLOSED_BY_HOST = "closed"


class MatchAbandoned(NamedTuple):
    """The match ends unfinished, for good: the host closed the table on purpose
    (`CLOSED_BY_HOST`). A restart never takes it up."""

    reason: str


JournalRecord = (MatchDealt | MovePlayed | SeatResigned | SeatResumed | OptionsChanged
                 | MatchWon | MatchAbandoned)
JOURNAL_RECORDS = (MatchDealt, MovePlayed, SeatResigned, SeatResumed, OptionsChanged, MatchWon,
                   MatchAbandoned)

# An in-process table keeps this many matches in memory (the oldest are dropped).
MEMORY_JOURNAL_MATCHES = 100


class TableJournal(Protocol):
    """Where a table's journal records go (`MemoryJournal`, or the table's file)."""

    def write(self, entry: JournalRecord) -> None:
        """Keep one record."""

    @property
    def records(self) -> list[MatchRecord]:
        """The matches kept, oldest first."""


class MemoryJournal:
    """The journal kept in memory: one `MatchRecord` per match dealt, newest last, at most
    `keep` of them (an in-process table must not grow without limit)."""

    def __init__(self, keep: int = MEMORY_JOURNAL_MATCHES) -> None:
        self.keep = keep
        self.records: list[MatchRecord] = []

    def write(self, entry: JournalRecord) -> None:
        """Add one entry to the journal (one about a match it has no header of, e.g. a
        match taken up after a restart, is not kept)."""
        if not self.records and type(entry) is not MatchDealt:
            return
        if isinstance(entry, MovePlayed):
            self.records[-1].moves.append(entry.move)
        elif isinstance(entry, SeatResigned):
            self.records[-1].moves.append(resign_record(entry.seat))
        elif isinstance(entry, MatchDealt):
            self.records.append(MatchRecord(seed=entry.seed, rules=entry.rules,
                                            names=entry.names,
                                            duplicate=entry.duplicate is not None))
            if len(self.records) > self.keep:
                del self.records[: len(self.records) - self.keep]
        elif isinstance(entry, MatchWon):
            self.records[-1].winners = entry.winners


def replay(record: MatchRecord) -> State:
    """The state the recorded moves lead to; raises MoveError if any was not legal."""
    rng = match_rng(record.seed, duplicate=record.duplicate)
    state, _ = start_match(rules_from_wire(record.rules), len(record.names), rng)
    for wire in record.moves:
        if wire.get("kind") == RESIGN:
            state, _ = resign(state, wire["seat"], rng)
        else:
            state, _ = apply(state, move_from_wire(wire), rng)
    return state
