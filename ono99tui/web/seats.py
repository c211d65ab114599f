"""Each browser tab's seat: a secret id kept in the tab, mapped to a config folder of its own.

A tab keeps its seat id in sessionStorage: it survives a reload (so the game started again
finds its resume token and takes back the same seat) but is not shared with other tabs, so
a second tab is a second player, never a takeover of the first one's seat. The id is a
secret; its folder is named by its hash, so the folder names on disk reveal no id, and a
host restarted on the same config folder still knows the seats its browsers hold.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path

from netproto.wire.errors import BadName
from netproto.wire.names import clean_name

SEAT_FILE = "web-seat.json"
# Folders kept before the least recently used are removed (each holds a name and a token).
MAX_SEAT_FOLDERS = 256
_SEAT_ID = re.compile(r"[A-Za-z0-9_-]{43}")


class SeatError(ValueError):
    """A seat cannot be made for this name; the message says why, for the player."""


@dataclass(frozen=True)
class Seat:
    """One tab's player: their name and the config folder their game runs with."""

    seat_id: str
    name: str
    config_dir: Path


def seat_folder_name(seat_id: str) -> str:
    """The folder of a seat id: its hash, so no id can be read off the disk."""
    return "seat-" + hashlib.sha256(seat_id.encode()).hexdigest()[:32]


class SeatBook:
    """The seats handed out by one door, kept under *players_dir*."""

    def __init__(self, players_dir: Path, max_folders: int = MAX_SEAT_FOLDERS) -> None:
        self.players_dir = players_dir
        self.max_folders = max_folders

    def create(self, raw_name: object) -> Seat:
        """A new seat for the player called *raw_name*; raises SeatError for a bad name."""
        try:
            name = clean_name(raw_name)
        except BadName as error:
            raise SeatError(str(error)) from None
        seat_id = secrets.token_urlsafe(32)
        folder = self.players_dir / seat_folder_name(seat_id)
        folder.mkdir(mode=0o700, parents=True, exist_ok=False)
        (folder / SEAT_FILE).write_text(json.dumps({"name": name}) + "\n", encoding="utf-8")
        self._prune(keep=folder)
        return Seat(seat_id, name, folder)

    def get(self, seat_id: object) -> Seat | None:
        """The seat with this id, or None (not an id, never made here, or pruned)."""
        if not isinstance(seat_id, str) or not _SEAT_ID.fullmatch(seat_id):
            return None
        folder = self.players_dir / seat_folder_name(seat_id)
        try:
            data = json.loads((folder / SEAT_FILE).read_text(encoding="utf-8"))
            name = clean_name(data["name"])
        except (OSError, ValueError, KeyError, TypeError, BadName):
            return None
        with contextlib.suppress(OSError):
            os.utime(folder)  # recently used: pruned last
        return Seat(seat_id, name, folder)

    def token_of(self, seat: Seat) -> str | None:
        """The resume token kept for `seat` (a phone's seat keeps it here), or None."""
        try:
            data = json.loads((seat.config_dir / SEAT_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        token = data.get("token") if isinstance(data, dict) else None
        return token if isinstance(token, str) else None

    def save_token(self, seat: Seat, token: str) -> None:
        """Keep `seat`'s resume token (so a restarted host's door still resumes it)."""
        data = {"name": seat.name, "token": token}
        with contextlib.suppress(OSError):
            (seat.config_dir / SEAT_FILE).write_text(json.dumps(data) + "\n", encoding="utf-8")

    def _prune(self, keep: Path) -> None:
        try:
            folders = [p for p in self.players_dir.iterdir() if p.name.startswith("seat-")]
        except OSError:
            return
        if len(folders) <= self.max_folders:
            return

        def age(path: Path) -> float:
            try:
                return path.stat().st_mtime
            except OSError:
                return 0.0

        folders.sort(key=age)
        for folder in folders[: len(folders) - self.max_folders]:
            if folder != keep:
                shutil.rmtree(folder, ignore_errors=True)
