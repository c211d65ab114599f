"""`ono99 host`: run a table on this machine and advertise it on the LAN.

`--headless` runs the table with no UI at all (servers, tests): Textual is never imported.
Without it the Textual app hosts the table and gives the host a seat (ono99tui.ui).

The parsed arguments become one `HostOptions` (`host_options_from_args`) here; nothing
below this package sees them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from netproto.lan.interfaces import add_mdns_interface_option
from netproto.wire.constants import DEFAULT_PORT
from ono99tui.commands.door_options import (
    add_door_arguments,
    ssh_door_from_args,
    web_door_from_args,
)
from ono99tui.commands.game_options import (
    add_level_option,
    add_rules_option,
    checked_bot_kind,
    checked_rules,
)
from ono99tui.commands.plain_option import add_plain_options
from ono99tui.commands.player_option import add_player_option
from ono99tui.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from ono99tui.host.journal.table import JournalChoice
    from ono99tui.host.options import HostOptions
    from ono99tui.host.table_config import TableConfig

# Translated where it is shown (cli.py).
HELP = N_("host a table on this network (--headless: no UI, for servers and tests)")
# A password on the command line is visible to every user in `ps`; the environment is not.
ADMIN_PASSWORD_ENV = "ONO99_ADMIN_PASSWORD"
# table_config.ABANDON_POLICIES, spelled out so that parsing arguments imports nothing.
ABANDON_POLICIES = ("bot", "eliminate")
# Exit statuses: the command line asks for something impossible / the machine refuses it.
USAGE_ERROR = 2
HOST_ERROR = 1


class HostArgumentsError(Exception):
    """The arguments cannot make a table; `status` is the exit status to give."""

    def __init__(self, message: str, status: int = USAGE_ERROR) -> None:
        super().__init__(message)
        self.status = status


def _seconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(_("must not be negative"))
    return value


# settings.DEFAULT_TURN_SECONDS / MIN_TURN_SECONDS / DEFAULT_TIMEOUTS_TO_ABANDON, spelled
# out for the same reason.
HEADLESS_TURN_SECONDS = 60.0
MIN_TURN_SECONDS = 1.0
DEFAULT_IDLE_LIMIT = 3


def _turn_time(text: str) -> float:
    """`--turn-time`: seconds (at least 1), or "off" (0: no clock)."""
    if text.strip().lower() == "off":
        return 0.0
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a number of seconds: {text!r}").format(
            text=text)) from None
    if not value >= MIN_TURN_SECONDS:  # also refuses nan
        raise argparse.ArgumentTypeError(ngettext(
            "must be at least {seconds:g} second", "must be at least {seconds:g} seconds",
            int(MIN_TURN_SECONDS)).format(seconds=MIN_TURN_SECONDS))
    return value


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {text!r}").format(
            text=text)) from None
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1"))
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The table's options; every one has a default, so `ono99 host` alone works."""
    parser.add_argument("--headless", action="store_true",
                        help=_("run the table without a UI (never imports Textual)"))
    parser.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                        help=_("address to listen on (default 0.0.0.0: every interface)"))
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=_("TCP port (default {default_port}; 0 picks a free one)").format(
                            default_port=DEFAULT_PORT))
    parser.add_argument("--name", default="ONO 99 table", metavar="TABLE",
                        help=_("the table's name (your own name is --player)"))
    # Checked when the command runs: a bad name must stop `ono99 host` before the table opens.
    add_player_option(parser, help_text=_("your name at your table (remembered for next time; "
                                          "default: the remembered name, else your login name)"))
    add_rules_option(parser)
    parser.add_argument("--seats", type=int, default=4, help=_("seats at the table (2-8)"))
    parser.add_argument("--bots", type=int, default=0, metavar="K",
                        help=_("seat K bots from the start"))
    add_level_option(parser, _("level of the bots seated by --bots and of stand-ins: {levels} "
                               "(default {default})"))
    parser.add_argument("--password", default=None, help=_("players must give this password"))
    parser.add_argument("--admin-password", default=None, metavar="PW",
                        help=_("headless: a player whose hello carries PW as its host key gets "
                               "host rights (start early, bots, rules); the operator key printed "
                               "at start does too. Without either nobody has them. Also read from "
                               "{admin_password_env}, which other users cannot see").format(
                            admin_password_env=ADMIN_PASSWORD_ENV))
    parser.add_argument("--start-when", type=int, default=None, metavar="N",
                        help=_("deal once N seats are taken (headless default: all seats)"))
    parser.add_argument("--grace", type=_seconds, default=60.0, metavar="S",
                        help=_("seconds a dropped player's seat is held before --on-abandon "
                               "applies"))
    parser.add_argument("--on-abandon", choices=ABANDON_POLICIES, default="bot",
                        help=_("after the grace period, in a match: a bot plays the seat on (bot, "
                               "the default) or the seat resigns and is out of the match "
                               "(eliminate); the player may come back to watch")),
    parser.add_argument("--turn-time", type=_turn_time, default=None, metavar="S",
                        help=_("seconds a player has for each move before a stand-in bot plays "
                               "their turn (at least 1, or off; default: off at a table with the "
                               "app, {headless_turn_seconds:g} s headless)").format(
                            headless_turn_seconds=HEADLESS_TURN_SECONDS))
    parser.add_argument("--idle-limit", type=_at_least_one, default=DEFAULT_IDLE_LIMIT,
                        metavar="N",
                        help=_("after N timed-out turns in a row --on-abandon applies to the seat "
                               "(default {default_idle_limit})").format(
                            default_idle_limit=DEFAULT_IDLE_LIMIT))
    parser.add_argument("--bot-delay", type=_seconds, default=0.6, metavar="S",
                        help=_("pause before a bot moves, so people can follow (0: none)"))
    parser.add_argument("--seed", type=int, default=None, help=_("seed every deal (replays)"))
    parser.add_argument("--hints", action="store_true",
                        help=_("allow players' apps to show hints (h at the table); the host may "
                               "switch it in the waiting room. An honour setting: the app works "
                               "the hint out from the player's own view"))
    parser.add_argument("--duplicate", action="store_true",
                        help=_("deal duplicate sets: each deal once per seat rotation, every "
                               "player compared with those who held the same cards "
                               "(docs/DUPLICATE.md); the host may switch it in the waiting room"))
    parser.add_argument("--exit-after", type=int, default=None, metavar="N",
                        help=_("headless: stop after N matches have been played"))
    parser.add_argument("--no-ratings", action="store_true",
                        help=_("rate nobody at this table (by default every finished match "
                               "updates its players' ratings in the data directory)"))
    parser.add_argument("--unrated", action="store_true",
                        help=_("do not rate your own seat (the others are rated)"))
    restart = parser.add_mutually_exclusive_group()
    restart.add_argument("--fresh", action="store_true",
                         help=_("start over: do not take up the unfinished match this table's "
                                "journal holds (by default a restarted host resumes it)"))
    restart.add_argument("--resume", default=None, metavar="FILE",
                         help=_("take up the unfinished match of this journal file (and go on "
                                "writing to it)"))
    parser.add_argument("--no-advertise", action="store_true",
                        help=_("do not advertise the table with mDNS"))
    add_mdns_interface_option(parser)
    add_door_arguments(parser)
    add_plain_options(parser)


