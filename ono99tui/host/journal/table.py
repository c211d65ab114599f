"""A hosted table's journal in its file: written as the table plays, read back at a restart.

`open_table_journal` opens (or creates) the table's journal file and says whether an
unfinished match is there to take up (and, when the last match is over, where the table
counts on from); `FileJournal` is what the table's adapter writes the core's journal records
to: each record is appended to the file (one system call, before the move's views go out:
the adapter carries out outputs in order and the core emits the record first) and memory
keeps only the current match, so a host that runs for days does not grow. Finished matches
stay on disk.

What a restart must never do is take up an older position than the one the players saw, or
start afresh without a word. So:

- A write that fails (a full disk, a file-size limit) is logged as an error, told to the
  host's app, and the table plays on: stopping a game in progress for a record nobody is
  waiting on would be worse. The match being written (a match taken up after a restart
  too) is cut out of the file back to its header, and the end mark says so; it is written
  again, whole, as soon as a write succeeds. A restart finds it cut out, says so, and takes
  nothing up; had it not been cut out, the end mark makes the restart refuse.
- A journal deleted or moved away while the table plays is noticed at the next record,
  started again at its path with the match being played, and the host is told.
- At a restart, damage (a record that fails its checksum, a damaged length), a file that
  cannot be read, or one shorter than its end mark says its host left it (records lost from
  its end) refuse, naming the file and the way out (`--fresh`, `--resume FILE`); only a torn
  last record, what a killed write leaves, is dropped silently.
"""

from __future__ import annotations

import errno
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ono99tui.host.journal.file import (
    JournalContents,
    JournalError,
    JournalInUse,
    JournalMoved,
    JournalWriter,
    end_mark_path,
    frame,
    read_journal,
    remove_end_mark,
)
from ono99tui.host.journal.records import JournalRecord, MatchDealt, MatchRecord, MemoryJournal
from ono99tui.host.journal.resume import (
    ABANDONED,
    FRESH,
    MATCH,
    WON,
    ResumeError,
    ResumePoint,
    Standing,
    matches_from_records,
    record_to_map,
    record_version,
    replay_point,
    resume_point,
    standing_after,
)

log = logging.getLogger(__name__)

_HEADER_END = 9  # MAGIC and the version byte: where a journal's first record starts


class JournalUnusable(Exception):
    """The journal cannot be used as asked; the message names the file and says what to do."""


@dataclass(frozen=True, slots=True)
class JournalChoice:
    """Which journal file a hosted table keeps, and whether it takes up a match from it."""

    path: Path
    # Take up the unfinished match the file holds (False: `--fresh`, start over).
    resume: bool = True
    # The operator named this file (`--resume FILE`): it must exist.
    named: bool = False


def _version_for(records: Sequence[dict[str, Any]]) -> int:
    return max((record_version(record) for record in records), default=1)


