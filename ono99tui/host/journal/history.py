"""Finished matches read back from tables' journal files: for replays, exports and standings.

A hosted table appends every match it plays to its journal file (`journal_file`, the
format in docs/JOURNAL.md), and finished matches stay there. This module reads those files
for tools — `ono99 replay` and `ono99 stats` — and never writes them: it takes the records
`read_journal` returns, checks that each one has the shape its kind promises, groups them
into matches (`read_matches`), and replays a finished match through the engine, step by
step (`replay_match`), checking that the recorded moves are legal and end where the journal
says the match ended.

Anything that does not hold raises a `JournalError` naming the file and what is wrong
(`JournalInvalid` for whole records that do not describe a match), so that nothing of a
damaged file is read as if it were valid. Needs neither Textual nor a running table.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ono99tui.game import (
    MATCH_OVER,
    Busted,
    Event,
    MoveError,
    Rules,
    State,
    apply,
    resign,
    start_match,
)
from ono99tui.game.codec import event_to_wire, move_from_wire, rules_from_wire
from ono99tui.game.duplicate import match_rng
from ono99tui.game.rules import MAX_PLAYERS, MIN_PLAYERS
from ono99tui.host.journal.file import SUFFIX, JournalError, read_journal
from ono99tui.host.journal.records import RESIGN
from ono99tui.host.journal.resume import ABANDONED, FRESH, MATCH, MOVE, OPTIONS, RESUMED, WON

# How a match in a journal file stands.
FINISHED, IN_PROGRESS, ABANDONED_MATCH = "finished", "in progress", "abandoned"
# The file ends in the middle of a record of this match: the host was killed while writing
# it, or the file was cut short (copied while written, truncated).
CUT_OFF = "cut off"
# Why an abandoned match ended, in words (`RecordedMatch.abandoned_why`), by its record's
# `reason`; a match followed by another with no end between has none.
ABANDONED_WHY = {FRESH: "its host started over with --fresh",
                 "closed": "its host closed the table"}


class JournalInvalid(JournalError):
    """The file's records are whole, but do not describe a match as they should (a record
    of the wrong shape, a move the rules refuse, an end the moves do not lead to)."""


@dataclass(frozen=True)
class RecordedMatch:
    """One match as a journal file holds it.

    `steps` are its move and resignation records, in order (a seat's resumption changes
    nothing in the game and is left out); `winners` is None unless the match finished.
    """

    path: Path
    # Its place among the file's matches, from 1 (what `ono99 replay --match` takes).
    index: int
    # The table's own count of the match (it starts again at 1 when the host does).
    number: int
    seed: int
    rules: Rules
    names: tuple[str, ...]
    # "human" or the bot's kind, per seat.
    kinds: tuple[str, ...]
    steps: tuple[dict[str, Any], ...]
    winners: tuple[int, ...] | None
    status: str
    # An abandoned match's `abandoned` record's reason ("closed", "fresh"), if it has one.
    reason: str | None = None
    # A match of a duplicate set, dealt by `DuplicateRandom` (docs/DUPLICATE.md).
    duplicate: bool = False

    @property
    def finished(self) -> bool:
        """Did the match end with a winner (not cut short, not still being played)?"""
        return self.status == FINISHED

    def describe(self) -> str:
        """"match 3 of Kitchen-….journal" — how messages name it."""
        return f"match {self.index} of {self.path}"

    @property
    def outcome(self) -> str:
        """How the match stands, in words: "abandoned: its host closed the table"."""
        why = ABANDONED_WHY.get(self.reason or "") if self.status == ABANDONED_MATCH else None
        return f"{self.status}: {why}" if why else self.status


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replayed match: the deal (step 0, `seat` and `move` None) or one
    recorded move or resignation, the events it caused and the whole state after it."""

    number: int
    seat: int | None
    # The move's wire map ({"kind": "play", "seat": 0, "card": "7"}, or the resignation's).
    move: dict[str, Any] | None
    events: tuple[Event, ...]
    state: State


def _invalid(path: Path, where: str, problem: str) -> JournalInvalid:
    return JournalInvalid(path, f"{where}: {problem}")