def admin_password_from(args: argparse.Namespace, *, headless: bool = True) -> str | None:
    """The admin password: `--admin-password`, else (headless) the environment's."""
    if args.admin_password is not None:
        return str(args.admin_password)
    return os.environ.get(ADMIN_PASSWORD_ENV) if headless else None


def table_config_from_args(args: argparse.Namespace, *, headless: bool) -> TableConfig:
    """The TableConfig the options describe; raises ValueError with a readable message."""
    from ono99tui.game.rules import MAX_PLAYERS, MIN_PLAYERS
    from ono99tui.host.table_config import HEADLESS_DEAL_SETTLE, TableConfig

    # Said here, in the player's language, what TableConfig would refuse in English (its
    # words are for logs and for a journal that does not describe a table).
    if not MIN_PLAYERS <= args.seats <= MAX_PLAYERS:
        raise ValueError(_("--seats must be {lowest} to {highest}, not {seats}").format(
            lowest=MIN_PLAYERS, highest=MAX_PLAYERS, seats=args.seats))
    if args.start_when is not None and not MIN_PLAYERS <= args.start_when <= args.seats:
        raise ValueError(_("--start-when must be {lowest} to the number of seats ({seats}), "
                           "not {start_when}").format(lowest=MIN_PLAYERS, seats=args.seats,
                                                      start_when=args.start_when))
    if not args.name.strip():
        raise ValueError(_("--name: a table needs a name"))
    start_when = args.start_when
    if start_when is None and headless:
        start_when = args.seats
    turn_seconds = args.turn_time or None  # "off" is 0
    if args.turn_time is None and headless:
        turn_seconds = HEADLESS_TURN_SECONDS
    if not 0 <= args.bots <= args.seats:
        raise ValueError(_("--bots must be 0 to the number of seats ({seats}), not {bots}")
                         .format(seats=args.seats, bots=args.bots))
    return TableConfig(
        name=args.name, rules=checked_rules(args.rules), capacity=args.seats,
        password=args.password, admin_password=admin_password_from(args, headless=headless),
        start_when=start_when, grace_seconds=args.grace,
        abandon_policy=args.on_abandon, takeover_bot=checked_bot_kind(args.bot),
        bot_delay=args.bot_delay, turn_seconds=turn_seconds,
        timeouts_to_abandon=args.idle_limit, seed=args.seed, hints=args.hints,
        duplicate=args.duplicate,
        deal_settle_seconds=HEADLESS_DEAL_SETTLE if headless else 0.0)


