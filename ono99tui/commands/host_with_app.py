"""`ono99 host` without `--headless`: the table, plus the host's own seat in the Textual app.

Kept apart from `commands/host.py` so that parsing arguments and the headless host never
import Textual.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace

from netproto.addresses import loopback_for
from ono99tui.commands.player_option import host_player_name, remember_player_name
from ono99tui.host.hosting import HostedTable, HostError
from ono99tui.host.options import HostOptions
from ono99tui.host.with_app import address_to_give, host_table, invitation_for
from ono99tui.i18n import _
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.web.host_door import OpenWebDoor


async def run_in_terminal(app: Ono99App) -> None:
    """Run the host's app in this terminal until it quits."""
    await app.run_async()


async def serve_with_app(
    options: HostOptions,
    player: str | None = None,
    run_app: Callable[[Ono99App], Awaitable[None]] = run_in_terminal,
    *,
    unrated: bool = False,
) -> int:
    """Host the table with the host's app seated at it as `player` (`--player`, already
    checked; remembered for next time); the app's exit status.

    `run_app` runs the app until it quits (tests drive it with Textual's Pilot instead).
    """
    if player is not None:
        problem = remember_player_name(player)
        if problem is not None:  # on the terminal again once the app's screen is gone
            print(_("ono99 host: your name was not remembered: {problem}").format(
                problem=problem), file=sys.stderr)
    name = host_player_name(player)

    def make_app(hosted: HostedTable) -> Ono99App:
        # The first web door's one-step join address (`j` in the waiting room), naming
        # this machine by the IP literal the invitation gives.
        web_doors = [door for door in hosted.doors if isinstance(door, OpenWebDoor)]
        join = (web_doors[0].join_link(address_to_give(options.bind, hosted.interfaces))
                if web_doors else None)
        return host_app(hosted.server, player=name, connect_to=loopback_for(options.bind),
                        invite=invitation_for(hosted, options.bind),
                        notice=hosted.taken_up.notice() if hosted.taken_up else "",
                        warnings=hosted.notices, join=join, unrated=unrated)

    return await host_table(options, make_app, run_app)


def run_host(options: HostOptions, player: str | None = None, *, unrated: bool = False) -> int:
    """The non-headless `ono99 host` of `options`, seating the host as `player` (not
    rated with `unrated`); returns the exit status."""
    # Only the app started here may act as the host, whoever else connects first.
    options = replace(options, table=replace(options.table, host_key=secrets.token_urlsafe(24)))
    try:
        return asyncio.run(serve_with_app(options, player, unrated=unrated))
    except HostError as error:
        print(_("ono99 host: {error}").format(error=error), file=sys.stderr)
        return error.status
