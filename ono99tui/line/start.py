"""Line mode for `ono99 join --plain`, `ono99 solo --plain` and `ono99 host --plain`.

Each builds a `LineFrontEnd` with the connection it needs (a table found on the LAN or
given by address, with the seat's resume token; a solo table started in-process; the
host's own seat) and runs it. Nothing here imports Textual.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TextIO

from netproto.addresses import Address, AddressError, parse_address
from ono99tui.i18n import _, ngettext
from ono99tui.line.front_end import LineFrontEnd
from ono99tui.line.output import DEFAULT_WIDTH, LineWriter
from ono99tui.line.sentences import table_list_lines
from ono99tui.words.addresses import address_problem

if TYPE_CHECKING:
    from netproto.client import TableClient
    from netproto.lan.discovery import DiscoveredTable
    from ono99tui.client.session import Hosting
    from ono99tui.host.hosting import HostedTable
    from ono99tui.host.options import HostOptions
    from ono99tui.host.server import TableServer

# Seconds the LAN is listened to before the tables found are listed.
LAN_LISTEN_SECONDS = 3.0


@dataclass(frozen=True, slots=True)
class LineSettings:
    """How line mode writes: colour (`--color`), the bell, the width of a line."""

    color: bool = False
    bell: bool = False
    width: int = DEFAULT_WIDTH


def _writer(settings: LineSettings, stream: TextIO | None = None) -> LineWriter:
    return LineWriter(stream or sys.stdout, width=settings.width, color=settings.color,
                      bell=settings.bell)


def _front_end(connect: Callable[[bool], Awaitable[TableClient]], settings: LineSettings, *,
               hosting: Hosting, can_rejoin: bool, intro: Sequence[str] = ()) -> LineFrontEnd:
    from ono99tui.client.session import TableSession

    return LineFrontEnd(connect, writer=_writer(settings),
                        session=TableSession(hosting=hosting, can_rejoin=can_rejoin),
                        intro=list(intro))


# --- ono99 join --plain --------------------------------------------------------------------


def _ask(writer: LineWriter, question: str) -> str | None:
    """Ask one question on its own prompt line; None at the end of input."""
    writer.prompt(question)
    line = sys.stdin.readline()
    writer.input_taken(echoed=sys.stdin.isatty())
    if not line:
        return None
    return line.strip()


def _pick_table(writer: LineWriter, tables: Sequence[DiscoveredTable]
                ) -> DiscoveredTable | Address | None:
    """The table the player picks from the numbered list (or an address they type)."""
    writer.say_all(table_list_lines(tables))
    while True:
        answer = _ask(writer, _("Table number or address") if tables else _("Address"))
        if answer is None or answer.lower() in ("q", "quit"):
            return None
        if answer.isdigit() and tables:
            number = int(answer)
            if 1 <= number <= len(tables):
                return tables[number - 1]
            writer.say(_("There is no table {number}: pick 1 to {count}.").format(
                number=number, count=len(tables)), "error")
            continue
        try:
            return parse_address(answer)
        except AddressError as error:
            writer.say(_("Not a table number or an address: {error}.").format(
                error=address_problem(error)),
                       "error")


async def join_plain(address: Address | None, *, name: str | None,
                     interfaces: list[str] | None, spectate: bool = False,
                     host_key: str | None = None, unrated: bool = False,
                     settings: LineSettings = LineSettings(),
                     remembered: str = "", remember: Callable[[str], object] | None = None
                     ) -> int:
    """`ono99 join --plain`: straight to `address`, or the tables found on the LAN in a
    numbered list; the seat's resume token is offered, so joining again after a lost
    connection takes the seat back. `name`: given on the command line; else `remembered`,
    else asked for, and then kept with `remember`."""
    from ono99tui.client.joining import JoinError, JoinRequest, connect
    from ono99tui.user_settings import ResumeTokens

    writer = _writer(settings)
    writer.say(_("ONO 99, line mode."))
    player = name or remembered
    while not player:
        typed = _ask(writer, _("Your name"))
        if typed is None:
            writer.goodbye()
            return 0
        from netproto.wire.errors import BadName
        from netproto.wire.names import clean_name

        try:
            player = clean_name(typed)
        except BadName as error:
            writer.say(_("Not a name: {reason}.").format(reason=error.reason), "error")
    if name is None and player != remembered and remember is not None:
        remember(player)
    if address is not None:
        request = JoinRequest.for_address(address, player, spectate=spectate)
    else:
        from netproto.lan.discovery import find_tables

        if interfaces is None:
            writer.say(_("No network to look on: give the table's address."), "error")
            return 2
        writer.say(_("Looking for tables on the network..."))
        tables = sorted(await find_tables(interfaces, LAN_LISTEN_SECONDS),
                        key=lambda table: table.info.name.casefold())
        picked = _pick_table(writer, tables)
        if picked is None:
            writer.goodbye()
            return 0
        request = (JoinRequest.for_address(picked, player, spectate=spectate)
                   if isinstance(picked, Address)
                   else JoinRequest.for_table(picked, player, spectate=spectate))
    if host_key is not None:
        request = replace(request, host_key=host_key)
    if unrated:
        request = replace(request, unrated=True)
    tokens = ResumeTokens()
    # The first connection is made here, before the front end reads the keyboard, so a
    # password can be asked for on a prompt of its own.
    writer.say(_("Joining {table} as {name}.").format(table=request.label, name=player))
    while True:
        try:
            first: TableClient | None = await connect(request, tokens)
            break
        except JoinError as error:
            if error.code != "bad-password":
                writer.say(_("Could not join: {reason}").format(reason=error.reason), "error")
                writer.goodbye()
                return 1
            if request.password is not None:
                writer.say(_("Wrong password."), "error")
            typed = _ask(writer, _("Password"))
            if typed is None:
                writer.goodbye()
                return 1
            request = request.with_password(typed)

    async def connecting(seat: bool) -> TableClient:
        nonlocal first
        if first is not None:
            client, first = first, None
            return client
        return await connect(replace(request, spectate=False) if seat else request, tokens)

    front = _front_end(connecting, settings, hosting="guest", can_rejoin=True)
    return await front.run()


# --- ono99 solo --plain --------------------------------------------------------------------


def solo_intro(bots: int) -> str:
    """The first line of a solo match in line mode: how many bots it is against."""
    return ngettext("ONO 99, line mode: a solo match against {count} bot.",
                    "ONO 99, line mode: a solo match against {count} bots.",
                    bots).format(count=bots)


async def solo_plain(start_server: Callable[[Callable[[str], None]], Awaitable[TableServer]],
                     *, name: str, bots: int, bot: str,
                     settings: LineSettings = LineSettings()) -> int:
    """`ono99 solo --plain`: the table starts in-process, the player sits first, the bots
    after."""
    from netproto.client import TableClient

    async def connecting(seat: bool) -> TableClient:
        server = await start_server(front.tell_host)
        client = await TableClient.connect("127.0.0.1", server.port, name=name)
        for _index in range(bots):
            server.table.add_bot(bot)  # the table deals once every seat is taken
        return client

    front = _front_end(connecting, settings, hosting="solo", can_rejoin=False,
                       intro=[solo_intro(bots)])
    return await front.run()


# --- ono99 host --plain --------------------------------------------------------------------


async def host_plain(options: HostOptions, player: str, *,
                     settings: LineSettings = LineSettings(), unrated: bool = False) -> int:
    """`ono99 host --plain`: the table, advertised, with the host's own seat in line mode."""
    from netproto.addresses import loopback_for
    from netproto.client import TableClient
    from ono99tui.host.with_app import host_table, invitation_for

    def make(hosted: HostedTable) -> LineFrontEnd:
        server = hosted.server
        config = server.table.config

        async def connecting(seat: bool) -> TableClient:
            return await TableClient.connect(
                loopback_for(options.bind), server.port, name=player,
                password=config.password, host_key=config.host_key, unrated=unrated)

        intro = [_("ONO 99, line mode: you host {table}.").format(table=config.name)]
        intro += invitation_for(hosted, options.bind).splitlines()
        if hosted.taken_up is not None:
            intro.append(hosted.taken_up.notice())
        intro += list(hosted.notices)
        return _front_end(connecting, settings, hosting="host", can_rejoin=True, intro=intro)

    async def run(front: LineFrontEnd) -> None:
        await front.run()

    return await host_table(options, make, run)