def host_options_from_args(args: argparse.Namespace, *, headless: bool) -> HostOptions:
    """The table `ono99 host` is asked for, as one `HostOptions`.

    Raises HostArgumentsError with the message for the terminal and the exit status: 2 for
    arguments that contradict each other or the game, 1 for an mDNS interface this machine
    does not have.
    """
    from netproto.lan.interfaces import InterfaceError, resolve_interfaces
    from ono99tui.host.options import HostOptions, HostOptionsError

    doors = tuple(door for door in (ssh_door_from_args(args), web_door_from_args(args))
                  if door is not None)
    for door in doors:
        door_problem = door.problem()
        if door_problem is not None:
            raise HostArgumentsError(door_problem)
    if headless and args.player is not None:
        raise HostArgumentsError(
            _("--player names the host's own seat; a --headless table has none"))
    if headless and args.unrated:
        raise HostArgumentsError(
            _("--unrated is for the host's own seat; a --headless table has none (players "
              "ask with ono99 join --unrated)"))
    admin_password = admin_password_from(args, headless=headless)
    if not headless and admin_password is not None:
        raise HostArgumentsError(_(
            "--admin-password is for --headless tables: with the app, your own seat is the host"))
    if admin_password is not None and not admin_password:
        raise HostArgumentsError(_("--admin-password must not be empty"))
    if not 0 <= args.port <= 65535:
        raise HostArgumentsError(_("--port must be 0 to 65535, not {port}").format(
            port=args.port))
    try:
        table = table_config_from_args(args, headless=headless)
    except ValueError as error:
        raise HostArgumentsError(str(error)) from None
    try:
        advertise_on = () if args.no_advertise else tuple(resolve_interfaces(args.mdns_interface))
    except InterfaceError as error:
        raise HostArgumentsError(str(error), HOST_ERROR) from None
    try:
        return HostOptions(
            table=table, bind=args.bind, port=args.port, bots=args.bots,
            advertise_on=advertise_on, exit_after=args.exit_after,
            doors=doors, journal=journal_choice(args),
            ratings=None if args.no_ratings else ratings_file_path())
    except HostOptionsError as error:
        raise HostArgumentsError(str(error)) from None


def ratings_file_path() -> Path:
    """The ratings file of this machine's data directory (`ONO99_DATA_DIR` overrides it)."""
    from ono99tui.host.journal.ratings_file import ratings_path
    from ono99tui.user_settings import data_dir

    return ratings_path(data_dir())


def journal_choice(args: argparse.Namespace) -> JournalChoice:
    """The journal file the table keeps: `--resume FILE`, else the table's own file in the
    user data dir (`ONO99_DATA_DIR` overrides it), resumed from unless `--fresh`."""
    from pathlib import Path

    from ono99tui.host.journal.file import journal_path
    from ono99tui.host.journal.table import JournalChoice
    from ono99tui.user_settings import data_dir

    if args.resume is not None:
        return JournalChoice(path=Path(args.resume).expanduser(), named=True)
    return JournalChoice(path=journal_path(data_dir(), args.name), resume=not args.fresh)


def run(args: argparse.Namespace) -> int:
    """Run the table until interrupted (or --exit-after matches); returns the exit status."""
    from ono99tui.commands.player_option import PlayerNameError, checked_player_name

    try:
        player = checked_player_name(args.player)
    except PlayerNameError as error:
        print(_("ono99 host: {error}").format(error=error), file=sys.stderr)
        return USAGE_ERROR
    try:
        options = host_options_from_args(args, headless=args.headless)
    except HostArgumentsError as error:
        print(_("ono99 host: {error}").format(error=error), file=sys.stderr)
        return error.status
    from ono99tui.commands.plain_option import line_settings, use_high_contrast, wants_plain

    use_high_contrast(args)

    if not args.headless and wants_plain(args):
        from ono99tui.commands.host_plain import run_host_plain

        return run_host_plain(options, player, line_settings(args), unrated=args.unrated)
    if not args.headless:
        from ono99tui.commands.host_with_app import run_host

        return run_host(options, player=player, unrated=args.unrated)

    import asyncio

    from ono99tui.host.headless import serve_headless

    try:
        return asyncio.run(serve_headless(options))
    except OSError as error:
        print(_("ono99 host: cannot listen on {bind}:{port}: {error}").format(
            bind=options.bind, port=options.port, error=error.strerror or error), file=sys.stderr)
        return 1
