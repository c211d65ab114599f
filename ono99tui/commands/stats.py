"""`ono99 stats`: who played, won and busted, per player name and per rules preset, from the
journals of the tables hosted on this machine (`ono99tui.host.journal.stats`)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ono99tui.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from ono99tui.host.journal.stats import Standings, Tally
    from ono99tui.host.ratings import Rated, Rating, RatingBook

# Translated where it is shown (cli.py).
HELP = N_("matches played and won and rounds busted per player, from this machine's journals")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--json, and the journals to read (default: every table's journal here)."""
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help=_("journal files to read (default: every table's journal in the data "
                               "directory)"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument("--ratings", action="store_true",
                        help=_("print every player's and bot level's rating (the ratings file "
                               "in the data directory) instead of the standings"))
    parser.add_argument("--plot", action="store_true",
                        help=_("with --ratings: also plot each rating after its last matches"))
    parser.add_argument("--merge", nargs=2, metavar=("OLD", "NEW"), default=None,
                        help=_("give the rating of the player OLD to NEW (a rename) in the "
                               "ratings file, then print the ratings"))


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
    """The standings as text: everyone, then a table per preset where more than one was
    played (with one, a sentence names it)."""
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
    if len(standings.presets) == 1:
        # A table per preset would only repeat the one above: say which rules it was.
        (preset,) = standings.presets
        # (Two sentences, not a plural: "every" is not a count's plural form.)
        said = (_("The match was played with rules {preset}.") if count == 1
                else _("Every match was played with rules {preset}."))
        lines += ["", said.format(preset=preset)]
        return "\n".join(lines)
    for preset, tallies in sorted(standings.presets.items()):
        lines += ["", _("Rules {preset}:").format(preset=preset)]
        lines += _rows(standings.ranked(tallies))
    return "\n".join(lines)


def render_ratings(book: RatingBook, path: Path) -> str:
    """The ratings as a table, best shown rating first."""
    from rich.cells import cell_len

    ranked = ranked_ratings(book)
    if not ranked:
        return _("Nobody is rated in {path} yet.").format(path=path)
    player, rating_word, spread, matches = (_("Player"), _("Rating"), _("mu ± sigma"),
                                            _("Matches"))
    width = max([cell_len(player), *(cell_len(who.label) for who, _rating in ranked)])
    columns = [max(cell_len(rating_word), 6), max(cell_len(spread), 11),
               max(cell_len(matches), 7)]
    # TRANSLATORS: the heading of `ono99 stats --ratings`; mu and sigma are the rating's
    # mean and spread (OpenSkill), left as they are.
    lines = [_("Ratings in {path} (shown = 1000 + 40(mu - 3 sigma); OpenSkill "
               "Plackett-Luce)").format(path=path), "",
             "  " + "  ".join([_padded(player, width),
                               *(_padded(word, room, right=True) for word, room in
                                 zip((rating_word, spread, matches), columns, strict=True))])]
    for who, rating in ranked:
        cells = (str(rating.shown), f"{rating.mu:.1f} ± {rating.sigma:.1f}", str(rating.matches))
        lines.append("  " + "  ".join([_padded(who.label, width),
                                       *(_padded(cell, room, right=True) for cell, room in
                                         zip(cells, columns, strict=True))]))
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
         "matches": rating.matches, "history": list(book.history.get(who, ()))}
        for who, rating in ranked_ratings(book)]}


# The plot's marks, one per rating drawn (never told apart by colour alone).
PLOT_MARKS = "•+xo*#@%"


def ratings_plot(book: RatingBook, width: int = 80, height: int = 20) -> str:
    """The best-rated ratings with a history (as many as PLOT_MARKS), each as a line of
    its shown number after each of its last matches, in plain text (plotext, no colour);
    a sentence instead when none has a history yet."""
    import plotext as plt

    drawn = [(who, book.history[who]) for who, _rating in ranked_ratings(book)
             if book.history.get(who)][:len(PLOT_MARKS)]
    if not drawn:
        return _("No rating has a history yet: it is kept from the next rated match on.")
    plt.clear_figure()
    plt.theme("clear")
    plt.plotsize(width, height)
    # No plotext legend: it is drawn inside the plot's top left corner, over the lines
    # and beside the top rating. The marks are named on a line of their own under it.
    for (_who, shown), mark in zip(drawn, PLOT_MARKS, strict=False):
        plt.plot(list(range(1, len(shown) + 1)), list(shown), marker=mark)
    longest = max(len(shown) for _who, shown in drawn)
    step = max(1, -(-longest // 6))
    plt.xticks([float(tick) for tick in sorted({*range(1, longest, step), longest})])
    # Ratings are whole numbers: so are the ticks (plotext's own read "1830.5").
    low = min(min(shown) for _who, shown in drawn)
    high = max(max(shown) for _who, shown in drawn)
    rise = max(1, -(-(high - low) // 4))
    plt.yticks([float(low + rise * i) for i in range(5) if low + rise * i <= high + rise])
    plt.title(_("Ratings after each of their last matches"))
    plt.xlabel(_("match"))
    # The clear theme draws no colour, but plotext still ends each row with a reset code.
    drawing = re.sub(r"\x1b\[[0-9;]*m", "", str(plt.build())).rstrip("\n")
    legend = "   ".join(f"{mark} {who.label}" for (who, _shown), mark
                        in zip(drawn, PLOT_MARKS, strict=False))
    return f"{drawing}\n      {legend}\n"


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
        print(_("ono99 stats: the ratings file is damaged: {problem}").format(problem=error),
              file=sys.stderr)
        return 1
    except MergeError as error:
        print(_("ono99 stats: cannot merge: {problem}").format(problem=error), file=sys.stderr)
        return 1
    except OSError as error:
        print(_("ono99 stats: cannot write {path}: {reason}").format(
            path=path, reason=error.strerror or error), file=sys.stderr)
        return 1
    print(json.dumps(ratings_json(book, path), ensure_ascii=False) if args.json
          else render_ratings(book, path))
    if args.plot and not args.json:
        import shutil

        columns = min(shutil.get_terminal_size((80, 24)).columns, 120)
        print()
        print(ratings_plot(book, width=columns))
    return 0


def run(args: argparse.Namespace) -> int:
    """Print the standings; 1 if a journal had to be left out (it is named on stderr)."""
    if args.plot and not args.ratings:
        print(_("ono99 stats: --plot goes with --ratings"), file=sys.stderr)
        return 2
    if args.ratings or args.merge is not None:
        if args.files:
            print(_("ono99 stats: --ratings and --merge read the ratings file, not journals"),
                  file=sys.stderr)
            return 2
        return run_ratings(args)
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
