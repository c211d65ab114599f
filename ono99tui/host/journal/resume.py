"""Where an unfinished match stood, read back from a table's journal records.

A restarted host (`ono99tui.host.journal.table`) reads its journal file's records (plain
maps, `record_to_map` below is how the journal's NamedTuples become them), finds the last
match header with no end after it (`resume_point`) and hands the `ResumePoint` to the core
(`TableCore.restore`), which replays the recorded moves through the engine
(`replay_point`): the same seed and the same moves give the same state, and the deck's
random generator ends where the killed host's was, so no move is lost or applied twice.
A match whose moves all made it to the file but whose `won` did not (a power cut) is taken
up the same way, and the core ends it at once.

When the last match is over (won or abandoned), nothing is taken up, but the table goes on
counting from it: `standing_after` gives its number and the standings after it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from netproto.wire.messages import MAX_EVENTS
from ono99tui.game import MoveError, Rules, State, apply, resign, start_match
from ono99tui.game.codec import event_to_wire, move_from_wire, rules_from_wire
from ono99tui.game.duplicate import PlaceTracker, match_rng
from ono99tui.host.journal.records import (
    RESIGN,
    JournalRecord,
    MatchAbandoned,
    MatchDealt,
    MatchRecord,
    MatchWon,
    MovePlayed,
    OptionsChanged,
    SeatResigned,
    SeatResumed,
)

# The "kind" of each record in the journal file.
MATCH, MOVE, RESUMED, WON = "match", "move", "resumed", "won"
# The table's options changed mid-match (format version 2).
OPTIONS = "options"
# The match ended unfinished for good: the operator started over (`--fresh`) or closed the
# table on purpose (its `reason`, absent in older files: `FRESH`).
ABANDONED = "abandoned"
FRESH = "fresh"
HUMAN = "human"
# The format version each kind needs (the others: 1).
RECORD_VERSIONS = {OPTIONS: 2}
# A `match` or `won` record of a duplicate set's match (its `duplicate` field).
DUPLICATE_VERSION = 3

log = logging.getLogger(__name__)


def record_version(record: dict[str, Any]) -> int:
    """The journal format version a record (in the file's form) needs."""
    if "duplicate" in record:
        return DUPLICATE_VERSION
    return RECORD_VERSIONS.get(record["kind"], 1)


class ResumeError(ValueError):
    """The journal's unfinished match cannot be taken up; the message says why."""


def record_to_map(record: JournalRecord) -> dict[str, Any]:
    """The journal file's form of one of the core's journal records."""
    if type(record) is MovePlayed:
        return {"kind": MOVE, "move": record.move, "seqs": record.seqs}
    if isinstance(record, MatchDealt):
        header = {"kind": MATCH, "seed": record.seed, "rules": record.rules,
                  "names": record.names, "kinds": record.kinds,
                  "token_hashes": record.token_hashes, "host_seat": record.host_seat,
                  "number": record.number, "seqs": record.seqs,
                  "won": dict(record.won), "played": dict(record.played),
                  "table": dict(record.table),
                  # Only when someone asked: a journal nobody asked in reads as before.
                  **({"unrated": list(record.unrated)} if record.unrated else {})}
        if record.duplicate is not None:  # only then: other matches' headers are as before
            header["duplicate"] = record.duplicate
        return header
    if isinstance(record, SeatResigned):
        return {"kind": RESIGN, "seat": record.seat, "seqs": record.seqs}
    if isinstance(record, SeatResumed):
        return {"kind": RESUMED, "seat": record.seat, "seq": record.seq}
    if isinstance(record, OptionsChanged):
        return {"kind": OPTIONS, "table": dict(record.table)}
    if isinstance(record, MatchAbandoned):
        return {"kind": ABANDONED, "reason": record.reason}
    assert isinstance(record, MatchWon)
    if record.duplicate is not None:
        return {"kind": WON, "winners": record.winners, "duplicate": record.duplicate}
    return {"kind": WON, "winners": record.winners}


@dataclass(frozen=True)
class ResumePoint:
    """An unfinished match as the journal has it: its header and what followed it."""

    number: int
    seed: int
    rules: Rules
    names: tuple[str, ...]
    # "human" or a bot's kind, per seat.
    kinds: tuple[str, ...]
    token_hashes: tuple[str | None, ...]
    host_seat: int | None
    # The seats' view seqs after the deal, then every record after the header, in order.
    deal_seqs: tuple[int, ...]
    steps: tuple[dict[str, Any], ...]
    # The table's standings before the match (name → matches won / played); empty in a
    # journal written before they were recorded.
    won: dict[str, int] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    # The table's options the match is played with, as it stands at the last record (its
    # header's, then each `options` record's): `lobby.options` names; empty in a journal
    # written before they were recorded.
    table: dict[str, Any] = field(default_factory=dict)
    # A match of a duplicate set: the set before its deal (`MatchDealt.duplicate`).
    duplicate: dict[str, Any] | None = None
    # The seats whose players asked not to be rated (empty in older journals).
    unrated: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    """Where a table whose last match is over (won, or abandoned) goes on from: that match's
    number and the standings after it (a finished match counted in them)."""

    number: int
    won: dict[str, int]
    played: dict[str, int]
    # The duplicate set after that match, if it was one of a set (`MatchWon.duplicate`).
    duplicate: dict[str, Any] | None = None
    # The rules and the table options that match was played with (its header's, and any
    # changed during it): the next deal has them, as it would have without the restart.
    # None / empty: not in the journal (the host's own then), or not readable (said).
    rules: Rules | None = None
    table: dict[str, Any] = field(default_factory=dict)


@dataclass
class Replayed:
    """The match after its recorded moves: the state, the deck's generator as it stands,
    each seat's latest view seq, the events each seat has not been sent, the seats that
    resigned, and every public event of the match, oldest first (the deal's too: what a
    (re)joined view tells as its history). The table's own `timed_out` events are not
    among them: the journal does not record them."""

    state: State
    rng: random.Random
    seqs: list[int]
    pending: list[list[dict[str, Any]]]
    resigned: set[int]
    events: list[dict[str, Any]] = field(default_factory=list)
    # The seats' finishing places as the match has gone so far (a duplicate set's).
    places: PlaceTracker = field(default_factory=PlaceTracker)


def _seqs(value: Any, seats: int) -> tuple[int, ...]:
    if (not isinstance(value, list | tuple) or len(value) != seats
            or not all(type(seq) is int and seq >= 0 for seq in value)):
        raise ResumeError("a record's view numbers do not fit the match's seats")
    return tuple(value)


def _standings(value: Any) -> dict[str, int]:
    """A header's standings map (absent in older journals: none)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(
            isinstance(name, str) and type(count) is int and count >= 0
            for name, count in value.items()):
        raise ResumeError("the match header's standings are not a map of names to counts")
    return dict(value)


def _table_options(value: Any) -> dict[str, Any]:
    """A header's or `options` record's table options (absent in older journals: none).
    Each value is checked by the table that restores it (`TableConfig`)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(name, str) for name in value):
        raise ResumeError("the table's options are not a map of option names")
    return dict(value)


