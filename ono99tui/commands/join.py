"""`ono99 join [HOST[:PORT]]`: the lobby of tables on the LAN, or straight to one table."""

from __future__ import annotations

import argparse
import sys

from netproto.addresses import Address, WebAddress
from netproto.lan.interfaces import add_mdns_interface_option
from netproto.wire.constants import DEFAULT_PORT
from ono99tui.commands.plain_option import add_plain_options
from ono99tui.commands.player_option import add_player_option
from ono99tui.i18n import N_, _

# Translated where it is shown (cli.py).
HELP = N_("join a table: pick one found on the network, or give its address")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The join options; with no address the lobby lists the tables found on the LAN."""
    parser.add_argument(
        "address",
        nargs="?",
        metavar="HOST[:PORT]",
        help=_("go straight to the table at this address (default port {default_port})").format(
            default_port=DEFAULT_PORT),
    )
    # --name: the older spelling. Checked before the lobby opens, as the table would.
    add_player_option(parser, "--name", dest="name")
    # The doors' way in: their user's name (an SSH user name may be a name the table
    # refuses) starts the lobby, which says what is wrong and lets it be corrected in place.
    parser.add_argument("--lobby-name", default=None, metavar="NAME",
                        help=_("start the lobby with this name, checked there, where a bad one can "
                               "be corrected (the SSH and web doors pass their user's name so)"))
    parser.add_argument("--spectate", action="store_true", help=_("watch instead of playing"))
    parser.add_argument("--ascii", action="store_true", help=_("draw with ASCII characters only"))
    parser.add_argument("--host-key", default=None, metavar="KEY",
                        help=_("a headless table's admin password or operator key: take its host "
                               "rights (start, bots, rules)"))
    parser.add_argument("--unrated", action="store_true",
                        help=_("ask the table not to rate you (your rating is neither shown "
                               "nor changed)"))
    add_plain_options(parser)
    add_mdns_interface_option(parser)


def _table_behind(web: WebAddress) -> Address | None:
    """The table whose web door a friend's pasted address `web` is (said on stderr, where
    it is read once the app has quit: the line to type next time); None, with why and the
    line to use instead, when that address has no ono99 table behind it."""
    from ono99tui.web.table_behind import NoTableBehind, table_behind

    try:
        address = table_behind(web)
    except NoTableBehind as error:
        print(_("ono99 join: {web} is a web address, for a browser; {error}. Join with the table's "
                "own address, the line the host's screen shows after 'Others join with': ono99 "
                "join {address} (if the host kept the usual port)").format(
            web=web, error=error, address=Address(web.host, DEFAULT_PORT)), file=sys.stderr)
        return None
    print(_("ono99 join: {web} is the web door of the table at {address}: joining it (next time: "
            "ono99 join {address})").format(web=web, address=address), file=sys.stderr)
    return address


def run(args: argparse.Namespace) -> int:
    """Open the lobby (or the table at `address`); returns the exit status."""
    from netproto.addresses import AddressError, WebAddressGiven, parse_address
    from netproto.lan.interfaces import InterfaceError, resolve_interfaces
    from ono99tui.commands.player_option import PlayerNameError, checked_player_name
    from ono99tui.words.addresses import address_problem

    try:
        name = checked_player_name(args.name, "--player/--name")
    except PlayerNameError as error:
        print(_("ono99 join: {error}").format(error=error), file=sys.stderr)
        return 2
    if name is None:
        name = args.lobby_name
    if args.address is not None:
        try:
            address = parse_address(args.address)
        except WebAddressGiven as given:
            found = _table_behind(given.web)
            if found is None:
                return 2
            address = found
        except AddressError as error:
            print(_("ono99 join: {error}").format(error=address_problem(error)), file=sys.stderr)
            return 2
        # The address needs no mDNS; the lobby browses only if the player comes back to
        # it (the table closed), so a bad interface must not stop this join.
        try:
            interfaces = resolve_interfaces(args.mdns_interface)
        except InterfaceError:
            interfaces = None
    else:
        address = None
        try:
            interfaces = resolve_interfaces(args.mdns_interface)
        except InterfaceError as error:
            print(_("ono99 join: {error}").format(error=error), file=sys.stderr)
            return 2

    from ono99tui.commands.plain_option import line_settings, use_high_contrast, wants_plain

    use_high_contrast(args)

    if wants_plain(args):
        import asyncio

        from ono99tui.commands.player_option import remember_player_name, remembered_player_name
        from ono99tui.line.start import join_plain

        return asyncio.run(join_plain(address, name=name, interfaces=interfaces,
                                      spectate=args.spectate, host_key=args.host_key,
                                      unrated=args.unrated,
                                      settings=line_settings(args),
                                      remembered=remembered_player_name(),
                                      remember=remember_player_name))

    from ono99tui.ui.app import Ono99App
    from ono99tui.ui.screens.lobby import LobbyScreen

    def lobby() -> LobbyScreen:
        return LobbyScreen(
            interfaces, name=name, join_address=address, spectate=args.spectate,
            host_key=args.host_key, unrated=args.unrated,
        )

    app = Ono99App(start_screen=lobby, ascii_glyphs=True if args.ascii else None)
    app.run()
    return app.return_code or 0
