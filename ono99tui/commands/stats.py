"""`ono99 stats`: who played, won and busted, per player name and per rules preset, from the
journals of the tables hosted on this machine (`ono99tui.host.journal.stats`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ono99tui.i18n import N_

if TYPE_CHECKING:
    from ono99tui.host.journal.stats import Standings, Tally
    from ono99tui.host.ratings import Rated, Rating, RatingBook

# Translated where it is shown (cli.py).
HELP = N_("matches played and won and rounds busted per player, from this machine's journals")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--json, and the journals to read (default: every table's journal here)."""
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help="journal files to read (default: every table's journal in the "
                             "data directory)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--ratings", action="store_true",
                        help="print every player's and bot level's rating (the ratings file "
                             "in the data directory) instead of the standings")
    parser.add_argument("--merge", nargs=2, metavar=("OLD", "NEW"), default=None,
                        help="give the rating of the player OLD to NEW (a rename) in the "
                             "ratings file, then print the ratings")


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


def render_ratings(book: RatingBook, path: Path) -> str:
    """The ratings as a table, best shown rating first."""
    ranked = ranked_ratings(book)
    if not ranked:
        return f"Nobody is rated in {path} yet."
    width = max([len("Player"), *(len(who.label) for who, _ in ranked)])
    lines = [f"Ratings in {path} (shown = 1000 + 40(mu - 3 sigma); OpenSkill Plackett-Luce)",
             "", f"  {'Player':<{width}}  Rating     mu ± sigma  Matches"]
    lines += [f"  {who.label:<{width}}  {rating.shown:>6}  {rating.mu:5.1f} ± {rating.sigma:4.1f}"
              f"  {rating.matches:>7}" for who, rating in ranked]
    return "\n".join(lines)


def ranked_ratings(book: RatingBook) -> list[tuple[Rated, Rating]]:
    """Every rating, the best shown first (then by name)."""
    return sorted(book.ratings.items(),
                  key=lambda item: (-item[1].shown, item[0].label.casefold()))


def ratings_json(book: RatingBook, path: Path) -> dict[str, Any]:
    """The ratings as one JSON-ready map (`ono99 stats --ratings --json`)."""
    return {"file": str(path), "ratings": [
        {"name": who.label, "kind": who.kind, **({"level": who.name} if who.kind == "bot"
                                                  else {}),
         "rating": rating.shown, "mu": round(rating.mu, 4), "sigma": round(rating.sigma, 4),
         "matches": rating.matches} for who, rating in ranked_ratings(book)]}


def run_ratings(args: argparse.Namespace) -> int:
    """`--ratings` and `--merge`: print (after merging) the ratings; 1 for a damaged file
    or a merge that cannot be made (nothing is written then)."""
    from ono99tui.host.journal.ratings_file import (
        RatingsDamaged,
        locked,
        ratings_path,
        read_ratings,
        write_ratings,
    )
    from ono99tui.host.ratings import MergeError, merged
    from ono99tui.user_settings import data_dir

    path = ratings_path(data_dir())
    try:
        if args.merge is not None:
            old, new = args.merge
            with locked(path):
                book = merged(read_ratings(path), old, new)
                write_ratings(path, book)
        else:
            book = read_ratings(path)
    except RatingsDamaged as error:
        print(f"ono99 stats: the ratings file is damaged: {error}", file=sys.stderr)
        return 1
    except MergeError as error:
        print(f"ono99 stats: cannot merge: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"ono99 stats: cannot write {path}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(json.dumps(ratings_json(book, path), ensure_ascii=False) if args.json
          else render_ratings(book, path))
    return 0


def run(args: argparse.Namespace) -> int:
    """Print the standings; 1 if a journal had to be left out (it is named on stderr)."""
    if args.ratings or args.merge is not None:
        if args.files:
            print("ono99 stats: --ratings and --merge read the ratings file, not journals",
                  file=sys.stderr)
            return 2
        return run_ratings(args)
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
