"""A hosted table's journal file: what is kept in memory, a failing disk, a torn tail and a
damaged file at restart (`ono99tui.host.table_journal`), the core run on a fake clock."""

from __future__ import annotations

import errno
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ono99tui.host import journal_file
from ono99tui.host.core import FINISHED, PLAYING
from ono99tui.host.journal_file import read_journal
from ono99tui.host.settings import TableConfig
from ono99tui.host.table_journal import (
    FileJournal,
    JournalChoice,
    JournalUnusable,
    open_table_journal,
)

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
    assert any("another running ono99 host" in record.getMessage()
               for record in caplog.records)
    other = bots_table(second)
    other.play_until(lambda: other.moves_played() >= 3)
    assert path.stat().st_size == size  # and nothing of the second table is written
    with pytest.raises(JournalUnusable, match="another running"):
        open_table_journal(JournalChoice(path, named=True))
    first.close()
    third, point = open_table_journal(JournalChoice(path))  # the first host gone: free again
    assert point is not None
    third.close()
