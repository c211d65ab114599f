"""The headless host: a TableServer, its bots, its doors and its mDNS advertisement, no UI.

Never imports Textual (a test checks it): this is what runs on a server with no terminal.
Its standard output is one JSON object per line: "listening", one announcement per open
door (e.g. "ssh-door"), then "stopped".
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import socket
import sys

from ono99tui.host.core import FINISHED
from ono99tui.host.hosting import HostError, hosted_table
from ono99tui.host.options import HostOptions
from ono99tui.host.outputs import TableSummary

log = logging.getLogger(__name__)

# SIGHUP too: a host whose terminal closes must still withdraw its advertisement.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


async def serve_headless(options: HostOptions) -> int:
    """Serve the table until SIGINT/SIGTERM/SIGHUP or `exit_after` matches; the exit status."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s: %(message)s")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signal_number in STOP_SIGNALS:
        loop.add_signal_handler(signal_number, stop.set)
    finished_matches = 0
    last_phase = ""

    def count_matches(summary: TableSummary) -> None:
        # A match ends when the phase becomes "finished"; later changes while it stays
        # finished (players leaving, a newcomer sitting down) are not more matches.
        nonlocal finished_matches, last_phase
        ended = summary.phase == FINISHED and last_phase != FINISHED
        last_phase = summary.phase
        if ended:
            finished_matches += 1
            if options.exit_after is not None and finished_matches >= options.exit_after:
                stop.set()

    try:
        async with hosted_table(options, on_summary=count_matches) as hosted:
            server = hosted.server
            if hosted.interfaces:
                log.info("advertised on %s", ", ".join(hosted.interfaces))
            print(json.dumps({"event": "listening", "address": server.address[0],
                              "port": server.port, "name": options.table.name}), flush=True)
            for door in hosted.doors:
                print(json.dumps(door.announcement(socket.gethostname())), flush=True)
                log.info("%s", door.log_line(socket.gethostname()))
            await stop.wait()
    except HostError as error:
        print(f"ono99 host: {error}", file=sys.stderr)
        return error.status
    finally:
        for signal_number in STOP_SIGNALS:
            loop.remove_signal_handler(signal_number)
    print(json.dumps({"event": "stopped", "matches": finished_matches}), flush=True)
    return 0
