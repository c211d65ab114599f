"""The headless host: a TableServer, its bots, its doors and its mDNS advertisement, no UI.

Never imports Textual (a test checks it): this is what runs on a server with no terminal.
Its standard output is one JSON object per line: "listening", "resumed" (a match taken up
from the journal), one announcement per open door (e.g. "ssh-door"; a web door adds
"web-join", its one-step join address, again on SIGUSR1 with a new code), a "journal" line for
each thing the table's journal has to tell its operator (a write failed, the file was
deleted, a match could not be taken up), then "stopped".

Nobody at a headless table has host rights unless the operator hands them out: the
"listening" line carries a fresh `operator_key` (a `hello` with it as `host_key` gets host
rights; so does one with `--admin-password`, `TableConfig.admin_password`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import secrets
import signal
import sys

from ono99tui.host.core import FINISHED
from ono99tui.host.doors import HostLinkDoor, JoinCodeDoor
from ono99tui.host.hosting import HostError, hosted_table
from ono99tui.host.options import HostOptions
from ono99tui.host.outputs import TableSummary
from ono99tui.host.with_app import address_to_give

log = logging.getLogger(__name__)

# SIGHUP too: a host whose terminal closes must still withdraw its advertisement.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Replaces the web door's join code (docs/WEB.md "Joining in one step").
REPLACE_JOIN_CODE_SIGNAL = signal.SIGUSR1


async def serve_headless(options: HostOptions) -> int:
    """Serve the table until SIGINT/SIGTERM/SIGHUP or `exit_after` matches; the exit status."""
    options = with_operator_key(options)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s: %(message)s")
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    signalled = False

    def stop_by_signal() -> None:
        nonlocal signalled
        signalled = True
        stop.set()

    for signal_number in STOP_SIGNALS:
        loop.add_signal_handler(signal_number, stop_by_signal)
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
                              "port": server.port, "name": options.table.name,
                              "operator_key": options.table.host_key}), flush=True)
            if hosted.taken_up is not None:
                print(json.dumps(hosted.taken_up.announcement()), flush=True)
                log.info("%s", hosted.taken_up.notice())
            journal = hosted.journal
            if journal is not None:  # logged too: this is the line a script can watch for
                def journal_line(text: str, path: str = str(journal.path)) -> None:
                    print(json.dumps({"event": "journal", "journal": path, "message": text}),
                          flush=True)

                for notice in hosted.notices:
                    journal_line(notice)
                journal.on_trouble = journal_line
            # The doors' addresses name this machine as the host's app does, by the address
            # a friend can reach (an IP literal: a phone's camera, or a machine without
            # mDNS, may not resolve a host name).
            reachable = address_to_give(options.bind, hosted.interfaces)
            for door in hosted.doors:
                print(json.dumps(door.announcement(reachable)), flush=True)
                log.info("%s", door.log_line(reachable))
            web_doors = [door for door in hosted.doors if isinstance(door, JoinCodeDoor)]
            if web_doors:
                # SIGUSR1 replaces the join code.
                phone_host = reachable
                for web_door in web_doors:
                    print(json.dumps(web_door.join_announcement(phone_host)), flush=True)

                def replace_join_codes() -> None:
                    for web_door in web_doors:
                        web_door.replace_join_code()
                        print(json.dumps(web_door.join_announcement(phone_host)), flush=True)

                loop.add_signal_handler(REPLACE_JOIN_CODE_SIGNAL, replace_join_codes)
            host_key = options.table.host_key
            for door in hosted.doors:
                if isinstance(door, HostLinkDoor) and host_key is not None:
                    # The operator's phone: only on stdout, as the operator key is.
                    print(json.dumps(door.host_link_announcement(reachable, host_key)),
                          flush=True)
            await stop.wait()
            if signalled:  # not --exit-after: a match in play may be taken up by a restart
                server.going_away()
    except HostError as error:
        print(f"ono99 host: {error}", file=sys.stderr)
        return error.status
    finally:
        for signal_number in (*STOP_SIGNALS, REPLACE_JOIN_CODE_SIGNAL):
            loop.remove_signal_handler(signal_number)
    print(json.dumps({"event": "stopped", "matches": finished_matches}), flush=True)
    return 0


def with_operator_key(options: HostOptions) -> HostOptions:
    """`options` with an operator key for the table (a fresh random one unless it has one).

    A headless table gives host rights only to a hello carrying a secret, never to the
    first guest to sit down: this key (printed for the operator) or the admin password.
    """
    if options.table.host_key is not None:
        return options
    table = dataclasses.replace(options.table, host_key=secrets.token_urlsafe(18))
    return dataclasses.replace(options, table=table)
