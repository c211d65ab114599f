"""A hosted table's journal in its file: written as the table plays, read back at a restart.

`open_table_journal` opens (or creates) the table's journal file and says whether an
unfinished match is there to take up; `FileJournal` is what the table's adapter writes the
core's journal records to: each record is appended to the file (one system call, before the
move's views go out: the adapter carries out outputs in order and the core emits the record
first) and memory keeps only the current match, so a host that runs for days does not grow.
Finished matches stay on disk.

A write that fails (a full disk, a file made read-only) is logged as an error and the table
plays on: stopping a game in progress for a record nobody is waiting on would be worse. The
match being written is then cut out of the file again, so that a restart never takes up a
position older than the one the players saw; writing is tried again at the next deal.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from ono99tui.host.journal import JournalRecord, MatchDealt, MatchRecord, MemoryJournal
from ono99tui.host.journal_file import JournalError, JournalInUse, JournalWriter, read_journal
from ono99tui.host.resume import (
    ABANDONED,
    MATCH,
    ResumeError,
    ResumePoint,
    matches_from_records,
    record_to_map,
    resume_point,
)

log = logging.getLogger(__name__)


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


class FileJournal:
    """The table's journal records appended to a file; memory holds only the current match.

    `writer` None: the file could not be opened; the journal is then kept for the current
    match only, in memory.
    """

    def __init__(self, path: Path, writer: JournalWriter | None) -> None:
        self.path = path
        self._writer = writer
        self._current = MemoryJournal(keep=1)
        # Where the current match's header starts in the file (its records follow).
        self._match_start = writer.end if writer is not None else 0
        # A write failed during this match: nothing more of it is written.
        self._suspended = False

    def keep_current(self, match: MatchRecord) -> None:
        """The match being taken up from the file is the current one."""
        self._current.records[:] = [match]

    def write(self, entry: JournalRecord) -> None:
        """Append one record to the file (and keep it as part of the current match)."""
        self._current.write(entry)
        writer = self._writer
        if writer is None:
            return
        if type(entry) is MatchDealt:
            self._match_start = writer.end
            self._suspended = False
        if self._suspended:
            return
        try:
            writer.append(record_to_map(entry))
        except (OSError, ValueError) as error:
            self._write_failed(writer, error)

    def _write_failed(self, writer: JournalWriter, error: Exception) -> None:
        self._suspended = True
        try:
            writer.truncate(self._match_start)
        except OSError as cut_error:
            log.error("cannot write the table's journal %s (%s) nor cut the unfinished "
                      "match out of it (%s): no more is written to it; a restart may take "
                      "up an older position of this match", self.path, error, cut_error)
            writer.close()
            self._writer = None
            return
        log.error("cannot write the table's journal %s (%s): the table plays on, but this "
                  "match will not survive a restart of the host; the next match is tried "
                  "again", self.path, error)

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
            self._writer.close()
            self._writer = None


def _set_aside(path: Path) -> Path:
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    path.rename(aside)
    return aside


def open_table_journal(choice: JournalChoice) -> tuple[FileJournal, ResumePoint | None]:
    """The table's journal, opened for appending, and the unfinished match it holds, if
    it is to be taken up. Raises JournalUnusable for a damaged file that is to be resumed
    from, or a named file that cannot be read; a file that cannot be opened otherwise
    (permissions) is logged and the table plays without one."""
    path = choice.path
    if choice.named and not path.is_file():
        raise JournalUnusable(f"no journal file at {path}")
    try:
        writer, contents = JournalWriter.open(path, since_kind=MATCH)
    except JournalError as error:
        if choice.resume:
            raise JournalUnusable(
                f"the table's journal is damaged: {error}. Start over with --fresh (the "
                f"damaged file is then kept beside it, renamed)") from None
        try:
            aside = _set_aside(path)
            writer, contents = JournalWriter.open(path, since_kind=MATCH)
        except (OSError, JournalError) as second:
            raise JournalUnusable(f"the table's journal is damaged: {error}, and a new one "
                                  f"cannot be started beside it: {second}") from None
        log.warning("the table's journal %s was damaged (%s); kept as %s, starting a new "
                    "one", path, error.problem, aside)
    except JournalInUse as error:
        if choice.named:
            raise JournalUnusable(str(error)) from None
        log.warning("%s: this table plays without a journal (its matches will not survive "
                    "a restart); give it its own --name to have one", error)
        return FileJournal(path, None), None
    except OSError as error:
        if choice.named:
            raise JournalUnusable(f"cannot open the journal {path}: "
                                  f"{error.strerror or error}") from None
        log.error("cannot open the table's journal %s (%s): the table plays on, but its "
                  "matches will not survive a restart of the host", path,
                  error.strerror or error)
        return FileJournal(path, None), None
    if contents.torn_tail:
        log.warning("the table's journal %s ended in a torn record (the host was killed "
                    "while writing it): dropped", path)
    journal = FileJournal(path, writer)
    try:
        point = resume_point(contents.records)
    except ResumeError as error:
        if choice.resume:
            journal.close()
            raise JournalUnusable(f"{path}: the unfinished match cannot be taken up: {error}. "
                                  f"Start over with --fresh") from None
        point = None
    if point is not None and not choice.resume:
        # Starting over: mark the unfinished match so that a later restart does not take
        # it up either.
        try:
            writer.append({"kind": ABANDONED})
        except OSError as error:
            log.error("cannot write the table's journal %s: %s", path, error)
        point = None
    if point is not None:
        journal.keep_current(matches_from_records(contents.records)[-1])
    return journal, point
