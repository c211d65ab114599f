"""`ono99 host --plain`: the table, plus the host's own seat in line mode (`ono99tui.line`).

The line-mode twin of `commands/host_with_app.py`, kept apart so that it never imports
Textual.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from ono99tui.commands.player_option import host_player_name, remember_player_name
from ono99tui.host.hosting import HostError
from ono99tui.host.options import HostOptions
from ono99tui.i18n import _

if TYPE_CHECKING:
    from ono99tui.line.start import LineSettings


def run_host_plain(options: HostOptions, player: str | None, settings: LineSettings, *,
                   unrated: bool = False) -> int:
    """Host the table of `options` with the host seated as `player` (`--player`, checked;
    remembered for next time) in line mode; the exit status."""
    from ono99tui.line.start import host_plain

    # Only the seat started here may act as the host, whoever else connects first.
    options = replace(options, table=replace(options.table, host_key=secrets.token_urlsafe(24)))
    if player is not None:
        problem = remember_player_name(player)
        if problem is not None:
            print(_("ono99 host: your name was not remembered: {problem}").format(
                problem=problem), file=sys.stderr)
    try:
        return asyncio.run(host_plain(options, host_player_name(player), settings=settings,
                                      unrated=unrated))
    except HostError as error:
        print(_("ono99 host: {error}").format(error=error), file=sys.stderr)
        return error.status
