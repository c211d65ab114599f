"""Standings from the journals on this machine: per player name, matches played and won and
rounds busted, overall and per rules preset (`ono99 stats`).

Only finished matches count; a match in progress, cut short or abandoned (its host closed
the table mid-match, or started over) counts for nobody, and the abandoned ones are
counted apart (`Standings.abandoned`). A journal
file that cannot be read whole is left out entirely (none of its matches count) and named
in `Standings.unreadable` with what is wrong: counting part of a damaged file would pass
its first half off as the whole history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ono99tui.host.journal.file import JournalError
from ono99tui.host.journal.history import (
    ABANDONED_MATCH,
    busts_per_seat,
    journal_files,
    read_matches,
    replay_match,
)


@dataclass
class Tally:
    """One player's record: finished matches played, matches won (a shared win counts for
    each winner, as the table counts it), and busts (one per round busted)."""

    played: int = 0
    won: int = 0
    busted: int = 0

    def to_json(self) -> dict[str, int]:
        """The tally as a JSON-ready map."""
        return {"played": self.played, "won": self.won, "busted": self.busted}


@dataclass
class Standings:
    """Every player's tally, overall and per preset, from the journal files read."""

    players: dict[str, Tally] = field(default_factory=dict)
    # preset name -> player name -> tally
    presets: dict[str, dict[str, Tally]] = field(default_factory=dict)
    matches: int = 0
    # Matches that ended unfinished for good (not counted in anyone's tally).
    abandoned: int = 0
    files: int = 0
    # (file, what is wrong with it) for each file left out.
    unreadable: list[tuple[Path, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The standings as one JSON-ready map (`ono99 stats --json`)."""
        return {
            "matches": self.matches,
            "abandoned": self.abandoned,
            "files": self.files,
            "players": {name: tally.to_json() for name, tally in self.ranked(self.players)},
            "presets": {preset: {name: tally.to_json() for name, tally in self.ranked(tallies)}
                        for preset, tallies in sorted(self.presets.items())},
            "unreadable": [{"file": str(path), "problem": problem}
                           for path, problem in self.unreadable],
        }

    @staticmethod
    def ranked(tallies: dict[str, Tally]) -> list[tuple[str, Tally]]:
        """Most matches won first, then fewest played (the better rate), then by name."""
        return sorted(tallies.items(),
                      key=lambda item: (-item[1].won, item[1].played, item[0].casefold()))


def _count(into: dict[str, Tally], name: str, won: bool, busted: int) -> None:
    tally = into.setdefault(name, Tally())
    tally.played += 1
    tally.won += int(won)
    tally.busted += busted


def tally_file(path: Path, standings: Standings) -> None:
    """Add the finished matches of one journal file to `standings`, all or nothing: a file
    that cannot be read whole (or replayed) goes to `standings.unreadable` instead."""
    counted: list[tuple[str, str, bool, int]] = []
    matches = abandoned = 0
    try:
        for match in read_matches(path):
            if match.status == ABANDONED_MATCH:
                abandoned += 1
            if not match.finished:
                continue
            busts = busts_per_seat(replay_match(match))
            winners = match.winners or ()
            counted.extend((match.rules.name, name, seat in winners, busts[seat])
                           for seat, name in enumerate(match.names))
            matches += 1
    except JournalError as error:
        standings.unreadable.append((path, error.problem))
        return
    except OSError as error:
        standings.unreadable.append((path, error.strerror or str(error)))
        return
    standings.files += 1
    standings.matches += matches
    standings.abandoned += abandoned
    for preset, name, won, busted in counted:
        _count(standings.players, name, won, busted)
        _count(standings.presets.setdefault(preset, {}), name, won, busted)


def tally_directory(directory: Path) -> Standings:
    """The standings from every table's journal in the data directory `directory`."""
    standings = Standings()
    for path in journal_files(directory):
        tally_file(path, standings)
    return standings
