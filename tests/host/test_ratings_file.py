"""The ratings file (`host.journal.ratings_file`): kept whole and atomically, two tables'
changes both kept, a damaged file a typed error and never overwritten."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ono99tui.host.journal.ratings_file import (
    RatingsDamaged,
    RatingsFile,
    open_ratings,
    read_ratings,
    update_ratings,
    write_ratings,
)
from ono99tui.host.ratings import (
    BOT,
    HISTORY_KEPT,
    PLAYER,
    Entrant,
    Rated,
    Rating,
    RatingBook,
    merged,
    rate_match,
)

ANN, BOB, CY = Rated(PLAYER, "Ann"), Rated(PLAYER, "Bob"), Rated(PLAYER, "Cy")
HARD = Rated(BOT, "hard")


def test_a_book_is_written_and_read_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    assert read_ratings(path) == RatingBook()  # no file yet: nobody is rated
    book = RatingBook({ANN: Rating(27.123456789, 5.5, 3), Rated(PLAYER, "Zoë 🂡"): Rating(),
                       HARD: Rating(28.0, 1.5, 2000)}, ("t#1#5", "t#2#6"))
    write_ratings(path, book)
    assert read_ratings(path) == book
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == 1 and data["bots"]["hard"]["matches"] == 2000
    assert "Zoë 🂡" in data["players"]
    assert [p.name for p in tmp_path.iterdir()] == ["ratings.json"]  # no temporary left


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "ratings.json"
    old = RatingBook({ANN: Rating(26.0, 6.0, 1)})
    write_ratings(path, old)
    text = path.read_bytes()

    def failing_fsync(descriptor: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="No space"):
        write_ratings(path, RatingBook({ANN: Rating(30.0, 2.0, 2)}))
    assert path.read_bytes() == text
    assert [p.name for p in tmp_path.iterdir()] == ["ratings.json"]
    # Kept through the table's file: a problem said, the old file as it was.
    _, changes = rate_match(old, [Entrant(ANN, 0), Entrant(BOB, 1)])
    problem = RatingsFile(path).keep(changes, "t#1#1")
    assert problem is not None and "No space left on device" in problem
    assert path.read_bytes() == text


def test_two_tables_keep_each_others_changes(tmp_path: Path) -> None:
    """Both opened the same file; each keeps only its own match's players."""
    path = tmp_path / "ratings.json"
    write_ratings(path, RatingBook({ANN: Rating(25.0, 8.0, 1), CY: Rating(25.0, 8.0, 1)}))
    first, second = open_ratings(path), open_ratings(path)
    _, one = rate_match(first.book, [Entrant(ANN, 0), Entrant(BOB, 1)], "a#1#1")
    _, two = rate_match(second.book, [Entrant(CY, 0), Entrant(HARD, 1)], "b#1#2")
    assert first.file is not None and second.file is not None
    assert first.file.keep(one, "a#1#1") is None
    assert second.file.keep(two, "b#1#2") is None
    kept = read_ratings(path)
    for change in (*one, *two):
        assert kept.get(change.who) == change.after
    assert kept.rated == ("a#1#1", "b#1#2")
    # The same match kept again (a restarted host) changes nothing.
    again = update_ratings(path, two, "b#1#2")
    assert again == kept and read_ratings(path) == kept


@pytest.mark.parametrize(("text", "problem"), [
    ("{not json", "it is not JSON"),
    ("[1, 2]", "it is not a map of ratings"),
    ('{"players": {}}', "it has no format number"),
    ('{"format": 2, "players": {}}', "ratings format 2 is newer than this ono99 reads (1)"),
    ('{"format": 1, "players": []}', "its 'players' is not a map"),
    ('{"format": 1, "players": {"Ann": {"mu": 25, "sigma": 0, "matches": 1}}}',
     "the rating of 'Ann' needs a number mu and a number sigma above 0"),
    ('{"format": 1, "players": {"Ann": {"mu": 25, "sigma": 8, "matches": -1}}}',
     "the rating of 'Ann' needs a whole number of matches"),
    ('{"format": 1, "bots": {"hard": 7}}', "the rating of 'hard' is not a map"),
    ('{"format": 1, "rated": [1]}', "its 'rated' is not a list of match ids"),
    ('{"format": 1, "players": {"Ann": {"mu": 25, "sigma": 8, "matches": 1, "history": [1.5]}}}',
     "the history of 'Ann' is not a list of whole numbers"),
])
def test_a_damaged_file_is_a_typed_error_and_never_overwritten(
        tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "ratings.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RatingsDamaged) as caught:
        read_ratings(path)
    assert caught.value.path == path and problem in caught.value.problem
    assert str(caught.value).startswith(f"{path}: ")
    _, changes = rate_match(RatingBook(), [Entrant(ANN, 0), Entrant(BOB, 1)])
    said = RatingsFile(path).keep(changes, "t#1#1")
    assert said is not None and "damaged" in said and problem in said
    assert path.read_text(encoding="utf-8") == text  # left as it was, for a person to mend


def test_bytes_that_are_not_text_are_damage_too(tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RatingsDamaged, match="not UTF-8"):
        read_ratings(path)


def test_each_rating_keeps_its_last_shown_numbers_and_a_file_without_them_reads(
        tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    # A file written before the history was kept: read as before, nobody has one.
    path.write_text('{"format": 1, "players": {"Ann": {"mu": 25, "sigma": 8, "matches": 1}}}',
                    encoding="utf-8")
    assert read_ratings(path).history == {}
    shown: list[int] = []
    for match in range(HISTORY_KEPT + 5):
        book = update_ratings(path, rate_match(read_ratings(path),
                                               [Entrant(ANN, match % 2), Entrant(BOB, 1 - match % 2)],
                                               f"t#{match}#1")[1], f"t#{match}#1")
        shown.append(book.get(ANN).shown)
    again = read_ratings(path)
    assert again == book
    assert again.history[ANN] == tuple(shown[-HISTORY_KEPT:])  # the oldest dropped first
    assert len(again.history[BOB]) == HISTORY_KEPT
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["players"]["Ann"]["history"] == shown[-HISTORY_KEPT:]
    # A rename carries the history of the rating it keeps.
    renamed = merged(again, "Ann", "Anna")
    assert renamed.history[Rated(PLAYER, "Anna")] == again.history[ANN]
    assert ANN not in renamed.history