def _match_table_options(records: Sequence[dict[str, Any]], start: int) -> dict[str, Any]:
    """The table options the match whose header is `records[start]` was played with: the
    header's, then each `options` record's after it (a later match's header is not read:
    the caller's match is the journal's last)."""
    table = _table_options(records[start].get("table"))
    for step in records[start + 1:]:
        if step.get("kind") == OPTIONS:
            table |= _table_options(step.get("table"))
    return table


def _duplicate(value: Any) -> dict[str, Any] | None:
    """A header's or end's duplicate set (absent: the match was no set's). Checked by the
    table that takes it up (`DuplicateSet.from_wire`)."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ResumeError("the match's duplicate set is not a map")
    return dict(value)


def _last_header(records: Sequence[dict[str, Any]]) -> int | None:
    for index in range(len(records) - 1, -1, -1):
        if records[index].get("kind") == MATCH:
            return index
    return None


def _ended(records: Sequence[dict[str, Any]], start: int) -> dict[str, Any] | None:
    """The record that ended the match whose header is `records[start]`, if one did."""
    return next((record for record in records[start + 1:]
                 if record.get("kind") in (WON, ABANDONED)), None)


def resume_point(records: Sequence[dict[str, Any]]) -> ResumePoint | None:
    """The last match of `records` if it is unfinished (None: nothing to resume).
    Raises ResumeError for a header that does not describe a match."""
    start = _last_header(records)
    if start is None or _ended(records, start) is not None:
        return None
    header = records[start]
    try:
        names = tuple(str(name) for name in header["names"])
        kinds = tuple(str(kind) for kind in header["kinds"])
        hashes = tuple(header["token_hashes"])
        seats = len(names)
        if len(kinds) != seats or len(hashes) != seats:
            raise ResumeError("the match header's seats do not agree")
        if not all(digest is None or isinstance(digest, str) for digest in hashes):
            raise ResumeError("the match header's token hashes are not text")
        host_seat = header.get("host_seat")
        if host_seat is not None and not (type(host_seat) is int and 0 <= host_seat < seats):
            raise ResumeError("the match header's host seat is not one of its seats")
        unrated = header.get("unrated", [])
        if not isinstance(unrated, list) or not all(
                type(seat) is int and 0 <= seat < seats for seat in unrated):
            raise ResumeError("the match header's unrated seats are not its seats")
        table = _match_table_options(records, start)
        return ResumePoint(
            number=int(header["number"]), seed=int(header["seed"]),
            rules=rules_from_wire(header["rules"]), names=names, kinds=kinds,
            token_hashes=hashes, host_seat=host_seat,
            deal_seqs=_seqs(header["seqs"], seats), steps=tuple(records[start + 1:]),
            won=_standings(header.get("won")), played=_standings(header.get("played")),
            table=table, unrated=tuple(unrated),
            duplicate=_duplicate(header.get("duplicate")))
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, ResumeError):
            raise
        raise ResumeError(f"the match header is not usable ({error!r})") from None


def replay_point(point: ResumePoint) -> Replayed:
    """Replay the point's moves through the engine; raises ResumeError if one is refused."""
    seats = len(point.names)
    rng = match_rng(point.seed, duplicate=point.duplicate is not None)
    state, dealt = start_match(point.rules, seats, rng)
    places = PlaceTracker()
    places.observe(dealt)
    history = [event_to_wire(event) for event in dealt]
    seqs = list(point.deal_seqs)
    pending: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    resigned: set[int] = set()
    try:
        for number, step in enumerate(point.steps, 1):
            kind = step.get("kind")
            if kind == RESUMED:
                seat, seq = step["seat"], step["seq"]
                if type(seat) is not int or not 0 <= seat < seats or type(seq) is not int:
                    raise ResumeError(f"record {number} after the header names no seat")
                seqs[seat] = seq
                pending[seat].clear()  # the resumed view carried them
                continue
            if kind == OPTIONS:  # the table's, not the game's: nothing to replay
                continue
            if kind == MOVE:
                state, events = apply(state, move_from_wire(step["move"]), rng)
            elif kind == RESIGN:
                seat = step["seat"]
                state, events = resign(state, seat, rng)
                resigned.add(seat)
            else:
                raise ResumeError(f"record {number} after the header is a {kind!r}")
            places.observe(events)
            after = _seqs(step["seqs"], seats)
            wire = [event_to_wire(event) for event in events]
            history.extend(wire)
            for seat in range(seats):
                if after[seat] == seqs[seat]:  # away: the events wait for its next view
                    pending[seat].extend(wire)
                    del pending[seat][:-MAX_EVENTS]
            seqs = list(after)
    except MoveError as error:
        raise ResumeError(f"a recorded move is refused by the rules ({error})") from None
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, ResumeError):
            raise
        raise ResumeError(f"a record after the header is not usable ({error!r})") from None
    return Replayed(state=state, rng=rng, seqs=seqs, pending=pending, resigned=resigned,
                    events=history, places=places)


