"""The journal file: records survive a reopen, a torn last record is dropped and cut away,
damage before the end and files that are not journals are typed errors naming the file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99tui.config import DATA_DIR_ENV, data_dir
from ono99tui.host.journal_file import (
    JOURNAL_VERSION,
    MAGIC,
    JournalCorrupt,
    JournalTooNew,
    JournalWriter,
    NotAJournal,
    cut_tail_path,
    journal_path,
    read_journal,
    token_hash,
)

RECORDS = [
    {"kind": "match", "seed": 7, "rules": {"name": "2022"}, "names": ["ana", "bob"]},
    {"kind": "move", "seat": 0, "move": {"kind": "play", "card": "5"}},
    {"kind": "resign", "seat": 1},
    {"kind": "end", "winners": [0]},
]


def write(path: Path, records: list[dict[str, object]]) -> None:
    writer, _ = JournalWriter.open(path)
    try:
        for record in records:
            writer.append(record)
    finally:
        writer.close()


def test_records_come_back_in_order_after_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    write(path, RECORDS[:2])
    writer, contents = JournalWriter.open(path)
    assert list(contents.records) == RECORDS[:2] and not contents.torn_tail
    writer.append(RECORDS[2])
    writer.close()
    assert list(read_journal(path).records) == RECORDS[:3]


def test_the_file_and_its_folder_are_private(tmp_path: Path) -> None:
    path = tmp_path / "tables" / "t.journal"
    write(path, RECORDS)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


@pytest.mark.parametrize("cut", [1, 3, 7, 8, 9, 20])
def test_a_torn_last_record_is_dropped_then_cut_away_before_the_next_append(
    tmp_path: Path, cut: int,
) -> None:
    path = tmp_path / "t.journal"
    write(path, RECORDS)
    whole = path.stat().st_size
    with path.open("r+b") as stream:  # the host died inside the last write
        stream.truncate(whole - cut)
    contents = read_journal(path)
    assert list(contents.records) == RECORDS[:3] and contents.torn_tail
    writer, reopened = JournalWriter.open(path)
    assert list(reopened.records) == RECORDS[:3]
    writer.append({"kind": "end", "winners": [1]})
    writer.close()
    after = read_journal(path)
    assert list(after.records) == [*RECORDS[:3], {"kind": "end", "winners": [1]}]
    assert not after.torn_tail


def test_bytes_cut_away_before_appending_are_kept_beside_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    write(path, RECORDS)
    data = bytearray(path.read_bytes())
    second = len(MAGIC) + 1 + 8 + int.from_bytes(data[len(MAGIC) + 1:len(MAGIC) + 5], "big")
    # A damaged length in the second record claims more bytes than the file holds: it
    # reads as a torn write, so the records after it would be lost with the cut.
    data[second:second + 4] = (len(data)).to_bytes(4, "big")
    path.write_bytes(bytes(data))
    writer, contents = JournalWriter.open(path)
    writer.close()
    assert list(contents.records) == RECORDS[:1]
    side = cut_tail_path(path, second)
    assert side.read_bytes() == bytes(data[second:])
    assert stat.S_IMODE(side.stat().st_mode) == 0o600
    assert path.stat().st_size == second


def test_a_file_killed_before_its_header_was_whole_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    path.write_bytes(MAGIC[:3])
    writer, contents = JournalWriter.open(path)
    assert contents.records == () and contents.torn_tail
    writer.append(RECORDS[0])
    writer.close()
    assert list(read_journal(path).records) == RECORDS[:1]


def test_damage_before_the_last_record_is_corruption_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    write(path, RECORDS)
    data = bytearray(path.read_bytes())
    data[len(MAGIC) + 1 + 8 + 2] ^= 0xFF  # inside the first record's payload
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt) as caught:
        read_journal(path)
    assert str(path) in str(caught.value) and "checksum" in str(caught.value)
    with pytest.raises(JournalCorrupt):
        JournalWriter.open(path)  # never append after records that cannot be trusted
    assert path.read_bytes() == bytes(data)  # and nothing was cut


def test_a_file_that_is_not_a_journal_or_is_from_a_newer_version(tmp_path: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("hello, this is not a journal\n")
    with pytest.raises(NotAJournal, match="not an ono99 journal"):
        read_journal(other)
    newer = tmp_path / "new.journal"
    newer.write_bytes(MAGIC + bytes([JOURNAL_VERSION + 1]))
    with pytest.raises(JournalTooNew, match="newer"):
        read_journal(newer)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["seat", "move", "n"]),
                                st.integers(-5, 2**40) | st.text(max_size=20), max_size=3),
                max_size=6),
       st.integers(min_value=0, max_value=400))
def test_any_cut_of_a_journal_reads_as_a_prefix_of_its_records(
    tmp_path_factory: pytest.TempPathFactory, bodies: list[dict[str, object]], cut: int,
) -> None:
    records = [{"kind": "move", **body} for body in bodies]
    path = tmp_path_factory.mktemp("cut") / "t.journal"
    writer, _ = JournalWriter.open(path)
    boundaries = {0, path.stat().st_size}  # an empty file, or a whole header
    for record in records:
        writer.append(record)
        boundaries.add(path.stat().st_size)
    writer.close()
    data = path.read_bytes()
    kept = max(0, len(data) - cut)
    path.write_bytes(data[:kept])
    contents = read_journal(path)
    assert list(contents.records) == records[: len(contents.records)]
    # Torn exactly when the cut fell inside a record (or inside the header).
    assert contents.torn_tail == (kept not in boundaries)


def test_one_file_per_table_name_and_only_hashes_of_tokens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert data_dir() == tmp_path
    kitchen = journal_path(data_dir(), "Kitchen")
    assert kitchen == journal_path(tmp_path, "Kitchen") and kitchen.parent == tmp_path / "tables"
    assert journal_path(tmp_path, "Kitchen/1") != journal_path(tmp_path, "Kitchen?1")
    assert journal_path(tmp_path, "🎲").name.endswith(".journal")
    token = "abc"
    assert token_hash(token) != token and len(token_hash(token)) == 64
    assert os.sep not in journal_path(tmp_path, "../../etc").name