def _seat_tuple(path: Path, where: str, value: Any, seats: int, kind: type) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple) or len(value) != seats:
        raise _invalid(path, where, f"expected {seats} values, one per seat")
    if not all(type(item) is kind for item in value):
        raise _invalid(path, where, f"expected {kind.__name__} values")
    return tuple(value)


def _header(path: Path, where: str, record: dict[str, Any]) -> dict[str, Any]:
    """The match header's fields a tool needs, checked."""
    names = record.get("names")
    if (not isinstance(names, list | tuple)
            or not MIN_PLAYERS <= len(names) <= MAX_PLAYERS):
        raise _invalid(path, where, "the match header has no list of 2 to 8 player names")
    seats = len(names)
    names = _seat_tuple(path, where, names, seats, str)
    kinds = _seat_tuple(path, where, record.get("kinds", ["human"] * seats), seats, str)
    seed, number = record.get("seed"), record.get("number", 0)
    if type(seed) is not int or type(number) is not int:
        raise _invalid(path, where, "the match header's seed or number is not a whole number")
    try:
        rules = rules_from_wire(record.get("rules"))
    except ValueError as error:
        raise _invalid(path, where, f"the match header's rules are not valid ({error})") from None
    return {"seed": seed, "number": number, "rules": rules, "names": names, "kinds": kinds,
            "duplicate": record.get("duplicate") is not None}


def matches_in(path: Path, records: Sequence[dict[str, Any]],
               torn_tail: bool = False) -> list[RecordedMatch]:
    """The matches of a journal file's records (`read_journal(path).records`), oldest
    first; `torn_tail`: the file ends in a cut-off record, which belonged to its last
    match. Raises JournalInvalid for a record that does not fit (named by its place)."""
    matches: list[RecordedMatch] = []
    header: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = []

    def close(status: str, winners: tuple[int, ...] | None, reason: str | None = None) -> None:
        assert header is not None
        matches.append(RecordedMatch(path=path, index=len(matches) + 1, steps=tuple(steps),
                                     winners=winners, status=status, reason=reason, **header))

    for position, record in enumerate(records, 1):
        kind = record["kind"]
        where = f"record {position} ({kind})"
        if kind == MATCH:
            if header is not None:  # a new deal with no end: the match before was dropped
                close(ABANDONED_MATCH, None)
            header, steps = _header(path, where, record), []
            continue
        if kind not in (MOVE, RESIGN, RESUMED, WON, ABANDONED, OPTIONS):
            raise _invalid(path, where, "not a kind of record this version of ono99 knows")
        if header is None:
            raise _invalid(path, where, "it comes before any match header")
        seats = len(header["names"])
        if kind == OPTIONS:  # the table's options changed: nothing in the game
            if not isinstance(record.get("table"), dict):
                raise _invalid(path, where, "the options record holds no map of options")
        elif kind == MOVE:
            if not isinstance(record.get("move"), dict):
                raise _invalid(path, where, "the move record holds no move")
            steps.append(record["move"])
        elif kind == RESIGN:
            seat = record.get("seat")
            if type(seat) is not int or not 0 <= seat < seats:
                raise _invalid(path, where, "the resignation names no seat of the match")
            steps.append({"kind": RESIGN, "seat": seat})
        elif kind == WON:
            winners = record.get("winners")
            if (not isinstance(winners, list | tuple) or not winners
                    or not all(type(seat) is int and 0 <= seat < seats for seat in winners)):
                raise _invalid(path, where, "the winners are not seats of the match")
            close(FINISHED, tuple(winners))
            header = None
        elif kind == ABANDONED:
            reason = record.get("reason")
            close(ABANDONED_MATCH, None, reason if isinstance(reason, str) else None)
            header = None
    if header is not None:
        close(CUT_OFF if torn_tail else IN_PROGRESS, None)
    return matches


def read_matches(path: Path) -> list[RecordedMatch]:
    """Every match in the journal file at `path`, oldest first; raises JournalError (the
    file is not a journal, is too new, damaged or holds records of the wrong shape) or
    OSError. A torn last record (the host was killed writing it, or the file was cut
    short) is left out, as a restarting host leaves it out: the match it belonged to reads
    as `CUT_OFF`, never as finished."""
    contents = read_journal(path)
    return matches_in(path, contents.records, contents.torn_tail)


