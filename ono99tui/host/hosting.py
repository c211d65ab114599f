"""Open one table for hosting: its server, bots, doors and mDNS advertisement, in order.

Both ways of hosting use this: the headless host (`ono99tui.host.headless`) and the host with
its own app (`ono99tui.host.with_app`). Keeping the start-up order and the teardown in one
place matters: the journal's unfinished match is taken up (`ono99tui.host.journal.table`),
with the table options it was played with, before the table listens, so that nobody is
seated in its place (a table whose last match is over counts on from it instead); what the
journal has to say is logged only once the table listens, so that a port already taken is
the one error a second host of the same table prints; the bots are seated before
the first advertisement so it counts them (none when a match was taken up: it has its own),
the doors' ports go into that advertisement, and on every way out the doors close first (no
new players), then the server, then the advertisement is withdrawn.

The doors (the SSH door, later the web door) come in `HostOptions.doors`, built by the
command: this package never imports them. Never imports Textual either: the headless host
runs on machines with no terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import os
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from netproto.wire.messages import PROTOCOL_VERSION
from ono99tui.gc_freeze import startup_objects_frozen
from ono99tui.host.doors import DoorError, OpenDoor
from ono99tui.host.journal.ratings_file import Ratings, RatingsDamaged, open_ratings
from ono99tui.host.journal.resume import ResumeError, Standing
from ono99tui.host.journal.table import FileJournal, JournalUnusable, open_table_journal
from ono99tui.host.options import HostOptions
from ono99tui.host.outputs import TableSummary
from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig, TableConfigError, with_table_options

if TYPE_CHECKING:
    from netproto.lan.discovery import TableAdvertiser, TableInfo

log = logging.getLogger(__name__)


class HostError(Exception):
    """The table could not be opened; the message says why, for the terminal, and
    `status` is the exit status to give (2: the operator must choose, e.g. a damaged
    journal)."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class TakenUp:
    """The unfinished match a (re)started host took up from its table's journal."""

    journal: Path
    match: int  # the match's number at this table
    rules: str  # its rules' name
    seats: tuple[str, ...]  # who sits at it, in seat order
    moves: int  # the records replayed after its deal

    def notice(self) -> str:
        """One line for the person who started the host: what was taken up, and how
        not to (an old match of a table with the same name is taken up too, which the
        person may not have expected)."""
        return (f"Took up the unfinished match from this table's journal ({self.rules} "
                f"rules; {', '.join(self.seats)}). To start over instead: "
                "ono99 host --fresh")

    def announcement(self) -> dict[str, object]:
        """The JSON line a headless host prints about it."""
        return {"event": "resumed", "journal": str(self.journal), "match": self.match,
                "rules": self.rules, "seats": list(self.seats), "moves": self.moves}


@dataclass(frozen=True, slots=True)
class HostedTable:
    """A table open for play: what the caller runs beside it needs these."""

    server: TableServer
    # The doors that are open, in the order they were opened.
    doors: tuple[OpenDoor, ...]
    # The mDNS interfaces advertised on; empty when the table is not advertised.
    interfaces: tuple[str, ...]
    # The unfinished match taken up from the journal (None: the table starts afresh).
    taken_up: TakenUp | None = None
    # The table's journal file (None: kept in memory only, or none could be opened).
    journal: FileJournal | None = None
    # What the journal had to say at the start, for the person who started the host (also
    # logged): a match that could not be written, a journal this table cannot have.
    notices: tuple[str, ...] = ()


def table_info(summary: TableSummary, port: int, doors: Sequence[OpenDoor] = ()) -> TableInfo:
    """The discovery record for a table summary, with the port of every open door."""
    from netproto.lan.discovery import TableInfo, TableState

    info = TableInfo(
        protocol_version=PROTOCOL_VERSION, name=summary.name, host_player=summary.host_player,
        rules=summary.rules, seats_taken=summary.people, seats_total=summary.capacity,
        state=TableState(summary.phase), password_required=summary.password_required,
        port=port)
    if not doors:
        return info
    # Each door names its own field (TableInfo.ssh_port…), so this module need not know them.
    door_ports: dict[str, Any] = {door.advert_field: door.port for door in doors}
    return dataclasses.replace(info, **door_ports)


def listen_error(bind: str, port: int, error: OSError) -> str:
    """Why the table cannot listen, for the terminal: a port already taken says how to
    choose another."""
    # asyncio's own words ("error while attempting to bind on address …") say it twice.
    reason = os.strerror(error.errno) if error.errno else error.strerror or str(error)
    if error.errno == errno.EADDRINUSE:
        return (f"cannot listen on {bind}:{port}: {reason} (another table or program has "
                "it). Give this table another port with --port PORT (--port 0 picks a "
                "free one)")
    return f"cannot listen on {bind}:{port}: {reason}"