def standing_after(records: Sequence[dict[str, Any]]) -> Standing | None:
    """Where the table goes on from when the last match of `records` is over: its number
    and the standings after it (None: no match, or the last one is unfinished). Raises
    ResumeError for a header or an end that does not describe a match."""
    start = _last_header(records)
    if start is None:
        return None
    end = _ended(records, start)
    if end is None:
        return None
    header = records[start]
    try:
        number, names = header["number"], header["names"]
        if type(number) is not int or number < 0 or not isinstance(names, list | tuple):
            raise ResumeError("the match header's number or names are not usable")
        won, played = _standings(header.get("won")), _standings(header.get("played"))
        if end.get("kind") == WON:  # counted as the table counted it (`_finish_match`)
            winners = end.get("winners")
            if not isinstance(winners, list | tuple) or not all(
                    type(seat) is int and 0 <= seat < len(names) for seat in winners):
                raise ResumeError("the match's winners are not seats of it")
            for seat in winners:
                won[str(names[seat])] = won.get(str(names[seat]), 0) + 1
            for name in names:
                played[str(name)] = played.get(str(name), 0) + 1
        duplicate = _duplicate(end.get("duplicate")) if end.get("kind") == WON else None
    except (KeyError, TypeError) as error:
        raise ResumeError(f"the match header is not usable ({error!r})") from None
    # The match is over: a header whose rules or options this version cannot read costs
    # only them (the host's own are dealt next), not the evening's standings.
    try:
        rules: Rules | None = rules_from_wire(header["rules"])
    except (KeyError, TypeError, ValueError) as error:
        log.warning("the journal's last match's rules are not usable (%s): the next match "
                    "is dealt with the host's own", error)
        rules = None
    try:
        table = _match_table_options(records, start)
    except ResumeError as error:
        log.warning("the journal's last match's table options are not usable (%s): the "
                    "next match is dealt with the host's own", error)
        table = {}
    return Standing(number=number, won=won, played=played, duplicate=duplicate,
                    rules=rules, table=table)


def matches_from_records(records: Sequence[dict[str, Any]]) -> list[MatchRecord]:
    """Every match in a journal file's records, as `MatchRecord`s (replayable with
    `ono99tui.host.journal.records.replay`)."""
    matches: list[MatchRecord] = []
    for record in records:
        kind = record.get("kind")
        if kind == MATCH:
            matches.append(MatchRecord(seed=record["seed"], rules=record["rules"],
                                       names=tuple(record["names"]),
                                       duplicate=record.get("duplicate") is not None))
        elif not matches:
            continue
        elif kind == MOVE:
            matches[-1].moves.append(record["move"])
        elif kind == RESIGN:
            matches[-1].moves.append({"kind": RESIGN, "seat": record["seat"]})
        elif kind == WON:
            matches[-1].winners = tuple(record["winners"])
    return matches
