"""`ono99 list`: print the tables advertised on the LAN, and whether each one answers.

A host killed without an mDNS goodbye stays advertised for minutes: after listening, every
table found is probed with a TCP connect (all at once, at most 2 s), so a dead one shows
`REACHABLE no` (`"answering": false` in JSON) instead of passing for a live one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from netproto.addresses import Address
from netproto.lan.interfaces import InterfaceError, add_mdns_interface_option, resolve_interfaces
from ono99tui.i18n import N_, _

if TYPE_CHECKING:
    from netproto.lan.discovery import DiscoveredTable

# Translated where it is shown (cli.py).
HELP = N_("list the tables advertised on the local network")
DEFAULT_TIMEOUT_SECONDS = 1.5
_COLUMNS = ("TABLE", "HOST", "ADDRESS", "RULES", "SEATS", "STATE", "PASSWORD", "REACHABLE")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add `--timeout`, `--json` and `--mdns-interface`."""
    parser.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=DEFAULT_TIMEOUT_SECONDS,
        metavar="S",
        help=_("seconds to listen for tables (default {default_timeout_seconds})").format(
            default_timeout_seconds=DEFAULT_TIMEOUT_SECONDS),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print a JSON array of tables instead of a table")
    )
    add_mdns_interface_option(parser)


def run(args: argparse.Namespace) -> int:
    """Browse for `args.timeout` seconds, probe what was found, print it; 0 even for nothing."""
    try:
        interfaces = resolve_interfaces(args.mdns_interface)
    except InterfaceError as error:
        print(_("ono99 list: {error}").format(error=error), file=sys.stderr)
        return 2

    import asyncio

    try:
        tables = asyncio.run(find_and_probe_tables(interfaces, args.timeout))
    except OSError as error:
        print(_("ono99 list: cannot use mDNS on {interfaces}: {error}").format(
            interfaces=', '.join(interfaces), error=error), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([{**table.as_dict(), "answering": answering}
                          for table, answering in tables], indent=2))
    elif tables:
        print(format_tables(tables))
    else:
        print(_("No tables found on {interfaces} within {timeout:g} s.").format(
            interfaces=', '.join(interfaces), timeout=args.timeout))
    return 0


async def find_and_probe_tables(
    interfaces: Sequence[str], timeout: float
) -> list[tuple[DiscoveredTable, bool]]:
    """The tables found within `timeout` seconds, sorted by name, each with whether it answers."""
    import asyncio

    from netproto.lan.discovery import find_tables
    from netproto.lan.reachability import MAX_CONCURRENT_PROBES, any_answers

    tables = await find_tables(interfaces, timeout)
    slots = asyncio.Semaphore(MAX_CONCURRENT_PROBES)

    async def probe(table: DiscoveredTable) -> bool:
        async with slots:
            return await any_answers(table.info.addresses, table.info.port)

    answers = await asyncio.gather(*(probe(table) for table in tables))
    return list(zip(tables, answers, strict=True))


def format_tables(tables: Sequence[tuple[DiscoveredTable, bool]]) -> str:
    """The tables (each with whether it answers) as aligned plain-text columns under a header."""
    rows = [_COLUMNS] + [
        (
            table.info.name,
            table.info.host_player,
            ", ".join(str(Address(address, table.info.port)) for address in table.info.addresses),
            table.info.rules,
            f"{table.info.seats_taken}/{table.info.seats_total}",
            table.info.state.value,
            "yes" if table.info.password_required else "no",
            "yes" if answering else "no",
        )
        for table, answering in tables
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(_COLUMNS))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def _positive_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a number of seconds: {text!r}").format(
            text=text)) from None
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError(_("the timeout must be more than 0 and at most 3600 s"))
    return seconds
