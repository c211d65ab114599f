"""`ono99 bot HOST:PORT`: a computer player that joins a table over the network."""

from __future__ import annotations

import argparse
import sys

from netproto.constants import DEFAULT_PORT
from ono99tui.commands.game_options import add_level_option

HELP = "join a table as a computer player (for load and tests)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The table's address, the bot's kind, name and number of matches."""
    parser.add_argument("address", metavar="HOST[:PORT]", help=f"the table (port {DEFAULT_PORT} "
                        "if omitted)")
    add_level_option(parser, "this bot")
    parser.add_argument("--name", default=None, help="player name (default: the bot's kind)")
    parser.add_argument("--matches", type=int, default=1, metavar="N",
                        help="leave after N matches (default 1)")
    parser.add_argument("--password", default=None, help="the table's password, if it has one")
    parser.add_argument("--seed", type=int, default=None, help="seed the bot's choices")


def run(args: argparse.Namespace) -> int:
    """Play, print a one-line JSON report; 0 after N matches, 1 on any error."""
    import asyncio
    import json
    import random

    from netproto.addresses import AddressError, parse_address
    from netproto.client import ClientError, TableClient
    from ono99tui.bot_player import BotPlayerError, play_matches
    from ono99tui.bots import UnknownBot, make_bot
    from ono99tui.connect_errors import connect_error_text

    try:
        address = parse_address(args.address)
    except AddressError as error:
        print(f"ono99 bot: {error}; give the table as HOST:PORT", file=sys.stderr)
        return 2
    try:
        bot = make_bot(args.bot)
    except UnknownBot as error:
        print(f"ono99 bot: {error}", file=sys.stderr)
        return 2
    if args.matches < 1:
        print("ono99 bot: --matches must be at least 1", file=sys.stderr)
        return 2

    async def play() -> int:
        client = await TableClient.connect(address.host, address.port,
                                           name=args.name or f"{args.bot} bot",
                                           password=args.password)
        report = await play_matches(client, bot, args.matches, random.Random(args.seed))
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
        print(f"ono99 bot: {words or error}", file=sys.stderr)
    return 1
