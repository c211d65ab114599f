"""`ono99 stats`: who played, won and busted, per player name and per rules preset, from the
journals of the tables hosted on this machine (`ono99tui.host.journal.stats`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ono99tui.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from ono99tui.host.journal.stats import Standings, Tally

# Translated where it is shown (cli.py).
HELP = N_("matches played and won and rounds busted per player, from this machine's journals")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--json, and the journals to read (default: every table's journal here)."""
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help=_("journal files to read (default: every table's journal in the data "
                               "directory)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))


def _padded(text: str, width: int, *, right: bool = False) -> str:
    """`text` padded to `width` terminal cells (a translated heading may be in any script)."""
    from rich.cells import cell_len

    room = " " * max(0, width - cell_len(text))
    return room + text if right else text + room


def _rows(tallies: list[tuple[str, Tally]]) -> list[str]:
    from rich.cells import cell_len

    player, played, won, busted = _("Player"), _("Played"), _("Won"), _("Busted")
    width = max([cell_len(player), *(cell_len(name) for name, _tally in tallies)])
    columns = [max(cell_len(played), 6), max(cell_len(won), 3), max(cell_len(busted), 6)]
    lines = ["  " + "  ".join([_padded(player, width),
                               *(_padded(word, room) for word, room in
                                 zip((played, won, busted), columns, strict=True))])]
    lines += ["  " + "  ".join([_padded(name, width),
                                *(_padded(str(number), room, right=True) for number, room in
                                  zip((tally.played, tally.won, tally.busted), columns,
                                      strict=True))])
              for name, tally in tallies]
    return lines


def render(standings: Standings, where: str) -> str:
    """The standings as text: everyone, then a table per preset."""
    abandoned = standings.abandoned
    left = (ngettext(" ({count} abandoned match not counted)",
                     " ({count} abandoned matches not counted)", abandoned).format(
                count=abandoned) if abandoned else "")
    if not standings.players:
        return _("No finished match in {where} yet{abandoned}.").format(where=where,
                                                                        abandoned=left)
    count = standings.matches
    lines = [ngettext("{count} finished match in {where}{abandoned}",
                      "{count} finished matches in {where}{abandoned}", count).format(
                 count=count, where=where, abandoned=left), ""]
    lines += _rows(standings.ranked(standings.players))
    for preset, tallies in sorted(standings.presets.items()):
        lines += ["", _("Rules {preset}:").format(preset=preset)]
        lines += _rows(standings.ranked(tallies))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the standings; 1 if a journal had to be left out (it is named on stderr)."""
    from ono99tui.host.journal.stats import Standings, tally_directory, tally_file
    from ono99tui.user_settings import data_dir

    if args.files:
        standings = Standings()
        for path in args.files:
            tally_file(path, standings)
        where = _("the journals given") if len(args.files) > 1 else str(args.files[0])
    else:
        directory = data_dir()
        standings = tally_directory(directory)
        where = _("the journals in {folder}").format(folder=directory / "tables")
    for path, problem in standings.unreadable:
        print(_("ono99 stats: left out {path}: {problem}").format(
            path=path, problem=problem), file=sys.stderr)
    print(json.dumps(standings.to_json(), ensure_ascii=False) if args.json
          else render(standings, where))
    return 1 if standings.unreadable else 0
