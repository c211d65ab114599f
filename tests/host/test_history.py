"""Reading finished matches back for `ono99 replay` and `ono99 stats`, and every way a
journal file can be wrong: each one gives a message naming the file and what is wrong, an
exit status of 1, no traceback, and nothing of the bad file read as if it were valid."""

from __future__ import annotations

import json
import random
import re
import shutil
import struct
import zlib
from pathlib import Path
from typing import Any

import msgpack
import pytest

from ono99tui.cli import main
from ono99tui.host.journal.file import (
    JOURNAL_VERSION,
    MAGIC,
    JournalCorrupt,
    JournalError,
    JournalTooNew,
    JournalWriter,
    NotAJournal,
    read_journal,
)
from ono99tui.host.journal.history import (
    ABANDONED_MATCH,
    CUT_OFF,
    FINISHED,
    IN_PROGRESS,
    JournalInvalid,
    matches_in,
    read_matches,
    replay_match,
)

GOLDEN = Path(__file__).parent / "journals" / f"v{JOURNAL_VERSION}" / "2022.journal"


def golden_records() -> list[dict[str, Any]]:
    return list(read_journal(GOLDEN).records)


def write(path: Path, records: list[dict[str, Any]]) -> Path:
    writer, _ = JournalWriter.open(path)
    for record in records:
        writer.append(record)
    writer.close()
    return path


def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ONO99_DATA_DIR", str(tmp_path))
    (tmp_path / "tables").mkdir()
    return tmp_path / "tables"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_file_of_many_matches_says_which_finished(tmp_path: Path) -> None:
    match = golden_records()
    records = [*match, *match[:5], {"kind": "abandoned"}, *match, *match[:3]]
    matches = read_matches(write(tmp_path / "t.journal", records))
    assert [m.status for m in matches] == [FINISHED, ABANDONED_MATCH, FINISHED, IN_PROGRESS]
    assert [m.index for m in matches] == [1, 2, 3, 4]
    assert len(replay_match(matches[2])) == len(matches[2].steps) + 1


def test_a_torn_last_record_cuts_off_its_match_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    path = write(tmp_path / "t.journal", [*golden_records(), *golden_records()])
    path.write_bytes(path.read_bytes()[:-3])  # the second match's "won" record is torn
    assert [m.status for m in read_matches(path)] == [FINISHED, CUT_OFF]
    status, out, err = run(capsys, "replay", "--json", str(path), "--match", "2")
    assert (status, out) == (1, "")
    assert f"match 2 of {path} is cut off" in err and "Traceback" not in err
    # Its first match is whole and checked: it is replayed, with a note about the file.
    status, out, err = run(capsys, "replay", "--json", str(path))
    assert status == 0 and json.loads(out.splitlines()[0])["match"] == 1
    assert "ends in the middle of a record" in err


def test_a_match_in_progress_or_abandoned_is_not_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    match = golden_records()
    path = write(tmp_path / "t.journal", [*match[:6], {"kind": "abandoned"}, *match[:4]])
    status, out, err = run(capsys, "replay", "--json", str(path))
    assert (status, out) == (1, "")
    assert f"match 2 of {path} is still being played" in err
    status, out, err = run(capsys, "replay", str(path), "--match", "1")
    assert (status, out) == (1, "") and "was abandoned before it ended" in err
    status, out, err = run(capsys, "replay", str(path), "--match", "3")
    assert (status, out) == (1, "") and "holds 2 matches, not a match 3" in err


def test_the_list_says_how_each_match_stands_in_the_language_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # Found in `ono99 replay --lang bn --list`: "(73 চাল, in progress)".
    from ono99tui import i18n

    match = golden_records()
    path = write(tmp_path / "t.journal", [*match[:6], {"kind": "abandoned", "reason": "closed"},
                                          *match[:4]])
    status, out, _ = run(capsys, "replay", "--list", str(path))
    assert status == 0 and "abandoned: its host closed the table)" in out
    assert "in progress)" in out
    try:
        status, out, err = run(capsys, "--lang", "bn", "replay", "--list", str(path))
        assert status == 0 and f"{i18n._('abandoned')}: {i18n._('its host closed the table')})" in out
        assert f"{i18n._('in progress')})" in out and "progress" not in out
        status, out, err = run(capsys, "--lang", "bn", "replay", "--json", str(path))
        assert status == 1 and i18n._("match {number} of {path}").format(
            number=2, path=path) in err and "match 2 of" not in err
    finally:
        i18n.use_language(None)


