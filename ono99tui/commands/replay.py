"""`ono99 replay [FILE | --last]`: open a finished match in the app, every hand face up, or
print it as one JSON line per event (`--json`), from a table's journal on this machine;
`--review [--player NAME]`: a coach's review of one player's plays instead (the costliest
choices first, worked out from what that player could see: ui/screens/review.py).

Only finished matches are replayed: a replay shows every hand, which the table must not
show while the match is being played. A journal is on the machine that hosted the table,
so nobody else's match in progress can be opened this way either.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ono99tui.i18n import N_, _

if TYPE_CHECKING:
    from textual.screen import Screen

    from ono99tui.host.journal.history import RecordedMatch

# Translated where it is shown (cli.py).
HELP = N_("replay a finished match from a table's journal (every hand face up), or export it")


class ReplayRefused(Exception):
    """The match asked for cannot be replayed; the message says which and why."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """FILE or --last, --match N, --list, --json, --ascii."""
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE",
                        help=_("a table's journal file (default: --last)"))
    parser.add_argument("--last", action="store_true",
                        help=_("the last match finished at a table hosted on this machine"))
    parser.add_argument("--match", type=int, default=None, metavar="N",
                        help=_("the N-th match of FILE (default: its last finished one)"))
    parser.add_argument("--list", action="store_true",
                        help=_("list the matches of FILE (or of every journal here) instead"))
    parser.add_argument("--json", action="store_true",
                        help=_("print the match as one JSON object per line, for scripts"))
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    parser.add_argument("--review", action="store_true",
                        help=_("a coach's review of one player's plays instead: the costliest "
                               "choices first, from what that player could see"))
    parser.add_argument("--player", default=None, metavar="NAME",
                        help=_("whose plays --review looks at (default: the match's only "
                               "person; a bot's seat may be named too)"))


def review_seat(match: RecordedMatch, player: str | None) -> int:
    """The seat `--review --player NAME` asks for (the only person's seat without a name);
    ReplayRefused, naming the match's players, when there is no such seat or no one to
    choose."""
    names = ", ".join(match.names)
    if player is None:
        people = [seat for seat, kind in enumerate(match.kinds) if kind == "human"]
        if len(people) == 1:
            return people[0]
        raise ReplayRefused(_("{match} has {count} players who are not bots: say whose plays "
                              "to review with --player NAME ({names})").format(
            match=_named(match), count=len(people), names=names))
    seats = [seat for seat, name in enumerate(match.names) if name == player]
    if not seats:
        seats = [seat for seat, name in enumerate(match.names)
                 if name.casefold() == player.casefold()]
    if not seats:
        raise ReplayRefused(_("{match} has no player named '{name}'; its players: {names}")
                            .format(match=_named(match), name=player, names=names))
    if len(seats) > 1:
        raise ReplayRefused(_("{match} has more than one player named '{name}'; its players: "
                              "{names}").format(match=_named(match), name=player,
                                                names=names))
    return seats[0]


def _finished(match: RecordedMatch) -> RecordedMatch:
    if match.status == "cut off":
        raise ReplayRefused(_("{match} is cut off: the file ends in the middle of a record (its "
                              "host was killed while writing it, or the file was truncated), so "
                              "the match has no end to replay").format(match=_named(match)))
    if match.status == "in progress":
        raise ReplayRefused(_("{match} is still being played (or its host stopped mid-match): a "
                              "match can be replayed once it is over").format(
            match=_named(match)))
    if not match.finished:
        why = _why_abandoned(match)
        raise ReplayRefused((_("{match} was abandoned before it ended ({why}): only a finished "
                               "match can be replayed") if why
                             else _("{match} was abandoned before it ended: only a finished "
                                    "match can be replayed")).format(
            match=_named(match), why=why))
    return match


def match_from_file(path: Path, number: int | None) -> RecordedMatch:
    """The match `number` (from 1) of the journal at `path`, or its last finished one.
    Raises JournalError, OSError or ReplayRefused."""
    from ono99tui.host.journal.history import read_matches

    matches = read_matches(path)
    if matches and matches[-1].status == "cut off" and number != len(matches):
        # The matches before are whole and checked; still, say that the file was cut.
        print(_("ono99 replay: note: {path} ends in the middle of a record; its last match "
                "({number}) is cut off").format(path=path, number=len(matches)), file=sys.stderr)
    if number is not None:
        if not 1 <= number <= len(matches):
            raise ReplayRefused(_("{path} holds {count} matches, not a match {number}").format(
                path=path, count=len(matches), number=number))
        return _finished(matches[number - 1])
    finished = [match for match in matches if match.finished]
    if not finished:
        if matches:
            _finished(matches[-1])
        raise ReplayRefused(_("{path} holds no finished match").format(path=path))
    return finished[-1]


def last_match(directory: Path) -> RecordedMatch:
    """The last finished match in the newest journal under `directory` that has one. A
    journal that cannot be read is named on stderr and passed over."""
    from ono99tui.host.journal.file import JournalError
    from ono99tui.host.journal.history import journal_files, read_matches

    files = journal_files(directory)
    for path in files:
        try:
            finished = [match for match in read_matches(path) if match.finished]
        except (JournalError, OSError) as error:
            print(_("ono99 replay: skipped {problem}").format(
                problem=_problem(path, error)), file=sys.stderr)
            continue
        if finished:
            return finished[-1]
    where = directory / "tables"
    raise ReplayRefused(
        _("no finished match in the journals in {folder}").format(folder=where) if files
        else _("no table's journal in {folder} (a table hosted on this machine keeps one "
               "there)").format(folder=where))


def _named(match: RecordedMatch) -> str:
    """ "match 3 of Kitchen-….journal", in the language in use (the journal's own
    `describe` is English, for logs)."""
    return _("match {number} of {path}").format(number=match.index, path=match.path)


def _why_abandoned(match: RecordedMatch) -> str:
    """Why an abandoned match ended, in the language in use ("" when nobody said)."""
    from ono99tui.host.journal.history import ABANDONED_MATCH
    from ono99tui.host.journal.resume import FRESH

    if match.status != ABANDONED_MATCH:
        return ""
    return {FRESH: _("its host started over with --fresh"),
            "closed": _("its host closed the table")}.get(match.reason or "", "")


def _outcome(match: RecordedMatch) -> str:
    """How an unfinished match stands, as `--list` says it: "abandoned: its host closed
    the table", "in progress", "cut off"."""
    from ono99tui.host.journal.history import ABANDONED_MATCH, CUT_OFF, FINISHED, IN_PROGRESS

    status = {FINISHED: _("finished"), IN_PROGRESS: _("in progress"), CUT_OFF: _("cut off"),
              ABANDONED_MATCH: _("abandoned")}.get(match.status, match.status)
    why = _why_abandoned(match)
    # TRANSLATORS: an abandoned match in `ono99 replay --list` ("abandoned: its host
    # closed the table").
    return _("{status}: {why}").format(status=status, why=why) if why else status


def _problem(path: Path, error: Exception) -> str:
    from ono99tui.host.journal.file import JournalError, NotAJournal

    if isinstance(error, NotAJournal):
        return _("{path}: this is not an ono99 journal file").format(path=error.path)
    if isinstance(error, JournalError):
        return str(error)
    if isinstance(error, OSError):
        return f"{path}: {error.strerror or error}"
    return f"{path}: {error}"


def _list(paths: list[Path]) -> int:
    from ono99tui.host.journal.file import JournalError
    from ono99tui.host.journal.history import read_matches

    status = 0
    for path in paths:
        try:
            matches = read_matches(path)
        except (JournalError, OSError) as error:
            print(_("ono99 replay: {problem}").format(problem=_problem(path, error)),
                  file=sys.stderr)
            status = 1
            continue
        print(path)
        for match in matches:
            if match.finished:
                won = _(" and ").join(match.names[seat] for seat in match.winners or ())
                outcome = _("won by {names}").format(names=won)
            else:
                outcome = _outcome(match)
            print(_("  {index:>4}  {rules:<10}  {names}  ({moves} moves, {outcome})").format(
                index=match.index, rules=match.rules.name, names=", ".join(match.names),
                moves=len(match.steps), outcome=outcome))
    return status


def run(args: argparse.Namespace) -> int:
    """Open (or print) the match asked for; 1 when it cannot be read or replayed."""
    from ono99tui.host.journal.file import JournalError
    from ono99tui.host.journal.history import journal_files, replay_match, step_lines
    from ono99tui.user_settings import data_dir

    if args.file is not None and args.last:
        print(_("ono99 replay: give a FILE or --last, not both"), file=sys.stderr)
        return 2
    if args.match is not None and args.file is None:
        print(_("ono99 replay: --match needs a FILE"), file=sys.stderr)
        return 2
    if args.player is not None and not args.review:
        print(_("ono99 replay: --player goes with --review"), file=sys.stderr)
        return 2
    if args.review and (args.json or args.list):
        print(_("ono99 replay: --review opens the review; not with --json or --list"),
              file=sys.stderr)
        return 2
    if args.list:
        files = [args.file] if args.file is not None else journal_files(data_dir())
        if not files:
            print(_("ono99 replay: no table's journal in {folder}").format(
                folder=data_dir() / 'tables'),
                  file=sys.stderr)
            return 1
        return _list(files)
    try:
        if args.file is not None:
            match = match_from_file(args.file, args.match)
        else:
            match = last_match(data_dir())
        steps = replay_match(match)
        seat = review_seat(match, args.player) if args.review else None
    except ReplayRefused as error:
        print(_("ono99 replay: {error}").format(error=error), file=sys.stderr)
        return 1
    except (JournalError, OSError) as error:
        # A JournalError names its file; an OSError is about the file asked for.
        named = Path(getattr(error, "filename", None) or args.file or data_dir())
        print(_("ono99 replay: {problem}").format(problem=_problem(named, error)), file=sys.stderr)
        return 1
    if args.json:
        try:
            for line in step_lines(match, steps):
                print(json.dumps(line, ensure_ascii=False))
        except BrokenPipeError:  # `| head`: the reader has what it wanted
            sys.stderr.close()
        return 0
    from ono99tui.ui.app import Ono99App
    from ono99tui.ui.screens.replay import ReplayScreen

    screen: Screen[None] = ReplayScreen(match, steps)
    if seat is not None:
        from ono99tui.bots.review import decisions_in_replay
        from ono99tui.ui.screens.review import ReviewScreen

        # The review's own seed (0), as from the match-over dialog: the same plays reviewed
        # from the journal or at the table give the same figures.
        screen = ReviewScreen(decisions_in_replay(steps, seat), match.names[seat], quits=True)
    app = Ono99App(start_screen=screen, ascii_glyphs=True if args.ascii else None)
    app.run()
    return 0
