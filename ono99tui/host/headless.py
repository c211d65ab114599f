"""The headless host: a TableServer, its bots and its mDNS advertisement, and nothing else.

Never imports Textual (a test checks it): this is what runs on a server with no terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import socket
import sys

from ono99tui.host.hosting import HostError, hosted_table
from ono99tui.ssh.options import door_announcement
from ono99tui.host.core import FINISHED
from ono99tui.host.outputs import TableSummary
from ono99tui.host.settings import TableConfig

log = logging.getLogger(__name__)

# SIGHUP too: a host whose terminal closes must still withdraw its advertisement.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


async def serve_headless(args: argparse.Namespace, config: TableConfig) -> int:
    """Serve the table until SIGINT/SIGTERM/SIGHUP or `--exit-after` matches; the exit status."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s: %(message)s")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signal_number in STOP_SIGNALS:
        loop.add_signal_handler(signal_number, stop.set)
    finished_matches = 0

    def count_matches(summary: TableSummary) -> None:
        nonlocal finished_matches
        if summary.phase == FINISHED:
            finished_matches += 1
            if args.exit_after is not None and finished_matches >= args.exit_after:
                stop.set()

    try:
        async with hosted_table(args, config, on_summary=count_matches) as hosted:
            server, door = hosted.server, hosted.door
            if hosted.interfaces:
                log.info("advertised on %s", ", ".join(hosted.interfaces))
            print(json.dumps({"event": "listening", "address": server.address[0],
                              "port": server.port, "name": config.name}), flush=True)
            if door is not None:
                print(door_announcement(door, socket.gethostname()), flush=True)
                log.info("SSH door open: %s  (host key %s)",
                         door.ssh_command(socket.gethostname()), door.fingerprint)
            await stop.wait()
    except HostError as error:
        print(f"ono99 host: {error}", file=sys.stderr)
        return 1
    finally:
        for signal_number in STOP_SIGNALS:
            loop.remove_signal_handler(signal_number)
    print(json.dumps({"event": "stopped", "matches": finished_matches}), flush=True)
    return 0