@pytest.mark.parametrize(("damage", "error", "words"), [
    (lambda data: b"PK\x03\x04" + data[4:], NotAJournal, "this is not an ono99 journal file"),
    (lambda data: MAGIC + bytes([JOURNAL_VERSION + 1]) + data[len(MAGIC) + 1:], JournalTooNew,
     f"journal format {JOURNAL_VERSION + 1} is newer than this ono99 reads"),
    # A flipped byte in the first record's payload: its checksum fails, and records follow.
    (lambda data: data[:30] + bytes([data[30] ^ 0xFF]) + data[31:], JournalCorrupt,
     "fails its checksum"),
    # A length far over the limit in the first record's header.
    (lambda data: data[:9] + b"\xff\xff\xff\xff" + data[13:], JournalCorrupt, "claims"),
])
def test_a_damaged_or_newer_file_is_named_with_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Any, error: type, words: str,
) -> None:
    path = tmp_path / "bad.journal"
    path.write_bytes(damage(GOLDEN.read_bytes()))
    with pytest.raises(error, match=words):
        read_matches(path)
    for command in (("replay", "--json", str(path)), ("replay", "--list", str(path)),
                    ("stats", str(path))):
        status, out, err = run(capsys, *command)
        assert status == 1 and str(path) in err and words in err and "Traceback" not in err
        assert "ana" not in out  # nothing of the file read as valid


def _packed(record: dict[str, Any]) -> bytes:
    payload = msgpack.packb(record, use_bin_type=True)
    return struct.pack(">II", len(payload), zlib.crc32(payload)) + payload


@pytest.mark.parametrize(("change", "words"), [
    (lambda r: r[:1] + [{"kind": "hello"}] + r[1:], "record 2 (hello): not a kind of record"),
    (lambda r: [{**r[0], "names": "ana"}, *r[1:]], "no list of 2 to 8 player names"),
    (lambda r: [{**r[0], "rules": {"bust_at": "lots"}}, *r[1:]], "rules are not valid"),
    (lambda r: [{**r[0], "seed": "x"}, *r[1:]], "seed or number is not a whole number"),
    (lambda r: [r[0], {"kind": "move", "move": "7"}, *r[2:]], "holds no move"),
    (lambda r: [*r[:-1], {"kind": "won", "winners": [7]}], "winners are not seats"),
    (lambda r: [r[1], *r], "comes before any match header"),
])
def test_whole_records_of_the_wrong_shape_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, words: str,
) -> None:
    path = write(tmp_path / "odd.journal", change(golden_records()))
    with pytest.raises(JournalInvalid, match=re.escape(words)):
        read_matches(path)
    status, out, err = run(capsys, "replay", "--json", str(path))
    assert (status, out) == (1, "") and str(path) in err and words in err


def test_moves_the_rules_refuse_or_a_false_end_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    records = golden_records()
    moves = [index for index, record in enumerate(records) if record["kind"] == "move"]
    twice = records[: moves[1]] + [records[moves[0]]] + records[moves[1]:]
    path = write(tmp_path / "twice.journal", twice)
    status, out, err = run(capsys, "replay", "--json", str(path))
    assert (status, out) == (1, "") and "match 1, move 2: the rules refuse it" in err
    winners = records[-1]["winners"]
    lying = [*records[:-1], {"kind": "won", "winners": [(winners[0] + 1) % 3]}]
    path = write(tmp_path / "lying.journal", lying)
    status, out, err = run(capsys, "replay", "--json", str(path))
    assert (status, out) == (1, "") and "do not lead to the winners it records" in err


def test_last_and_stats_read_the_data_dir_and_leave_a_damaged_file_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    tables = data_dir(tmp_path, monkeypatch)
    for command in (("replay", "--last"), ("replay", "--list")):
        status, out, err = run(capsys, *command)
        assert (status, out) == (1, "") and f"no table's journal in {tables}" in err
    shutil.copyfile(GOLDEN, tables / "Kitchen-000000000000.journal")
    status, out, _ = run(capsys, "replay", "--last", "--json")
    assert status == 0 and json.loads(out.splitlines()[0])["preset"] == "2022"
    status, out, _ = run(capsys, "stats", "--json")
    good = json.loads(out)
    assert status == 0 and good["matches"] == 1 and set(good["players"]) == {"ana", "bob", "cy"}
    # A damaged journal is named and left out whole; the standings are those of the rest.
    damaged = tables / "Hall-000000000000.journal"
    damaged.write_bytes(MAGIC + bytes([JOURNAL_VERSION + 1]))
    status, out, err = run(capsys, "stats", "--json")
    assert status == 1 and f"left out {damaged}" in err
    assert {key: value for key, value in json.loads(out).items() if key != "unreadable"} == {
        key: value for key, value in good.items() if key != "unreadable"}
    status, out, err = run(capsys, "replay", "--last", "--json")  # the newest is the bad one
    assert status == 0 and f"skipped {damaged}" in err


def test_stats_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    tables = data_dir(tmp_path, monkeypatch)
    status, out, _ = run(capsys, "stats")
    assert status == 0 and "No finished match" in out
    records = golden_records()
    write(tables / "t.journal", [*records, *records])
    winner = records[0]["names"][records[-1]["winners"][0]]
    status, out, _ = run(capsys, "stats")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("2 finished matches")
    assert lines[3].split()[:3] == [winner, "2", "2"]
    # One rules preset played: no second table that repeats the first, a sentence instead.
    assert "Rules 2022:" not in lines and lines[-1] == "Every match was played with rules 2022."
    assert len(lines) == 3 + len(records[0]["names"]) + 2
    # Two presets: everyone, then a table per preset.
    shutil.copyfile(GOLDEN.with_name("1980.journal"), tables / "u.journal")
    status, out, _ = run(capsys, "stats")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("3 finished matches")
    assert "Rules 1980:" in lines and "Rules 2022:" in lines
    assert not any(line.startswith("Every match") for line in lines)


