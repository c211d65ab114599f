"""The journal file: records survive a reopen, a torn last record is dropped and cut away,
damage a torn write cannot leave (before the end, or a damaged length that would take whole
records with it) and files that are not journals are typed errors naming the file; the end
mark beside it follows every change; a path that no longer names the file is noticed."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ono99tui.host.journal.file import (
    JOURNAL_VERSION,
    MAGIC,
    EndMark,
    JournalCorrupt,
    JournalMoved,
    JournalTooNew,
    JournalWriter,
    NotAJournal,
    end_mark_path,
    journal_path,
    read_journal,
    token_hash,
)
from ono99tui.user_settings import DATA_DIR_ENV, data_dir

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


def second_record(data: bytes) -> int:
    """Where the second record of a journal starts."""
    return len(MAGIC) + 1 + 8 + int.from_bytes(data[len(MAGIC) + 1:len(MAGIC) + 5], "big")


@pytest.mark.parametrize("bit", [0, 1, 4, 9, 15, 30])
def test_a_flipped_length_bit_that_would_take_whole_records_is_refused(
    tmp_path: Path, bit: int,
) -> None:
    # A length running past the end (or to the very end) reads like a torn write; but a
    # torn write is one record at most, and whole records follow this one: refuse, and cut
    # nothing (before: the records after it were cut away, into a file nobody read).
    path = tmp_path / "t.journal"
    write(path, RECORDS)
    data = bytearray(path.read_bytes())
    second = second_record(data)
    length = int.from_bytes(data[second:second + 4], "big") ^ (1 << bit)
    data[second:second + 4] = length.to_bytes(4, "big")
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match=str(path)):
        read_journal(path)
    with pytest.raises(JournalCorrupt):
        JournalWriter.open(path)
    assert path.read_bytes() == bytes(data)


def test_a_length_running_to_the_very_end_over_whole_records_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    write(path, RECORDS)
    data = bytearray(path.read_bytes())
    second = second_record(data)
    data[second:second + 4] = (len(data) - second - 8).to_bytes(4, "big")
    path.write_bytes(bytes(data))
    with pytest.raises(JournalCorrupt, match="whole record follows it"):
        read_journal(path)


def test_a_whole_last_record_that_is_not_msgpack_is_damage_not_a_torn_write(
    tmp_path: Path,
) -> None:
    import zlib

    path = tmp_path / "t.journal"
    write(path, RECORDS)
    payload = b"\xc1"  # never used in msgpack; its checksum holds: no write tore it
    with path.open("ab") as stream:
        stream.write(len(payload).to_bytes(4, "big") + zlib.crc32(payload).to_bytes(4, "big")
                     + payload)
    with pytest.raises(JournalCorrupt, match="not msgpack"):
        read_journal(path)


def test_the_end_mark_follows_every_append_and_cut(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer, contents = JournalWriter.open(path)
    assert contents.end_mark is None  # a new journal has none yet
    writer.append(RECORDS[0])
    assert not end_mark_path(path).exists() or end_mark_path(path).read_bytes() == b""
    writer.commit()  # from now on the writer keeps it
    writer.append(RECORDS[1])
    size = path.stat().st_size
    writer.set_lost(size, 4)
    writer.close()
    assert stat.S_IMODE(end_mark_path(path).stat().st_mode) == 0o600
    again, contents = JournalWriter.open(path)
    assert contents.end_mark == EndMark(size=size, lost_at=size, lost_match=4)
    again.commit()
    again.truncate(contents.since_offset)
    again.close()
    _, contents = JournalWriter.open(path)
    assert contents.end_mark is not None and contents.end_mark.size == path.stat().st_size


def test_a_garbled_end_mark_is_read_as_none_and_said(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    write(path, RECORDS)
    end_mark_path(path).write_bytes(b"rubbish")
    writer, contents = JournalWriter.open(path)
    writer.close()
    assert contents.end_mark is None and "cannot be read" in (contents.end_mark_problem or "")


def test_a_short_write_is_cut_away_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.journal"
    writer, _ = JournalWriter.open(path)
    writer.commit()
    writer.append(RECORDS[0])
    size = path.stat().st_size
    real_write = os.write

    calls = 0

    def half(descriptor: int, data: bytes) -> int:  # what fits, then the disk is full
        nonlocal calls
        calls += 1
        if calls > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(descriptor, bytes(data[: len(data) // 2]))

    monkeypatch.setattr(os, "write", half)
    with pytest.raises(OSError, match="No space left"):  # the reason, for the host
        writer.append_all(RECORDS[1:])
    monkeypatch.undo()
    writer.close()
    assert path.stat().st_size == size and not read_journal(path).torn_tail


def test_a_path_that_no_longer_names_the_file_is_noticed(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer, _ = JournalWriter.open(path)
    writer.check_path()
    path.unlink()
    with pytest.raises(JournalMoved) as gone:
        writer.check_path()
    assert gone.value.gone
    path.write_bytes(b"another file")
    with pytest.raises(JournalMoved) as replaced:
        writer.check_path()
    assert not replaced.value.gone
    writer.close()


def test_a_file_is_version_1_until_it_holds_a_record_that_needs_2(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    writer, _ = JournalWriter.open(path)
    writer.append(RECORDS[0])
    assert path.read_bytes()[len(MAGIC)] == 1  # an older ono99 still reads it
    writer.append({"kind": "options", "table": {"hints": True}}, version=2)
    writer.close()
    assert path.read_bytes()[len(MAGIC)] == 2 <= JOURNAL_VERSION
    assert read_journal(path).version == 2
    # A duplicate set's match header needs 3 (docs/JOURNAL.md "Versions").
    writer, _ = JournalWriter.open(path)
    writer.append({**RECORDS[0], "duplicate": {"seed": 1, "players": ["a", "b"],
                                               "places": []}}, version=3)
    writer.close()
    assert read_journal(path).version == 3 == JOURNAL_VERSION


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
