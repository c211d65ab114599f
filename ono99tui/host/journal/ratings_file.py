"""The ratings file: every player's and bot level's rating, in the host's data folder
(`ratings.json` beside `tables/`), shared by every table hosted on this machine.

The IO edge of `ono99tui.host.ratings`: the core computes a match's changes and asks for
them to be kept (`outputs.RatingsChanged`); this module reads the file once when a table
opens (`read_ratings`) and keeps each change (`RatingsFile.keep`). Following the
journal's habits:

- it is written whole and atomically: a temporary file in the same folder, written,
  `fsync`ed, renamed over the old one, and the folder `fsync`ed: a crash leaves the old
  file or the new one, never half of one;
- each keep is a read–change–write under an exclusive `flock` of `ratings.json.lock`: two
  tables on one machine each replace only the ratings of their own match's players, and
  neither loses the other's;
- a file that cannot be read as ratings (not JSON, the wrong shape, a newer format) raises
  `RatingsDamaged` naming the file and what is wrong, and is never overwritten: a table
  then plays without ratings (its host is told), `ono99 stats --ratings` exits 1, and the
  file waits to be mended or moved away by hand. A missing file is an empty book.

The format (JSON, UTF-8):

    {"format": 1,
     "players": {"Ann": {"mu": 27.1, "sigma": 6.2, "matches": 3,
                         "history": [1012, 1040, 1031]}, ...},
     "bots": {"hard": {"mu": ..., "sigma": ..., "matches": ...}, ...},
     "rated": ["<table>#<match number>#<seed>", ...]}   # the last 500 matches rated

`history` (optional: a file written before it has none, and an older ono99 reads the file
as before) is the shown rating after each of the rating's last 50 matches, oldest first,
for `ono99 stats --ratings --plot`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ono99tui.host.ratings import BOT, PLAYER, Change, Rated, Rating, RatingBook

FORMAT = 1
FILE_NAME = "ratings.json"


class RatingsDamaged(Exception):
    """The ratings file cannot be read as ratings; the message names it and what is wrong.
    Nothing is written over it."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def ratings_path(data_dir: Path) -> Path:
    """The ratings file of the data folder `data_dir`."""
    return data_dir / FILE_NAME


def _rating(path: Path, where: str, data: Any) -> Rating:
    if not isinstance(data, dict):
        raise RatingsDamaged(path, f"{where} is not a map")
    mu, sigma, matches = data.get("mu"), data.get("sigma"), data.get("matches")
    if (not isinstance(mu, (int, float)) or isinstance(mu, bool) or not math.isfinite(mu)
            or not isinstance(sigma, (int, float)) or isinstance(sigma, bool)
            or not math.isfinite(sigma) or sigma <= 0):
        raise RatingsDamaged(path, f"{where} needs a number mu and a number sigma above 0")
    if type(matches) is not int or matches < 0:
        raise RatingsDamaged(path, f"{where} needs a whole number of matches, 0 or more")
    return Rating(float(mu), float(sigma), matches)