def _steps(match: RecordedMatch) -> Iterator[ReplayStep]:
    rng = match_rng(match.seed, duplicate=match.duplicate)
    try:
        state, events = start_match(match.rules, len(match.names), rng)
    except ValueError as error:
        raise _invalid(match.path, f"match {match.index}",
                       f"the match cannot be dealt ({error})") from None
    yield ReplayStep(number=0, seat=None, move=None, events=events, state=state)
    for number, wire in enumerate(match.steps, 1):
        try:
            if wire.get("kind") == RESIGN:
                seat = wire["seat"]
                state, events = resign(state, seat, rng)
            else:
                move = move_from_wire(wire)
                seat = move.seat
                state, events = apply(state, move, rng)
        except (MoveError, ValueError, KeyError, TypeError) as error:
            raise _invalid(match.path, f"match {match.index}, move {number}",
                           f"the rules refuse it ({error})") from None
        yield ReplayStep(number=number, seat=seat, move=dict(wire), events=events, state=state)


def replay_match(match: RecordedMatch) -> list[ReplayStep]:
    """Every step of a finished match, from the deal to its last move. Raises
    JournalInvalid when a recorded move is refused by the rules, or when the moves do not
    end the match with the recorded winners (the journal does not tell the match true)."""
    steps = list(_steps(match))
    final = steps[-1].state
    if match.finished and (final.phase != MATCH_OVER or tuple(final.winners) != match.winners):
        raise _invalid(match.path, f"match {match.index}",
                       "its moves do not lead to the winners it records")
    return steps


def busts_per_seat(steps: Sequence[ReplayStep]) -> list[int]:
    """How many times each seat busted in the replayed match (a round busted each)."""
    seats = steps[0].state.seats
    busts = [0] * seats
    for step in steps:
        for event in step.events:
            if type(event) is Busted:
                busts[event.seat] += 1
    return busts


def journal_files(directory: Path) -> list[Path]:
    """Every table's journal file in the data directory `directory`, newest (last
    written) first. Files set aside as damaged (`….journal.damaged-…`) are not among them."""
    tables = directory / "tables"
    try:
        found = [path for path in tables.iterdir()
                 if path.name.endswith(SUFFIX) and path.is_file()]
    except FileNotFoundError:
        return []
    return sorted(found, key=lambda path: (path.stat().st_mtime_ns, path.name), reverse=True)


def step_lines(match: RecordedMatch, steps: Sequence[ReplayStep]) -> Iterator[dict[str, Any]]:
    """The match as one JSON-ready map per line (`ono99 replay --json`; docs/JOURNAL.md,
    "Export"): a "match" line, then for each step a "step" line (the move, the total and
    every hand after it) followed by one line per engine event, then an "end" line."""
    from ono99tui.game.codec import rules_to_wire

    header: dict[str, Any] = {
        "kind": "match", "file": str(match.path), "match": match.index,
        "number": match.number, "seed": match.seed, "preset": match.rules.name,
        "rules": rules_to_wire(match.rules),
        "players": [{"seat": seat, "name": name, "kind": kind} for seat, (name, kind)
                    in enumerate(zip(match.names, match.kinds, strict=True))]}
    if match.duplicate:  # dealt by the set's generator (docs/DUPLICATE.md)
        header["duplicate"] = True
    yield header
    for step in steps:
        state = step.state
        yield {"kind": "step", "step": step.number, "seat": step.seat, "move": step.move,
               "round": state.round_no, "total": state.total,
               "hands": [[card.token for card in hand] for hand in state.hands]}
        for event in step.events:
            yield {"step": step.number, **event_to_wire(event)}
    final = steps[-1].state
    yield {"kind": "end", "winners": list(final.winners),
           "winner_names": [match.names[seat] for seat in final.winners],
           "scores": list(final.scores), "tokens": list(final.tokens),
           "busts": busts_per_seat(steps)}
