"""A small mDNS tool for debugging discovery, in the spirit of avahi-publish / avahi-browse.

    python -m netproto.lan.discovery_cli advertise --mdns-interface IF --info '{"name": ...}'
    python -m netproto.lan.discovery_cli browse --mdns-interface IF

`advertise` publishes one table built from a JSON object of `TableInfo` fields, reads
further JSON objects from standard input (each one's fields replace the current ones and
are advertised as an update), and withdraws the table on end of input, SIGINT, SIGTERM
or SIGHUP.
`browse` prints every table event. Both print one JSON object per line, stamped with
`time.monotonic()` (one clock for every process of the machine, so timings can be
compared across processes and network namespaces); the tests and bench/discovery.py use it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import signal
import sys
import time
from collections.abc import Sequence
from typing import Any

from netproto.lan.discovery import TableAdvertiser, TableBrowser, TableEvent, TableInfo
from netproto.lan.interfaces import add_mdns_interface_option, resolve_interfaces


def emit(event: str, **fields: Any) -> None:
    """Print one JSON line with the event name and a monotonic time stamp."""
    print(json.dumps({"event": event, "t": time.monotonic(), **fields}), flush=True)


def table_info_from_json(fields: dict[str, Any], base: TableInfo | None = None) -> TableInfo:
    """Build a TableInfo from JSON fields, starting from `base` when given."""
    if "addresses" in fields:
        fields = {**fields, "addresses": tuple(fields["addresses"])}
    if base is None:
        return TableInfo(**fields)
    return dataclasses.replace(base, **fields)


async def advertise(info: TableInfo, interfaces: list[str]) -> None:
    """Advertise until end of input or a stop signal, applying updates read from stdin."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    # SIGHUP too: closing the terminal must withdraw the table like Ctrl-C does.
    for signal_number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signal_number, stop.set)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    emit("starting")
    async with TableAdvertiser(info, interfaces) as advertiser:
        emit("registered", service_name=advertiser.service_name)
        stopped = asyncio.ensure_future(stop.wait())
        try:
            while True:
                next_line = asyncio.ensure_future(reader.readline())
                await asyncio.wait({next_line, stopped}, return_when=asyncio.FIRST_COMPLETED)
                if stopped.done():
                    next_line.cancel()
                    break
                line = next_line.result()
                if not line:
                    break
                await advertiser.update(table_info_from_json(json.loads(line), advertiser.info))
                emit("updated", service_name=advertiser.service_name)
        finally:
            stopped.cancel()
    emit("closed")


async def browse(interfaces: list[str], duration: float | None) -> None:
    """Print each table event until `duration` seconds have passed (or forever)."""

    def print_event(event: TableEvent) -> None:
        emit(event.change.value, table=event.table.as_dict())

    async with TableBrowser(interfaces, on_change=print_event):
        emit("browsing")
        await asyncio.sleep(duration if duration is not None else float("inf"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tool; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m netproto.lan.discovery_cli")
    commands = parser.add_subparsers(dest="command", required=True)
    advertise_parser = commands.add_parser("advertise", help="advertise one table")
    advertise_parser.add_argument("--info", required=True, help="TableInfo fields as JSON")
    browse_parser = commands.add_parser("browse", help="print table events")
    browse_parser.add_argument("--duration", type=float, default=None, help="seconds to browse")
    for sub in (advertise_parser, browse_parser):
        add_mdns_interface_option(sub)
    args = parser.parse_args(argv)
    interfaces = resolve_interfaces(args.mdns_interface)
    if args.command == "advertise":
        asyncio.run(advertise(table_info_from_json(json.loads(args.info)), interfaces))
    else:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(browse(interfaces, args.duration))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