def parse_ratings(path: Path, text: str) -> RatingBook:
    """The book the file's `text` holds; RatingsDamaged if it holds none."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RatingsDamaged(path, f"it is not JSON ({error.msg}, line {error.lineno})"
                             ) from None
    if not isinstance(data, dict):
        raise RatingsDamaged(path, "it is not a map of ratings")
    version = data.get("format")
    if type(version) is not int:
        raise RatingsDamaged(path, "it has no format number: it is not an ono99 ratings file")
    if version > FORMAT:
        raise RatingsDamaged(path, f"ratings format {version} is newer than this ono99 reads "
                                   f"({FORMAT}); update ono99 to read it")
    ratings: dict[Rated, Rating] = {}
    history: dict[Rated, tuple[int, ...]] = {}
    for field, kind in (("players", PLAYER), ("bots", BOT)):
        entries = data.get(field, {})
        if not isinstance(entries, dict):
            raise RatingsDamaged(path, f"its {field!r} is not a map")
        for name, entry in entries.items():
            ratings[Rated(kind, name)] = _rating(path, f"the rating of {name!r}", entry)
            shown = entry.get("history", [])
            if not isinstance(shown, list) or not all(type(item) is int for item in shown):
                raise RatingsDamaged(path, f"the history of {name!r} is not a list of "
                                           "whole numbers")
            if shown:
                history[Rated(kind, name)] = tuple(shown)
    rated = data.get("rated", [])
    if not isinstance(rated, list) or not all(isinstance(item, str) for item in rated):
        raise RatingsDamaged(path, "its 'rated' is not a list of match ids")
    return RatingBook(ratings, tuple(rated), history)


def ratings_text(book: RatingBook) -> str:
    """The file's text for `book` (names sorted, so the file diffs well)."""
    def entry(who: Rated, rating: Rating) -> dict[str, Any]:
        kept: dict[str, Any] = {"mu": rating.mu, "sigma": rating.sigma,
                                "matches": rating.matches}
        if book.history.get(who):
            kept["history"] = list(book.history[who])
        return kept

    def entries(kind: str) -> dict[str, Any]:
        return {who.name: entry(who, rating)
                for who, rating in sorted(book.ratings.items()) if who.kind == kind}

    return json.dumps({"format": FORMAT, "players": entries(PLAYER), "bots": entries(BOT),
                       "rated": list(book.rated)}, ensure_ascii=False, indent=1) + "\n"


def read_ratings(path: Path) -> RatingBook:
    """The book in the file at `path` (an empty one if there is no file); RatingsDamaged
    if it cannot be read as ratings (an unreadable file too: its problem says why)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return RatingBook()
    except UnicodeDecodeError:
        raise RatingsDamaged(path, "it is not UTF-8 text") from None
    except OSError as error:
        raise RatingsDamaged(path, f"it cannot be read ({error.strerror or error})") from None
    return parse_ratings(path, text)


def write_ratings(path: Path, book: RatingBook) -> None:
    """Replace the file with `book`, atomically (temp file, fsync, rename, fsync of the
    folder). OSError if it cannot be written; the old file is then as it was."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(ratings_text(book))
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the exclusive lock of the ratings file `path` (its `.lock` beside it)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def update_ratings(path: Path, changes: Sequence[Change], match_id: str | None) -> RatingBook:
    """Keep one match's changes: under the lock, read the file as it is now, set the
    changed ratings, note the match, write it back. Returns the book written.
    RatingsDamaged (nothing written) or OSError."""
    with locked(path):
        book = read_ratings(path)
        if match_id is not None and match_id in book.rated:
            return book  # kept already (another process, or a restart)
        book = book.with_changes(changes, match_id)
        write_ratings(path, book)
        return book


@dataclass
class RatingsFile:
    """The ratings file one table keeps its matches' changes in."""

    path: Path

    def keep(self, changes: Sequence[Change], match_id: str | None) -> str | None:
        """Keep the changes; None, or what went wrong (for the host's log and app): the
        table plays on either way, and its ratings in memory go on from the change."""
        try:
            update_ratings(self.path, changes, match_id)
        except RatingsDamaged as error:
            return f"The ratings file is damaged, so this match's ratings were not kept: {error}"
        except OSError as error:
            return (f"Cannot write the ratings file {self.path} "
                    f"({error.strerror or error}): this match's ratings were not kept")
        return None


@dataclass(frozen=True)
class Ratings:
    """What a hosted table rates with: the book as it stood when the table opened, and
    the file its matches' changes are kept in (None: in memory only)."""

    book: RatingBook
    file: RatingsFile | None = None


def open_ratings(path: Path) -> Ratings:
    """The ratings a table opening now rates with, from the file at `path` (created at
    the first match rated); RatingsDamaged if the file cannot be read as ratings."""
    return Ratings(read_ratings(path), RatingsFile(path))