def test_the_export_and_the_stats_load_no_textual(tmp_path: Path) -> None:
    """Scripts run `--json` and `stats` where no terminal UI is wanted: neither loads it."""
    import subprocess
    import sys

    code = ("import sys\n"
            "from ono99tui.cli import main\n"
            f"assert main(['replay', '--json', {str(GOLDEN)!r}]) == 0\n"
            f"assert main(['stats', {str(GOLDEN)!r}]) == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'),"
            " file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stderr.strip() == "[]"


def test_a_match_with_a_resignation_replays_it() -> None:
    """A seat the table made resign (`--on-abandon eliminate`) is a step of the replay."""
    import random as random_module

    from ono99tui.bots import make_bot
    from ono99tui.game import MATCH_OVER, Resigned, apply, preset, resign, start_match, view
    from ono99tui.game.codec import move_to_wire, rules_to_wire
    from ono99tui.host.journal.records import MatchDealt, MatchWon, MovePlayed, SeatResigned
    from ono99tui.host.journal.resume import record_to_map

    rules, seed, bot, choices = preset("1980"), 8, make_bot("greedy"), random_module.Random(3)
    deck = random_module.Random(seed)
    state, _ = start_match(rules, 3, deck)
    records = [record_to_map(MatchDealt(seed=seed, rules=rules_to_wire(rules),
                                        names=("ana", "bob", "cy"), kinds=("human",) * 3,
                                        token_hashes=(None,) * 3, number=1, seqs=(1, 1, 1)))]
    for _ in range(10):
        move = bot.choose(view(state, state.turn), choices)
        state, _ = apply(state, move, deck)
        records.append(record_to_map(MovePlayed(move_to_wire(move), (2, 2, 2))))
    state, _ = resign(state, 1, deck)
    records.append(record_to_map(SeatResigned(1, (3, 3, 3))))
    while state.phase != MATCH_OVER:
        move = bot.choose(view(state, state.turn), choices)
        state, _ = apply(state, move, deck)
        records.append(record_to_map(MovePlayed(move_to_wire(move), (4, 4, 4))))
    records.append(record_to_map(MatchWon(tuple(state.winners))))
    path = GOLDEN.parent / "unused"  # only named in messages
    [match] = matches_in(path, records)
    steps = replay_match(match)
    assert steps[11].move == {"kind": "resign", "seat": 1} and steps[11].seat == 1
    assert any(type(event) is Resigned for event in steps[11].events)
    assert steps[-1].state == state and 1 not in (match.winners or ())


ODD_VALUES: list[Any] = [None, -1, 2**64 - 1, "x", "", [], [None], {}, {"kind": "play"}, True, 1.5]


def test_any_odd_value_in_any_field_is_a_journal_error_not_a_crash(tmp_path: Path) -> None:
    """Every field of every record of a real match, replaced in turn by values of the wrong
    type or range: reading and replaying either succeed or raise a JournalError."""
    records = golden_records()
    # The header, the first moves, the end: every kind of field the file has.
    positions = [0, 1, 2, 3, len(records) - 1]
    tried = 0
    for position in positions:
        for key in records[position]:
            for value in ODD_VALUES:
                changed = [dict(record) for record in records]
                changed[position][key] = value
                path = write(tmp_path / f"odd-{tried}.journal", changed)
                tried += 1
                try:
                    for match in read_matches(path):
                        if match.finished:
                            replay_match(match)
                except JournalError:
                    pass
    assert tried > 100


def test_a_journal_cut_at_any_byte_never_reads_as_a_finished_match(tmp_path: Path) -> None:
    data = GOLDEN.read_bytes()
    path = tmp_path / "cut.journal"
    for size in range(len(data)):
        path.write_bytes(data[:size])
        matches = read_matches(path)
        assert [match.status for match in matches] in ([], [CUT_OFF], [IN_PROGRESS]), size


def test_flipped_bytes_give_a_journal_error_or_a_checked_match(tmp_path: Path) -> None:
    data, rng = GOLDEN.read_bytes(), random.Random(99)
    path = tmp_path / "flipped.journal"
    for _ in range(300):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(damaged))
        try:
            for match in read_matches(path):
                if match.finished:
                    replay_match(match)
        except JournalError:
            pass


@pytest.mark.parametrize("argv", [("stats", "--json"), ("stats",), ("replay", "--json")])
def test_a_reader_that_stops_early_gets_no_traceback(argv: tuple[str, ...]) -> None:
    """`ono99 stats --json | head -c 400` printed a BrokenPipeError traceback (found at the
    terminal): the reader has what it wanted, so the command ends quietly."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has already gone, as `head` has after its bytes
    try:
        done = subprocess.run([sys.executable, "-m", "ono99tui", *argv, str(GOLDEN)],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert done.returncode == 0
