"""A hosted table's journal file: what is kept in memory, a failing disk, a torn tail and a
damaged file at restart (`ono99tui.host.journal.table`), the core run on a fake clock."""

from __future__ import annotations

import errno
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal import file as journal_file
from ono99tui.host.journal.file import read_journal
from ono99tui.host.journal.resume import resume_point
from ono99tui.host.journal.table import (
    FileJournal,
    JournalChoice,
    JournalUnusable,
    open_table_journal,
)
from ono99tui.host.table_config import TableConfig

sys.path.insert(0, str(Path(__file__).parent.parent / "host"))
from core_clock_helpers import ClockedTable


def bots_table(journal: FileJournal) -> ClockedTable:
    """Three bots at a table that writes `journal`; a match is dealt at once."""
    table = ClockedTable(TableConfig(capacity=3, start_when=3, bot_delay=0.5, seed=3))
    table._journal = journal  # type: ignore[assignment]
    for _ in range(3):
        table.run(table.core.add_bot("greedy", table.now))
    return table


def play_matches(table: ClockedTable, count: int) -> None:
    for number in range(count):
        if number:
            table.run(table.core.start(table.now))
        table.play_until(lambda: table.core.phase == FINISHED)


def test_memory_keeps_only_the_current_match_and_the_file_keeps_them_all(
    tmp_path: Path,
) -> None:
    journal, point = open_table_journal(JournalChoice(tmp_path / "t.journal"))
    assert point is None
    table = bots_table(journal)
    play_matches(table, 3)
    assert len(journal._current.records) == 1
    on_disk = journal.records
    assert len(on_disk) == 3 and all(match.winners for match in on_disk)
    assert on_disk[-1] == journal._current.records[0]
    journal.close()


def test_a_failing_disk_is_logged_the_table_plays_on_and_the_match_is_cut_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    play_matches(table, 1)
    table.run(table.core.start(table.now))
    table.play_until(lambda: table.moves_played() >= 5)

    real_write = os.write

    def disk_full(descriptor: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(journal_file.os, "write", disk_full)
    with caplog.at_level(logging.ERROR):
        table.play_until(lambda: table.core.phase == FINISHED)  # plays on
    assert any(str(path) in record.getMessage() and "No space left" in record.getMessage()
               for record in caplog.records)
    # The unfinished match is gone from the file: a restart cannot take up an old position.
    assert [match.winners != () for match in journal.records] == [True]
    monkeypatch.setattr(journal_file.os, "write", real_write)
    table.run(table.core.start(table.now))  # the next match is written again
    table.play_until(lambda: table.core.phase == FINISHED)
    assert len(journal.records) == 2
    journal.close()


def test_a_torn_last_record_is_dropped_at_restart_and_the_match_taken_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 6)
    journal.close()
    whole = path.stat().st_size
    with path.open("ab") as stream:  # the host killed halfway through a record
        stream.write(b"\x00\x00\x00\x40\x12\x34")
    with caplog.at_level(logging.WARNING):
        again, point = open_table_journal(JournalChoice(path))
    assert point is not None and len(point.steps) == 6
    assert path.stat().st_size == whole
    assert any("torn" in record.getMessage() for record in caplog.records)
    restarted = ClockedTable(TableConfig(capacity=3, seed=3, bot_delay=0.5))
    restarted.run(restarted.core.restore(point, 0.0))
    assert restarted.core.phase == PLAYING and restarted.core.state == table.core.state
    again.close()


def damaged(path: Path) -> None:
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 4)
    journal.close()
    data = bytearray(path.read_bytes())
    data[20] ^= 0xFF  # inside the first record: its checksum fails
    path.write_bytes(bytes(data))


def test_a_damaged_journal_is_refused_by_name_unless_starting_over(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    damaged(path)
    with pytest.raises(JournalUnusable, match=str(path)) as refused:
        open_table_journal(JournalChoice(path))
    assert "--fresh" in str(refused.value)
    journal, point = open_table_journal(JournalChoice(path, resume=False))
    assert point is None and read_journal(path).records == ()
    assert len(list(tmp_path.glob("t.journal.damaged-*"))) == 1
    journal.close()


def test_starting_over_marks_the_unfinished_match_so_no_later_restart_takes_it_up(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 4)
    journal.close()
    fresh, point = open_table_journal(JournalChoice(path, resume=False))
    assert point is None
    fresh.close()
    later, point = open_table_journal(JournalChoice(path))
    assert point is None
    later.close()


def test_a_named_journal_that_is_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalUnusable, match="no journal file"):
        open_table_journal(JournalChoice(tmp_path / "nope.journal", named=True))