class FileJournal:
    """The table's journal records appended to a file; memory holds only the current match.

    `writer` None: the file could not be opened; the journal is then kept for the current
    match only, in memory. `records` and `match_start`: the file's records from the last
    match header on and where that header is (a match taken up, or the last one played).
    """

    def __init__(self, path: Path, writer: JournalWriter | None, *,
                 records: Sequence[dict[str, Any]] = (), match_start: int | None = None,
                 match_number: int = 0) -> None:
        self.path = path
        self._writer = writer
        self._current = MemoryJournal(keep=1)
        # The current match's records in the file's form, from its header: what is written
        # again if the file loses them (a failed write, the file deleted).
        self._records: list[dict[str, Any]] = list(records)
        # Where the current match's header starts in the file (its records follow).
        self._match_start = (match_start if match_start is not None
                             else writer.end if writer is not None else 0)
        self._match_number = match_number
        # A write failed during this match: it is cut out of the file until it can be
        # written whole again; `_cut_pending`: the cut itself failed and is tried again.
        self._unwritten = False
        self._cut_pending = False
        # Told a sentence for the host each time the journal gets into trouble or out of it
        # (the host's app shows it); the log has it too.
        self.on_trouble: Callable[[str], None] | None = None
        # What the host must be told once the table is open (logged and shown then).
        self.notices: list[str] = []
        # When the journal's last match is over: where the table counts on from.
        self.standing: Standing | None = None

    def keep_current(self, match: MatchRecord) -> None:
        """The match being taken up from the file is the current one."""
        self._current.records[:] = [match]

    def write(self, entry: JournalRecord) -> None:
        """Append one record to the file (and keep it as part of the current match)."""
        self._current.write(entry)
        record = record_to_map(entry)
        writer = self._writer
        if type(entry) is MatchDealt:
            self._records = [record]
            self._match_number = entry.number
            if writer is not None:
                if self._cut_pending:  # the last match's partial records: try once more
                    self._cut(writer)
                self._match_start = writer.end
            self._unwritten = False
        else:
            self._records.append(record)
        if writer is None:
            return
        try:
            writer.check_path()
            if self._unwritten:
                self._write_again(writer)
            else:
                writer.append(record, version=record_version(record))
                if type(entry) is MatchDealt and writer.lost_at:
                    writer.set_lost(0, 0)  # an older match's loss no longer matters
        except JournalMoved as moved:
            self._moved(writer, moved)
        except (OSError, ValueError) as error:
            self._write_failed(writer, error)

    def _cut(self, writer: JournalWriter) -> bool:
        try:
            writer.truncate(self._match_start)
        except OSError:
            self._cut_pending = True
            return False
        self._cut_pending = False
        return True

    def _write_again(self, writer: JournalWriter) -> None:
        """The match was cut out after a failed write: write it whole again (raises
        OSError while the file still cannot be written)."""
        if self._cut_pending and not self._cut(writer):
            raise OSError(f"{self.path}: the unfinished match still cannot be cut out")
        writer.append_all(self._records, version=_version_for(self._records))
        self._unwritten = False
        writer.set_lost(0, 0)
        self._say(logging.WARNING,
                  f"The table's journal {self.path} can be written again: match "
                  f"{self._match_number} is back in it, whole.")

    def _write_failed(self, writer: JournalWriter, error: Exception) -> None:
        if self._unwritten:  # already cut out and said: it is tried again at each record
            return
        self._unwritten = True
        cut = self._cut(writer)
        marked = writer.set_lost(self._match_start, self._match_number)
        reason = getattr(error, "strerror", None) or error
        if cut:
            outcome = (f"match {self._match_number} is cut out of it, so that a restart of "
                       "the host cannot take up an older position of it, and is written "
                       "again as soon as the file can be written")
        elif marked:
            outcome = (f"match {self._match_number} cannot be cut out of it either; its "
                       f"end mark {end_mark_path(self.path)} says so, and a restart of the "
                       "host refuses to take up the older position")
        else:
            outcome = (f"match {self._match_number} can be neither cut out of it nor marked "
                       f"({writer.mark_problem}): a restart of the host may take up an "
                       "older position of it; start it with --fresh")
        self._say(logging.ERROR, f"Cannot write the table's journal {self.path} ({reason}). "
                                 f"The table plays on, but {outcome}.")

    def _moved(self, writer: JournalWriter, moved: JournalMoved) -> None:
        """The file was deleted, moved away or replaced under the table."""
        writer.close()
        self._writer = None
        if not moved.gone:
            self._say(logging.ERROR,
                      f"The table's journal {self.path} was replaced by another file while "
                      "the table played: this table no longer writes to it, so its matches "
                      "will not survive a restart of the host.")
            return
        try:
            fresh = JournalWriter.create(self.path)
        except (OSError, JournalInUse) as error:
            reason = getattr(error, "strerror", None) or error
            self._say(logging.ERROR,
                      f"The table's journal {self.path} was deleted or moved away while the "
                      f"table played, and cannot be started again ({reason}): this table's "
                      "matches will not survive a restart of the host.")
            return
        self._writer = fresh
        self._match_start = fresh.end
        self._cut_pending = False
        try:
            fresh.append_all(self._records, version=_version_for(self._records))
            self._unwritten = False
        except (OSError, ValueError) as error:
            self._unwritten = False
            self._write_failed(fresh, error)
            return
        self._say(logging.WARNING,
                  f"The table's journal {self.path} was deleted or moved away while the table "
                  f"played: it is started again with match {self._match_number} (the matches "
                  "before it are no longer in it).")

    def _say(self, level: int, text: str) -> None:
        log.log(level, "%s", text)
        if self.on_trouble is not None:
            try:
                self.on_trouble(text)
            except Exception:
                log.exception("telling the host about the journal failed")

    @property
    def records(self) -> list[MatchRecord]:
        """Every match in the file, oldest first (read from disk: for tools and tests)."""
        if self._writer is not None:
            try:
                return matches_from_records(read_journal(self.path).records)
            except (OSError, JournalError) as error:
                log.error("cannot read the table's journal %s: %s", self.path, error)
        return list(self._current.records)

    def close(self) -> None:
        """Close the file (every record is already written)."""
        if self._writer is not None:
            if self._cut_pending:
                self._cut(self._writer)
            self._writer.close()
            self._writer = None


