"""`ono99 stats`: who played, won and busted, per player name and per rules preset, from the
journals of the tables hosted on this machine (`ono99tui.host.journal.stats`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ono99tui.i18n import N_

if TYPE_CHECKING:
    from ono99tui.host.journal.stats import Standings, Tally

# Translated where it is shown (cli.py).
HELP = N_("matches played and won and rounds busted per player, from this machine's journals")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--json, and the journals to read (default: every table's journal here)."""
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help="journal files to read (default: every table's journal in the "
                             "data directory)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _rows(tallies: list[tuple[str, Tally]]) -> list[str]:
    width = max([len("Player"), *(len(name) for name, _ in tallies)])
    lines = [f"  {'Player':<{width}}  Played  Won  Busted"]
    lines += [f"  {name:<{width}}  {tally.played:>6}  {tally.won:>3}  {tally.busted:>6}"
              for name, tally in tallies]
    return lines


def render(standings: Standings, where: str) -> str:
    """The standings as text: everyone, then a table per preset."""
    abandoned = standings.abandoned
    left = (f" ({abandoned} abandoned match{'' if abandoned == 1 else 'es'} not counted)"
            if abandoned else "")
    if not standings.players:
        return f"No finished match in {where} yet{left}."
    count = standings.matches
    lines = [f"{count} finished match{'' if count == 1 else 'es'} in {where}{left}", ""]
    lines += _rows(standings.ranked(standings.players))
    for preset, tallies in sorted(standings.presets.items()):
        lines += ["", f"Rules {preset}:"]
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
        where = "the journals given" if len(args.files) > 1 else str(args.files[0])
    else:
        directory = data_dir()
        standings = tally_directory(directory)
        where = f"the journals in {directory / 'tables'}"
    for path, problem in standings.unreadable:
        print(f"ono99 stats: left out {path}: {problem}", file=sys.stderr)
    print(json.dumps(standings.to_json(), ensure_ascii=False) if args.json
          else render(standings, where))
    return 1 if standings.unreadable else 0
