"""`HostOptions`: everything one hosted table is started with, typed and frozen.

`ono99 host` builds one from its command line (`ono99tui.commands.host`); `hosting`, the
headless runner and the launcher with the host's app take it and nothing else, so no
argparse namespace reaches this package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from netproto.wire.constants import DEFAULT_PORT
from ono99tui.host.doors import Door
from ono99tui.host.table_config import TableConfig

if TYPE_CHECKING:
    from netproto.server import ServerLimits
    from ono99tui.host.journal.table import JournalChoice


class HostOptionsError(ValueError):
    """The options contradict each other; the message says how."""


@dataclass(frozen=True, slots=True)
class HostOptions:
    """One table to host: its settings, where it listens, where it is advertised, its doors.

    The bots of `bots` are of the table's `takeover_bot` kind (the kind that also stands in
    for players who do not come back).
    """

    table: TableConfig = field(default_factory=TableConfig)
    # Where the table listens; port 0 picks a free port.
    bind: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    # Bots seated as soon as the table opens (before it is first advertised).
    bots: int = 0
    # IPv4 addresses the table is advertised on with mDNS; empty: not advertised.
    advertise_on: tuple[str, ...] = ()
    # Headless: stop once this many matches have been played (None: run until stopped).
    exit_after: int | None = None
    # Other ways in, opened in this order once the table listens, closed first on the way out.
    doors: tuple[Door, ...] = ()
    # The server's limits (None: netproto's defaults).
    limits: ServerLimits | None = None
    # The journal file the table appends to and may take up a match from (None: the
    # journal is kept in memory only, and a restart starts over).
    journal: JournalChoice | None = None
    # The ratings file the table rates its players with and keeps their changes in
    # (`ono99tui.host.journal.ratings_file`; None: nobody is rated).
    ratings: Path | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.bots <= self.table.capacity:
            raise HostOptionsError("the bots seated at the start must fit the table's seats")
        if not 0 <= self.port <= 65535:
            raise HostOptionsError(f"not a port number: {self.port}")