def run_host(*options: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--no-advertise",
         "--bind", "127.0.0.1", "--port", "0", *options],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "ONO99_DATA_DIR": str(data_dir)})


def test_ono99_host_with_a_damaged_journal_exits_2_naming_the_file(tmp_path: Path) -> None:
    path = journal_file.journal_path(tmp_path, "Kitchen")
    path.parent.mkdir(parents=True)
    damaged(path)
    result = run_host("--name", "Kitchen", data_dir=tmp_path)
    assert result.returncode == 2
    assert str(path) in result.stderr and "--fresh" in result.stderr
    assert "Traceback" not in result.stderr
    missing = run_host("--resume", str(tmp_path / "nope.journal"), data_dir=tmp_path)
    assert missing.returncode == 2 and "no journal file" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_a_named_journal_is_taken_up_and_written_on(tmp_path: Path) -> None:
    path = tmp_path / "elsewhere.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 5)
    journal.close()
    named, point = open_table_journal(JournalChoice(path, named=True))
    assert point is not None and len(point.steps) == 5
    restarted = ClockedTable(TableConfig(capacity=3, seed=3, bot_delay=0.5))
    restarted._journal = named  # type: ignore[assignment]
    restarted.run(restarted.core.restore(point, 0.0))
    restarted.play_until(lambda: restarted.core.phase == FINISHED)
    matches = named.records
    assert len(matches) == 1 and matches[0].winners  # the same match, finished in that file
    named.close()