def _set_aside(path: Path) -> Path:
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    path.rename(aside)
    remove_end_mark(path)  # it described the file set aside
    return aside


def _exists(path: Path) -> bool:
    """Whether something is at `path` (True also when it cannot even be looked at)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


def _only_its_end_lost(contents: JournalContents, missing: int) -> bool:
    """Whether the `missing` bytes at the file's end can be just the `won` record of its
    last match, whose moves all made it to the file and end it (a power cut took the
    record): the core then derives that end again, and nothing of the match is lost."""
    try:
        point = resume_point(contents.records)
        if point is None:
            return False
        state = replay_point(point).state
    except ResumeError:
        return False
    if not state.winners:
        return False
    return missing == len(frame({"kind": WON, "winners": tuple(state.winners)}))


def _loss(contents: JournalContents, path: Path, existed: bool) -> str | None:
    """What the end mark says was lost from the file at `path`, if anything."""
    mark = contents.end_mark
    if mark is None:
        return None
    end = contents.end_offset
    if mark.size > end:
        if not existed:
            return (f"it is gone, but its end mark {end_mark_path(path)} "
                    f"says its host wrote {mark.size} bytes to it: it was deleted or moved "
                    "away")
        if _only_its_end_lost(contents, mark.size - end):
            return None
        return (f"it ends at byte {end}, but its host left it {mark.size} bytes long: whole "
                "records are missing from its end (it was cut short, or replaced by an "
                "older copy), so taking up what is left would go back in the game")
    if mark.lost_at and mark.lost_at < end and contents.since_offset == mark.lost_at:
        return (f"match {mark.lost_match} could not be written to it in full and could not "
                "be cut out of it either (a write failed): its last moves are missing, so "
                "taking it up would go back in the game")
    return None


def open_table_journal(choice: JournalChoice) -> tuple[FileJournal, ResumePoint | None]:
    """The table's journal, opened for appending, and the unfinished match it holds, if
    it is to be taken up (`FileJournal.standing`: where the table counts on from when its
    last match is over; `FileJournal.notices`: what the host must be told).

    Raises JournalUnusable — the message names the file and the way out — for a journal
    that is damaged, cannot be read, or has lost records from its end, when it is to be
    resumed from; a named file (`--resume FILE`) that is not there or is damaged; or one
    that cannot be set aside when starting over. A journal that cannot be created at all
    (no file there yet; the data dir cannot be written) is logged and the table plays
    without one.
    """
    path = choice.path
    if choice.named and not _exists(path):
        raise JournalUnusable(f"no journal file at {path}")
    existed = _exists(path)
    try:
        writer, contents = JournalWriter.open(path, since_kind=MATCH)
    except JournalInUse as error:
        if choice.named:
            raise JournalUnusable(str(error)) from None
        journal = FileJournal(path, None)
        journal.notices.append(f"{error}: this table plays without a journal (its matches "
                               "will not survive a restart); give it its own --name to have "
                               "one.")
        return journal, None
    except JournalError as error:
        return _unusable(choice, f"the table's journal is damaged: {error}", existed)
    except OSError as error:
        reason = error.strerror or str(error)
        if not existed:  # nothing there to lose: the table plays without one
            if choice.named:
                raise JournalUnusable(f"cannot open the journal {path}: {reason}") from None
            text = (f"Cannot create the table's journal {path} ({reason}): the table plays "
                    "on, but its matches will not survive a restart of the host, nor be "
                    "there for ono99 replay and ono99 stats.")
            log.error("%s", text)
            journal = FileJournal(path, None)
            journal.notices.append(text)  # the host sees it, not only the log
            return journal, None
        return _unusable(choice, f"cannot open the table's journal {path} to read and write "
                                 f"it: {reason}", existed, unreadable=True,
                         permissions=error.errno == errno.EACCES)
    problem = _loss(contents, path, existed)
    notices: list[str] = []
    if problem is not None:
        if choice.named:
            notices.append(f"{path}: {problem}; it is taken up as it is, as asked "
                           "(--resume).")
        else:
            writer.close()
            if not existed:
                path.unlink(missing_ok=True)  # as it was: nothing there
            return _unusable(choice, f"{path}: {problem}", existed, records_lost=existed)
    if contents.end_mark_problem is not None:
        log.warning("the table's journal's end mark: %s", contents.end_mark_problem)
    if contents.torn_tail:
        log.warning("the table's journal %s ended in a torn record (the host was killed "
                    "while writing it): dropped", path)
    mark = contents.end_mark
    if (mark is not None and mark.lost_at and mark.lost_at >= contents.end_offset
            and choice.resume):
        notices.append(f"Match {mark.lost_match} at this table could not be written to its "
                       f"journal {path} (a write failed) and was cut out of it, so it was not "
                       "taken up: the table starts without it.")
    journal = FileJournal(path, writer, records=contents.records,
                          match_start=contents.since_offset)
    journal.notices.extend(notices)
    try:
        point = resume_point(contents.records)
        standing = standing_after(contents.records) if choice.resume else None
    except ResumeError as error:
        if choice.resume:
            journal.close()
            raise JournalUnusable(f"{path}: its last match cannot be taken up: {error}. "
                                  "Start over with --fresh") from None
        point, standing = None, None
    writer.set_lost(0, 0)
    writer.commit()
    if point is not None and not choice.resume:
        # Starting over: mark the unfinished match so that a later restart does not take
        # it up either.
        try:
            writer.append({"kind": ABANDONED, "reason": FRESH})
        except OSError as error:
            log.error("cannot write the table's journal %s: %s", path, error)
        point = None
    if point is not None:
        journal.keep_current(matches_from_records(contents.records)[-1])
        journal._match_number = point.number
    journal.standing = standing
    return journal, point


def _unusable(choice: JournalChoice, problem: str, existed: bool, *,
              unreadable: bool = False, permissions: bool = False,
              records_lost: bool = False) -> tuple[FileJournal, ResumePoint | None]:
    """A journal that cannot be taken up: refuse, or (starting over) set it aside."""
    path = choice.path
    if choice.named:
        raise JournalUnusable(f"{problem}. Name a journal that can be read, or start "
                              "over without --resume") from None
    if choice.resume:
        ways = ["start over with ono99 host --fresh (the file is then kept beside it, as "
                f"{path.name}.damaged-<time>)" if existed
                else "start over with ono99 host --fresh"]
        if permissions:
            ways.insert(0, f"let your user read and write it again (chmod 600 {path})")
        elif unreadable:
            ways.insert(0, "make it a file this user can read and write again")
        if records_lost:
            ways.append(f"take up what is left as it is with ono99 host --resume {path}")
        raise JournalUnusable(f"{problem}. To go on: {'; or '.join(ways)}") from None
    try:
        aside = _set_aside(path) if existed else None
        if not existed:
            remove_end_mark(path)
        writer, contents = JournalWriter.open(path, since_kind=MATCH)
    except (OSError, JournalError, JournalInUse) as second:
        reason = getattr(second, "strerror", None) or second
        raise JournalUnusable(f"{problem}, and a new one cannot be started beside it: "
                              f"{reason}") from None
    writer.commit()
    log.warning("%s; kept as %s, starting a new one", problem, aside)
    return FileJournal(path, writer, records=contents.records,
                       match_start=contents.since_offset), None