def going_on_with(config: TableConfig, standing: Standing, notices: list[str]) -> TableConfig:
    """`config` with the rules and table options the journal's last (finished) match was
    played with: a host restarted between two matches deals the next one as it would have
    without the restart (issue 22: a restarted host keeps the whole table). Options this
    table cannot be are passed over with a notice (the host's own are dealt then); the
    evening goes on either way. `ono99 host --fresh` starts from the host's own."""
    going_on = config
    if standing.rules is not None:
        going_on = dataclasses.replace(going_on, rules=standing.rules)
    if standing.table:
        try:
            going_on = with_table_options(going_on, standing.table)
        except TableConfigError as error:
            notices.append(f"The last match's table options are not usable ({error}): the "
                           "next match is dealt with this host's own.")
    if going_on != config:
        notices.append("The table goes on with the rules and options of its last match. "
                       "To start from this command's own: ono99 host --fresh")
    return going_on


@contextlib.asynccontextmanager
async def hosted_table(
    options: HostOptions,
    on_summary: Callable[[TableSummary], None] | None = None,
) -> AsyncIterator[HostedTable]:
    """Open the table `options` describes and keep its advertisement current until exit.

    `on_summary` is called after every change at the table (seats, phase). Raises
    `HostError` when the port, a door or the advertisement cannot be had.
    """
    from netproto.lan.discovery import InvalidTableInfo, TableAdvertiser

    loop = asyncio.get_running_loop()
    advertiser: TableAdvertiser | None = None
    doors: list[OpenDoor] = []
    # Advertisement updates run as tasks; references are kept so none is collected early.
    updates: set[asyncio.Task[None]] = set()

    def on_change(summary: TableSummary) -> None:
        if on_summary is not None:
            on_summary(summary)
        if advertiser is not None:
            task = loop.create_task(advertiser.update(table_info(summary, server.port, doors)))
            updates.add(task)
            task.add_done_callback(updates.discard)

    journal: FileJournal | None = None
    point = None
    config = options.table
    if options.journal is not None:
        try:
            journal, point = open_table_journal(options.journal)
        except JournalUnusable as error:
            raise HostError(str(error), status=2) from None
        if point is not None and point.table:
            try:  # the match goes on with the options it was played with
                config = with_table_options(config, point.table)
            except TableConfigError as error:
                journal.close()
                raise HostError(f"{journal.path}: the unfinished match cannot be taken up: "
                                f"{error}. Start over with --fresh", status=2) from None
        elif point is None and journal.standing is not None:
            config = going_on_with(config, journal.standing, journal.notices)
    ratings: Ratings | None = None
    ratings_notices: tuple[str, ...] = ()
    if options.ratings is not None:
        try:
            ratings = open_ratings(options.ratings)
        except RatingsDamaged as error:  # never reset: the table plays without ratings
            ratings_notices = (f"The ratings file is damaged, so this table rates nobody "
                               f"(the file is left as it is; mend it or move it away): "
                               f"{error}",)
    server = TableServer(config, limits=options.limits, on_change=on_change, journal=journal,
                         ratings=ratings)
    taken_up: TakenUp | None = None
    if journal is not None and point is not None:
        try:  # seated before anyone can connect and ask for a seat
            server.table.restore(point)
        except ResumeError as error:
            journal.close()
            raise HostError(f"{journal.path}: the unfinished match cannot be taken up: "
                            f"{error}. Start over with --fresh", status=2) from None
        taken_up = TakenUp(journal.path, point.number, point.rules.name or "custom", point.names,
                           len(point.steps))
    elif journal is not None and journal.standing is not None:
        server.table.go_on_from(journal.standing)
    try:
        await server.start(options.bind, options.port)
    except OSError as error:
        if journal is not None:
            journal.close()
        raise HostError(listen_error(options.bind, options.port, error)) from None
    notices = (tuple(journal.notices) if journal is not None else ()) + ratings_notices
    for notice in notices:
        log.warning("%s", notice)
    try:
        for _ in range(options.bots if point is None else 0):  # a match taken up has its bots
            server.table.add_bot(options.table.takeover_bot)
        for door in options.doors:
            try:
                doors.append(await door.open(server.port, server.trust_door))
            except (OSError, DoorError) as error:
                reason = error.strerror if isinstance(error, OSError) and error.strerror else error
                raise HostError(f"cannot open {door.title}: {reason}") from None
        if options.advertise_on:
            try:
                advertiser = TableAdvertiser(
                    table_info(server.table.summary(), server.port, doors),
                    list(options.advertise_on),
                )
            except InvalidTableInfo as error:
                raise HostError(str(error)) from None
            await advertiser.start()
        with startup_objects_frozen():
            yield HostedTable(server=server, doors=tuple(doors), interfaces=options.advertise_on,
                              taken_up=taken_up, journal=journal, notices=notices)
    finally:
        for open_door in reversed(doors):
            await open_door.close()
        await server.stop()
        if journal is not None:
            journal.close()
        for task in list(updates):
            task.cancel()
        if advertiser is not None:
            with contextlib.suppress(Exception):
                await advertiser.close()