def test_ono99_host_with_fewer_seats_than_the_journals_match_exits_2(tmp_path: Path) -> None:
    path = journal_file.journal_path(tmp_path, "Kitchen")
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 3)
    journal.close()
    result = run_host("--name", "Kitchen", "--seats", "2", data_dir=tmp_path)
    assert result.returncode == 2
    assert str(path) in result.stderr and "3 seats" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_headless_host_says_which_match_it_took_up(tmp_path: Path) -> None:
    # A table name is all a restart goes by: an old match of another evening is taken up
    # too, so the host says what it took up and how to start over instead.
    import json

    path = journal_file.journal_path(tmp_path, "Kitchen")
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 4)
    names = [seat.name for seat in table.core.seats]
    journal.close()
    result = run_host("--name", "Kitchen", "--seats", "3", "--bot-delay", "0",
                      "--exit-after", "1", data_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert [event["event"] for event in events] == ["listening", "resumed", "stopped"]
    assert events[1] == {"event": "resumed", "journal": str(path), "match": 1, "rules": "2022",
                         "seats": names, "moves": 4}
    assert "Took up the unfinished match" in result.stderr and "--fresh" in result.stderr
    fresh = run_host("--name", "Kitchen", "--fresh", "--seats", "3", "--bots", "3",
                     "--bot-delay", "0", "--exit-after", "1", data_dir=tmp_path)
    assert fresh.returncode == 0, fresh.stderr
    assert "resumed" not in fresh.stdout and "Took up" not in fresh.stderr


def test_a_restart_unpacks_only_the_last_match_but_checks_every_record(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    play_matches(table, 2)
    table.run(table.core.start(table.now))
    table.play_until(lambda: table.moves_played() >= 4)
    journal.close()
    tail = read_journal(path, since_kind="match").records
    assert [record["kind"] for record in tail] == ["match"] + ["move"] * 4
    assert tail == read_journal(path).records[-5:]
    data = bytearray(path.read_bytes())
    data[20] ^= 0xFF  # in the first match's header, long before the tail
    path.write_bytes(bytes(data))
    with pytest.raises(journal_file.JournalCorrupt, match=str(path)):
        read_journal(path, since_kind="match")


def test_a_second_host_of_the_same_table_name_neither_writes_nor_takes_the_match(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "t.journal"
    first, _ = open_table_journal(JournalChoice(path))
    table = bots_table(first)
    table.play_until(lambda: table.moves_played() >= 3)
    size = path.stat().st_size
    with caplog.at_level(logging.WARNING):
        second, point = open_table_journal(JournalChoice(path))
    assert point is None  # the first host's live match is not taken up
    # Said once the table listens (hosting logs the notices then), not before: a second
    # host on a taken port must print the port's error alone.
    assert not caplog.records
    assert any("another running ono99 host" in notice for notice in second.notices)
    other = bots_table(second)
    other.play_until(lambda: other.moves_played() >= 3)
    assert path.stat().st_size == size  # and nothing of the second table is written
    with pytest.raises(JournalUnusable, match="another running"):
        open_table_journal(JournalChoice(path, named=True))
    first.close()
    third, point = open_table_journal(JournalChoice(path))  # the first host gone: free again
    assert point is not None
    third.close()


# --- a restart never takes up an older position, nor starts afresh without a word ---------


def taken_up(path: Path, moves: int) -> tuple[FileJournal, ClockedTable, list[str]]:
    """A bots' table that played `moves` moves, stopped as by a kill, restarted from its
    journal and taken up; and what the restarted journal told its host."""
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= moves)
    journal.close()
    again, point = open_table_journal(JournalChoice(path))
    assert point is not None and len(point.steps) == moves
    told: list[str] = []
    again.on_trouble = told.append
    restarted = ClockedTable(TableConfig(capacity=3, seed=3, bot_delay=0.5))
    restarted._journal = again  # type: ignore[assignment]
    restarted.run(restarted.core.restore(point, 0.0))
    return again, restarted, told


def played(journal: FileJournal) -> int:
    """Moves the table played in its current match (what it holds in memory: the file
    may have lost them)."""
    return len(journal._current.records[-1].moves)


def played_in_file(path: Path) -> int:
    point = resume_point(read_journal(path).records)
    return -1 if point is None else len(point.steps)


def test_a_write_that_fails_after_a_restart_cuts_out_the_taken_up_match_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    # Issue 23: the cut went back only to where the restart began, so a second restart
    # took up the first restart's position, with later plays gone.
    path = tmp_path / "t.journal"
    journal, table, told = taken_up(path, 6)
    table.play_until(lambda: played_in_file(path) >= 10)
    monkeypatch.setattr(journal_file.os, "write", disk_full)
    with caplog.at_level(logging.ERROR):
        table.play_until(lambda: played(journal) >= 14)  # the table plays on
    assert played_in_file(path) == -1  # no position of the match is left to take up
    assert [record["kind"] for record in read_journal(path).records] == []
    assert len(told) == 1 and "No space left" in told[0] and str(path) in told[0]
    assert any("cut out" in record.getMessage() for record in caplog.records)
    monkeypatch.undo()
    journal.close()  # killed
    later, point = open_table_journal(JournalChoice(path))
    assert point is None  # nothing older is taken up: it says why instead
    assert any("Match 1" in notice and "could not be written" in notice
               for notice in later.notices)
    later.close()
    quiet, _ = open_table_journal(JournalChoice(path))  # said once
    assert quiet.notices == []
    quiet.close()


def disk_full(descriptor: int, data: Any) -> int:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_match_cut_out_after_a_failed_write_is_written_again_whole_when_it_can_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "t.journal"
    journal, table, told = taken_up(path, 5)
    monkeypatch.setattr(journal_file.os, "write", disk_full)
    table.play_until(lambda: played(journal) >= 9)
    assert played_in_file(path) == -1
    monkeypatch.undo()  # the disk has room again
    table.play_until(lambda: played(journal) >= 10)
    assert played_in_file(path) == played(journal) == 10  # every move of it, none older
    assert "written again" in told[-1]
    journal.close()
    again, point = open_table_journal(JournalChoice(path))
    assert point is not None and again.notices == []
    again.close()


def test_a_failed_write_whose_cut_fails_too_makes_a_restart_refuse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "t.journal"
    journal, table, told = taken_up(path, 5)

    def cannot_cut(descriptor: int, length: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal_file.os, "write", disk_full)
    monkeypatch.setattr(journal_file.os, "ftruncate", cannot_cut)
    table.play_until(lambda: played(journal) >= 8)
    assert "refuses to take up the older position" in told[0]
    monkeypatch.undo()
    journal._cut_pending = False  # as killed: nothing is tried again on the way out
    journal.close()
    assert played_in_file(path) == 5  # the older position is still in the file…
    with pytest.raises(JournalUnusable, match="could not be written to it in full") as refused:
        open_table_journal(JournalChoice(path))  # …and is not taken up
    assert "--fresh" in str(refused.value) and str(path) in str(refused.value)
    fresh, point = open_table_journal(JournalChoice(path, resume=False))
    assert point is None
    fresh.close()


def whole_records_cut(path: Path, keep: int) -> None:
    """Cut the file back to the end of its `keep`-th record (a clean record boundary)."""
    data = path.read_bytes()
    offset = 9
    for _ in range(keep):
        offset += 8 + int.from_bytes(data[offset:offset + 4], "big")
    path.write_bytes(data[:offset])


def test_a_journal_cut_short_by_whole_records_is_refused_and_starting_over_keeps_it(
    tmp_path: Path,
) -> None:
    # Issue 23: a file truncated on a record boundary read as a clean file and its old
    # position was taken up. Its end mark says how long its host left it.
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    play_matches(table, 2)
    table.run(table.core.start(table.now))
    table.play_until(lambda: table.moves_played() >= 4)
    journal.close()
    whole_records_cut(path, 20)  # into the first match: it would be taken up, finished
    with pytest.raises(JournalUnusable) as refused:
        open_table_journal(JournalChoice(path))
    message = str(refused.value)
    assert str(path) in message and "whole records are missing" in message
    assert "--fresh" in message and f"--resume {path}" in message
    copy = tmp_path / "copy.journal"
    copy.write_bytes(path.read_bytes())
    journal_file.end_mark_path(copy).write_bytes(journal_file.end_mark_path(path).read_bytes())
    named, point = open_table_journal(JournalChoice(copy, named=True))  # as it is, if asked
    assert point is not None and any("as it is" in notice for notice in named.notices)
    named.close()
    fresh, point = open_table_journal(JournalChoice(path, resume=False))
    assert point is None and len(list(tmp_path.glob("t.journal.damaged-*"))) == 1
    fresh.close()
    later, point = open_table_journal(JournalChoice(path))  # the new file is trusted
    assert point is None
    later.close()


def test_a_journal_deleted_while_the_table_plays_is_started_again_with_its_match(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    told: list[str] = []
    journal.on_trouble = told.append
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 4)
    path.unlink()
    table.play_until(lambda: table.moves_played() >= 6)
    assert len(told) == 1 and "deleted or moved away" in told[0] and "started again" in told[0]
    assert played_in_file(path) == 6  # the whole match, from its header
    journal.close()
    again, point = open_table_journal(JournalChoice(path))
    assert point is not None and len(point.steps) == 6
    again.close()


def test_a_journal_deleted_before_a_crash_is_refused_not_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 4)
    journal.close()  # killed, and then its file deleted
    path.unlink()
    with pytest.raises(JournalUnusable, match="it is gone") as refused:
        open_table_journal(JournalChoice(path))
    assert "--fresh" in str(refused.value) and not path.exists()
    fresh, point = open_table_journal(JournalChoice(path, resume=False))
    assert point is None
    fresh.close()


def test_a_journal_replaced_while_the_table_plays_is_left_alone_and_the_host_told(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    told: list[str] = []
    journal.on_trouble = told.append
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 3)
    (tmp_path / "other").write_bytes(b"someone else's file")
    (tmp_path / "other").replace(path)
    table.play_until(lambda: table.moves_played() >= 6)
    assert len(told) == 1 and "replaced by another file" in told[0]
    assert path.read_bytes() == b"someone else's file"
    journal.close()


def test_an_unreadable_journal_is_refused_like_a_damaged_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 23: a journal the host could not open (permissions) started a fresh table with
    # exit status 0, and its stale match was taken up once the permissions were mended.
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.moves_played() >= 4)
    journal.close()
    real_open = os.open

    def denied(file: Any, flags: int, mode: int = 0o777) -> int:
        if Path(file) == path:  # as chmod 000 does to anyone but root
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, flags, mode)

    monkeypatch.setattr(journal_file.os, "open", denied)
    with pytest.raises(JournalUnusable) as refused:
        open_table_journal(JournalChoice(path))
    message = str(refused.value)
    assert "cannot open the table's journal" in message and str(path) in message
    assert f"chmod 600 {path}" in message and "--fresh" in message
    monkeypatch.undo()
    again, point = open_table_journal(JournalChoice(path))  # mended: taken up, whole
    assert point is not None and len(point.steps) == 4
    again.close()


def test_a_journal_that_lost_only_its_won_record_is_taken_up_and_ended(tmp_path: Path) -> None:
    # Issue 23: a power cut after the last move and before the `won` record took up a
    # match with no move left to make, for ever "playing". Also with the end mark past it.
    path = tmp_path / "t.journal"
    journal, _ = open_table_journal(JournalChoice(path))
    table = bots_table(journal)
    table.play_until(lambda: table.core.phase == FINISHED)
    journal.close()
    records = read_journal(path).records
    assert records[-1]["kind"] == "won"
    whole_records_cut(path, len(records) - 1)
    again, point = open_table_journal(JournalChoice(path))
    assert point is not None
    restarted = ClockedTable(TableConfig(capacity=3, seed=3, bot_delay=0.5))
    restarted._journal = again  # type: ignore[assignment]
    restarted.run(restarted.core.restore(point, 0.0))
    assert restarted.core.phase == FINISHED
    assert read_journal(path).records == records  # its end written again
    again.close()
    last, point = open_table_journal(JournalChoice(path))
    assert point is None and last.standing is not None and last.standing.number == 1
    last.close()
