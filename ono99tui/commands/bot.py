"""`ono99 bot HOST:PORT`: a computer player that joins a table over the network."""

from __future__ import annotations

import argparse
import signal
import sys

from netproto.lan.interfaces import add_mdns_interface_option
from netproto.wire.constants import DEFAULT_PORT
from ono99tui.commands.game_options import add_level_option
from ono99tui.commands.player_option import add_player_option
from ono99tui.i18n import N_, _

# Translated where it is shown (cli.py).
HELP = N_("join a table as a computer player (for load and tests)")
# Each of these stops the bot, which says bye first (SIGHUP: its terminal closed).
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The table's address, the bot's kind, name and number of matches."""
    parser.add_argument("address", metavar="HOST[:PORT]", help=_("the table (port {default_port} "
                                                                 "if omitted)").format(
        default_port=DEFAULT_PORT))
    add_level_option(parser, _("level of this bot: {levels} (default {default})"))
    add_player_option(parser, "--name", dest="name",
                      help_text=_("the bot's name at the table (default: its kind)"))
    parser.add_argument("--matches", type=int, default=1, metavar="N",
                        help=_("leave after N matches (default 1)"))
    parser.add_argument("--password", default=None, help=_("the table's password, if it has one"))
    parser.add_argument("--seed", type=int, default=None, help=_("seed the bot's choices"))
    # Where to look for the table by its name if its host comes back on another port.
    add_mdns_interface_option(parser)


def run(args: argparse.Namespace) -> int:
    """Play, print a one-line JSON report; 0 after N matches, 1 on any error."""
    import asyncio
    import json
    import random

    from netproto.addresses import AddressError, parse_address
    from netproto.client import TableClient
    from netproto.client_errors import ClientError
    from netproto.lan.interfaces import InterfaceError, resolve_interfaces
    from netproto.lan.refind import refinder_for
    from ono99tui.bots import UnknownBot, make_bot
    from ono99tui.client.bot_player import BotPlayerError, play_matches
    from ono99tui.client.connect_errors import connect_error_text
    from ono99tui.commands.player_option import PlayerNameError, checked_player_name
    from ono99tui.words.addresses import address_problem

    try:
        name = checked_player_name(args.name, "--player/--name")
    except PlayerNameError as error:
        print(_("ono99 bot: {error}").format(error=error), file=sys.stderr)
        return 2
    try:
        address = parse_address(args.address)
    except AddressError as error:
        print(_("ono99 bot: {error}; give the table as HOST:PORT").format(
            error=address_problem(error)), file=sys.stderr)
        return 2
    try:
        bot = make_bot(args.bot)
    except UnknownBot as error:
        print(_("ono99 bot: {error}").format(error=error), file=sys.stderr)
        return 2
    if args.matches < 1:
        print(_("ono99 bot: --matches must be at least 1"), file=sys.stderr)
        return 2
    # The address needs no mDNS: without a usable interface the bot only loses the
    # ability to find its table again after the host moved.
    try:
        interfaces: list[str] | None = resolve_interfaces(args.mdns_interface)
    except InterfaceError:
        interfaces = None

    async def play() -> int:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        stopped_by: list[signal.Signals] = []

        def stop(signal_number: signal.Signals) -> None:
            if not stopped_by:
                stopped_by.append(signal_number)
                task.cancel()

        for signal_number in STOP_SIGNALS:
            loop.add_signal_handler(signal_number, stop, signal_number)
        client: TableClient | None = None
        try:
            client = await TableClient.connect(address.host, address.port,
                                               name=name or f"{args.bot} bot",
                                               password=args.password)
            client.relocator = refinder_for(client.welcome, interfaces)
            report = await play_matches(client, bot, args.matches, random.Random(args.seed))
        except asyncio.CancelledError:
            if not stopped_by:
                raise
            task.uncancel()
            print(_("ono99 bot: stopped by {name}; left the table").format(
                name=stopped_by[0].name),
                  file=sys.stderr)
            return 128 + stopped_by[0]
        finally:
            # Every way out says bye (a signal, an error, the matches played): a seat
            # left without one is held for the table's grace period, as after a drop.
            if client is not None:
                await client.close("the bot stopped")
            for signal_number in STOP_SIGNALS:
                loop.remove_signal_handler(signal_number)
        print(json.dumps({"seat": report.seat if report.seat is not None else client.seat,
                          "matches": report.matches,
                          "moves": report.moves, "stale": report.stale,
                          "reconnects": report.reconnects, "winners": report.winners}))
        return 0

    try:
        return asyncio.run(play())
    except (ClientError, BotPlayerError, OSError) as error:
        # Not a table there (nothing listening, another protocol) in words; else as said.
        words = connect_error_text(error, address.host, address.port)
        print(_("ono99 bot: {error}").format(error=words or error), file=sys.stderr)
    return 1
