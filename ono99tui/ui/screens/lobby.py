"""The lobby of `ono99 join`: tables found on the LAN, live, and a way to any other table.

The list follows a `TableBrowser` (added / updated / removed as the hosts announce them),
and a `ReachabilityWatch` connects to each listed table every few seconds: a host that died
without saying goodbye stays advertised for minutes, but is shown dimmed as "no reply" as
soon as its port stops answering (and normal again if it answers again). A typed
`HOST[:PORT]` reaches a table when multicast is blocked. The player's name is
remembered in the config directory. Joining connects here, asks for the password when the
table wants one, then hands the connected client up to the app (`LobbyScreen.Joined`),
which opens the table's waiting room.
"""

from __future__ import annotations

import asyncio
import getpass
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, TypedDict, Unpack

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, Static

from netproto.addresses import Address, AddressError, WebAddress, WebAddressGiven, parse_address
from netproto.client import ClientSettings, TableClient
from netproto.lan.discovery import DiscoveredTable, TableBrowser, TableChange, TableEvent
from netproto.lan.reachability import PROBE_INTERVAL_SECONDS, ReachabilityWatch
from netproto.lan.refind import refinder_for
from netproto.wire.constants import DEFAULT_PORT
from netproto.wire.errors import BadName
from netproto.wire.names import clean_name
from ono99tui.client.joining import JoinError, JoinRequest, connect, keep_seat
from ono99tui.i18n import N_, _, ngettext
from ono99tui.ssh import ssh_command_line
from ono99tui.ui.glyphs import Glyphs
from ono99tui.ui.screens.password_prompt import PasswordPrompt
from ono99tui.ui.session_app import SessionApp
from ono99tui.user_settings import ConfigError, ResumeTokens, Settings, load_settings, save_settings
from ono99tui.web import web_url
from ono99tui.words.addresses import address_problem

if TYPE_CHECKING:
    from textual import getters

# (key, header, width): fixed widths keep the list steady as tables come and go, and fit
# 80 columns with the border and cell padding.
_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("name", N_("Table"), 20),
    ("host", N_("Host"), 13),
    ("rules", N_("Rules"), 10),
    ("seats", N_("Seats"), 5),
    ("state", N_("State"), 8),
    ("password", N_("Password"), 8),
)
# The State cell of a table whose port does not answer: it must fit the column's 8 cells.
NOT_ANSWERING = N_("no reply")
# A table's state as the State cell says it (the wire's word, translated).
STATE_WORDS = {"waiting": N_("waiting"), "playing": N_("playing"), "finished": N_("finished")}


def default_player_name() -> str:
    """A name to start from when none is remembered: the login name."""
    try:
        return clean_name(getpass.getuser())
    except (BadName, KeyError, OSError):
        return ""


def describe_table(table: DiscoveredTable) -> str:
    """One line about a table for the detail bar: where it is and how to reach it by ssh
    and from a browser."""
    info = table.info
    where = (
        _(", ").join(str(Address(address, info.port)) for address in info.addresses)
        or _("no address")
    )
    line = _("{table} by {host} at {where}").format(table=info.name, host=info.host_player,
                                                     where=where)
    if info.ssh_port is not None and info.addresses:
        line += f"  |  {ssh_command_line(info.addresses[0], info.ssh_port)}"
    if info.web_port is not None and info.addresses:
        line += f"  |  {web_url(info.addresses[0], info.web_port)}"
    return line


class _RememberedFields(TypedDict, total=False):
    """The settings the lobby remembers when the player joins (never the turn alert, which
    is read back from the file: a table may have switched it since)."""

    player_name: str
    last_address: str


class LobbyScreen(Screen[None]):
    """Pick a table (or type its address), say who you are, join or watch."""

    CSS_PATH = "lobby.tcss"
    AUTO_FOCUS = "#tables"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)

    class Joined(Message):
        """The lobby connected to a table: the app follows `client` and shows the table's
        waiting room. `request` is what joined it (a spectator taking a seat joins again
        with it); `lobby` is where leaving the table comes back to."""

        def __init__(self, lobby: LobbyScreen, client: TableClient,
                     request: JoinRequest | None) -> None:
            super().__init__()
            self.lobby = lobby
            self.connected = client
            self.request = request

    class JoinFailed(Message):
        """Joining again for a spectator taking a seat failed (the table is gone, or the
        password prompt was cancelled): the app comes back here, saying `status`."""

        def __init__(self, lobby: LobbyScreen, status: str) -> None:
            super().__init__()
            self.lobby = lobby
            self.status = status

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "join", _("Join")),
        Binding("w", "spectate", _("Watch")),
        Binding("a", "focus_address", _("Address")),
        Binding("n", "focus_name", _("Name")),
        Binding("escape", "focus_tables", _("Tables"), show=False),
        Binding("q", "app.quit", _("Quit")),
    ]

    def __init__(
        self,
        interfaces: list[str] | None,
        *,
        config_directory: Path | None = None,
        client_settings: ClientSettings | None = None,
        name: str | None = None,
        join_address: Address | None = None,
        spectate: bool = False,
        probe_interval: float = PROBE_INTERVAL_SECONDS,
        host_key: str | None = None,
        unrated: bool = False,
    ) -> None:
        """`interfaces`: where to browse for tables (None: no browsing, addresses only).

        `name` overrides the remembered player name (from `--name`); `join_address` joins
        that table at once (`ono99 join HOST:PORT`); `spectate` makes watching the default.
        `probe_interval`: seconds between two checks that a listed table still answers.
        `host_key`: offered to the table joined, for host rights (`ono99 join --host-key`).
        `unrated`: ask every table joined not to rate this player (`ono99 join --unrated`).
        """
        super().__init__()
        self.interfaces = interfaces
        self.join_address = join_address
        self.spectate_default = spectate
        self.host_key = host_key
        self.unrated = unrated
        self.config_directory = config_directory
        self.client_settings = client_settings
        self.tables: dict[str, DiscoveredTable] = {}
        # Listed tables whose port did not answer the last probe (by service name).
        self.not_answering: set[str] = set()
        self.probe_interval = probe_interval
        self.reachability: ReachabilityWatch | None = None
        try:
            self.settings = load_settings(config_directory)
            self._settings_problem: str | None = None
        except ConfigError as error:
            self.settings = Settings()
            self._settings_problem = str(error)
        # What the file holds, so a name given with --name is saved once it is used.
        self._stored_settings = self.settings
        if name:
            self.settings = replace(self.settings, player_name=name)
        elif not self.settings.player_name:
            self.settings = replace(self.settings, player_name=default_player_name())
        if join_address is not None:
            self.settings = replace(self.settings, last_address=str(join_address))

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static(self._title_text(), id="lobby-title")
            yield DataTable(id="tables", cursor_type="row", zebra_stripes=True)
            yield Static("", id="table-detail")
            with Horizontal(classes="field-row"):
                yield Label(_("Your name"), classes="field-label")
                yield Input(
                    value=self.settings.player_name,
                    placeholder=_("how others see you"),
                    max_length=24,
                    id="player-name",
                    compact=True,
                )
            with Horizontal(classes="field-row"):
                yield Label(_("Address"), classes="field-label")
                yield Input(
                    value=self.settings.last_address,
                    placeholder=_("HOST or HOST:PORT, for a table not listed"),
                    id="address",
                    compact=True,
                )
                yield Button(_("Join"), id="join-button", variant="primary", compact=True)
                yield Button(_("Watch"), id="watch-button", compact=True)
            yield Static("", id="lobby-status")
        yield Footer()

    def _title_text(self) -> str:
        if self.interfaces:
            return _("Tables on your network ({interfaces})").format(
                interfaces=", ".join(self.interfaces))
        return _("Tables on your network (not browsing: type an address)")

    def on_mount(self) -> None:
        tables = self.query_one("#tables", DataTable)
        for key, label, width in _COLUMNS:
            tables.add_column(_(label), key=key, width=width)
        self.watch(self.app, "glyphs", self._glyphs_changed, init=True)
        if self._settings_problem:
            self.notify(self._settings_problem, title=_("Settings not read"), severity="warning",
                        markup=False)  # it quotes the file, which may hold brackets
        # Going straight to a table (`ono99 join HOST:PORT`), the list is browsed only if
        # the player comes back to it (see `come_back`).
        if self.interfaces and self.join_address is None:
            self.set_status(_("Looking for tables..."))
            self.browse()
        elif not self.interfaces:
            self.set_status(_("Type the host's address, e.g. 192.168.1.20:9099"))
        if not self.settings.player_name:
            self.query_one("#player-name", Input).focus()
        elif self.join_address is not None:
            self._join_address(spectate=self.spectate_default)

    def _glyphs_changed(self, glyphs: Glyphs) -> None:
        # Borders follow the glyph set: ASCII mode must not draw box-drawing characters.
        self.set_class(glyphs.ascii, "-ascii")

    def come_back(self, status: str) -> None:
        """The player is back from a table that closed: say `status`, and list the tables on
        the network if this lobby had gone straight to one (`ono99 join HOST:PORT`)."""
        self._browse_if_idle()
        self.set_status(status)
        self.query_one("#tables", DataTable).focus()

    def _browse_if_idle(self) -> None:
        """Start following the advertised tables if this lobby may browse and does not yet
        (it went straight to a table given on the command line)."""
        if self.interfaces and self.reachability is None:
            self.browse()

    # --- the live list ----------------------------------------------------------------------

    @work(exclusive=True, group="browse", exit_on_error=False)
    async def browse(self) -> None:
        """Follow the tables advertised on the chosen interfaces for as long as the screen lives.

        Each listed table is also probed (a TCP connect) at once and every `probe_interval`
        seconds; the probes stop with this worker, and pause while another screen is shown.
        """
        assert self.interfaces
        try:
            async with (
                TableBrowser(self.interfaces) as browser,
                ReachabilityWatch(self.show_answering, interval=self.probe_interval) as watch,
            ):
                self.reachability = watch
                if not self.is_current:
                    watch.pause()
                async for event in browser.events():
                    self.apply_table_event(event)
                    table = event.table
                    if event.change is TableChange.REMOVED:
                        watch.forget(table.service_name)
                    else:
                        watch.watch(table.service_name, table.info.addresses, table.info.port)
        except Exception as error:  # any failure here leaves typed addresses working
            self.set_status(_("Cannot browse the network ({error}); type an address "
                              "instead.").format(error=error))
        finally:
            self.reachability = None

    def on_screen_suspend(self) -> None:
        # Out of sight (the waiting room is on top): no point knocking on every table's door.
        if self.reachability is not None:
            self.reachability.pause()

    def on_screen_resume(self) -> None:
        if self.reachability is not None:
            self.reachability.resume()

    def apply_table_event(self, event: TableEvent) -> None:
        """Show one change of the set of tables (added, updated or removed)."""
        tables = self.query_one("#tables", DataTable)
        key = event.table.service_name
        if event.change is TableChange.REMOVED:
            self.not_answering.discard(key)
            if self.tables.pop(key, None) is not None:
                tables.remove_row(key)
        elif key in self.tables:
            self.tables[key] = event.table
            self._redraw_row(key)
        else:
            self.tables[key] = event.table
            tables.add_row(*self._cells(key).values(), key=key)
        self._show_count()
        self._show_detail()

    def show_answering(self, key: str, answering: bool) -> None:
        """Show whether a listed table's port answered its last probe (dimmed "no reply" if not)."""
        if key not in self.tables or (key not in self.not_answering) is answering:
            return
        if answering:
            self.not_answering.discard(key)
        else:
            self.not_answering.add(key)
        self._redraw_row(key)
        self._show_count()
        self._show_detail()

    def _redraw_row(self, key: str) -> None:
        tables = self.query_one("#tables", DataTable)
        for column, value in self._cells(key).items():
            tables.update_cell(key, column, value)

    def _show_count(self) -> None:
        count = len(self.tables)
        if count == 0:
            self.set_status(
                _("No table found yet: start one with `ono99 host`, or type an address."))
            return
        silent = len(self.not_answering)
        if silent:
            self.set_status(ngettext(
                "{count} table found, {silent} not answering. Enter joins, w watches.",
                "{count} tables found, {silent} not answering. Enter joins, w watches.",
                count).format(count=count, silent=silent))
        else:
            self.set_status(ngettext("{count} table found. Enter joins, w watches.",
                                     "{count} tables found. Enter joins, w watches.",
                                     count).format(count=count))

    def _cells(self, key: str) -> dict[str, Text]:
        info = self.tables[key].info
        answering = key not in self.not_answering
        # A table that does not answer stays listed (its host may come back), but dimmed.
        style = "" if answering else "dim"
        # Text, not str: a str cell would be read as Rich markup, and names are the players'.
        return {
            "name": Text(info.name, style=style),
            "host": Text(info.host_player, style=style),
            "rules": Text(info.rules, style=style),
            "seats": Text(f"{info.seats_taken}/{info.seats_total}", style=style),
            "state": Text(_(STATE_WORDS.get(info.state.value, info.state.value)) if answering
                          else _(NOT_ANSWERING), style=style),
            "password": Text(_("yes") if info.password_required else _("no"), style=style),
        }

    def selected_table(self) -> DiscoveredTable | None:
        """The table under the cursor, if the list has any."""
        tables = self.query_one("#tables", DataTable)
        if tables.row_count == 0:
            return None
        row_key, _column = tables.coordinate_to_cell_key(tables.cursor_coordinate)
        return self.tables.get(str(row_key.value))

    @on(DataTable.RowHighlighted, "#tables")
    def _show_detail(self) -> None:
        table = self.selected_table()
        detail = self.query_one("#table-detail", Static)
        if table is None:
            detail.update("")
        elif table.service_name in self.not_answering:
            detail.update(Text(_("Not answering: {table}").format(table=describe_table(table))))
        else:
            detail.update(Text(describe_table(table)))

    def set_status(self, text: str) -> None:
        """The one-line status under the form."""
        self.query_one("#lobby-status", Static).update(Text(text))

    # --- actions ----------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#tables")
    def _row_chosen(self) -> None:
        self.action_join()

    @on(Input.Submitted, "#address")
    def _address_submitted(self) -> None:
        self._join_address(spectate=self.spectate_default)

    @on(Input.Submitted, "#player-name")
    def _name_submitted(self) -> None:
        if self.query_one("#address", Input).value.strip() and not self.tables:
            self._join_address(spectate=False)
        else:
            self.query_one("#tables", DataTable).focus()

    @on(Button.Pressed, "#join-button")
    def _join_pressed(self) -> None:
        self._join_address(spectate=self.spectate_default)

    @on(Button.Pressed, "#watch-button")
    def _watch_pressed(self) -> None:
        self._join_address(spectate=True)

    def action_join(self) -> None:
        """Join the highlighted table (or the typed address when the list is empty)."""
        self._join_selected(spectate=self.spectate_default)

    def action_spectate(self) -> None:
        """Watch the highlighted table (or the typed address when the list is empty)."""
        self._join_selected(spectate=True)

    def action_focus_address(self) -> None:
        """Move to the address field."""
        self.query_one("#address", Input).focus()

    def action_focus_name(self) -> None:
        """Move to the name field."""
        self.query_one("#player-name", Input).focus()

    def action_focus_tables(self) -> None:
        """Back to the list of tables."""
        self.query_one("#tables", DataTable).focus()

    def _player_name(self) -> str | None:
        field = self.query_one("#player-name", Input)
        try:
            name = clean_name(field.value)
        except BadName as error:
            self.set_status(_("Your name: {reason}").format(reason=error.reason))
            field.focus()
            return None
        return name

    def _join_selected(self, *, spectate: bool) -> None:
        table = self.selected_table()
        if table is None:
            self._join_address(spectate=spectate)
            return
        name = self._player_name()
        if name is None:
            return
        self._remember(player_name=name)
        self.start_join(JoinRequest.for_table(table, name, spectate=spectate))

    def _join_address(self, *, spectate: bool) -> None:
        field = self.query_one("#address", Input)
        web: WebAddress | None = None
        try:
            address: Address | None = parse_address(field.value)
        except WebAddressGiven as given:  # a table's web door, maybe: ask it (below)
            address, web = None, given.web
        except AddressError as error:
            self.set_status(_("Address: {error}").format(error=address_problem(error)))
            field.focus()
            return
        name = self._player_name()
        if name is None:
            return
        if web is not None:
            self._remember(player_name=name)
            self.join_through_door(web, name, spectate=spectate)
            return
        assert address is not None
        self._remember(player_name=name, last_address=field.value.strip())
        self.start_join(JoinRequest.for_address(address, name, spectate=spectate))

    @work(exclusive=True, group="door", exit_on_error=False)
    async def join_through_door(self, web: WebAddress, name: str, *, spectate: bool) -> None:
        """A web address typed in the address field: join the table whose web door it is
        (the door tells its table's port), or say that it is none and what to type."""
        from ono99tui.web.table_behind import NoTableBehind, table_behind

        self.set_status(_("Asking {address} for its table...").format(address=web))
        try:
            address = await asyncio.to_thread(table_behind, web)
        except NoTableBehind as error:
            self.set_status(_("{address} is a web address, for a browser; {problem}. Type the "
                              "table's own address: {table} unless the host chose another "
                              "port").format(address=web, problem=error,
                                             table=Address(web.host, DEFAULT_PORT)))
            self.query_one("#address", Input).focus()
            return
        field = self.query_one("#address", Input)
        field.value = str(address)  # what to type next time, remembered as typed
        self._remember(last_address=str(address))
        self.start_join(JoinRequest.for_address(address, name, spectate=spectate))

    def _remember(self, **changes: Unpack[_RememberedFields]) -> None:
        try:  # the file may have changed since (the turn alert, switched at a table)
            turn_alert = load_settings(self.config_directory).turn_alert
            settings = replace(self.settings, turn_alert=turn_alert, **changes)
        except ConfigError:
            settings = replace(self.settings, **changes)
        self.settings = settings
        if settings == self._stored_settings:
            return
        try:
            save_settings(settings, self.config_directory)
            self._stored_settings = settings
        except ConfigError as error:
            self.notify(str(error), title=_("Name not remembered"), severity="warning",
                        markup=False)

    @work(exclusive=True, group="join", exit_on_error=False)
    async def start_join(self, request: JoinRequest, *, taking_seat: bool = False) -> None:
        """Connect to the table; ask for its password if it wants one; hand over the client.

        `taking_seat`: the app asks, for a spectator of this table who wants a seat now
        (`TableSession.take_seat`), the table's screens still shown; a failure takes the
        player back here (`JoinFailed`), where it is said.
        """
        if self.host_key is not None and request.host_key is None:
            request = replace(request, host_key=self.host_key)
        if self.unrated:
            request = replace(request, unrated=True)
        self.set_status((_("Watching {table}...") if request.spectate
                         else _("Joining {table}...")).format(table=request.label))
        tokens = ResumeTokens(self.config_directory)
        try:
            client = await connect(request, tokens, self.client_settings)
        except JoinError as error:
            if error.code == "bad-password":
                self._ask_password(request, retry=request.password is not None,
                                   taking_seat=taking_seat)
                return
            # "Could not join: nothing is listening at HOST:PORT" names the address once.
            if request.label in error.reason:
                title = _("Could not take a seat") if taking_seat else _("Could not join")
            else:
                title = (_("Could not take a seat at {table}") if taking_seat
                         else _("Could not join {table}")).format(table=request.label)
            self.set_status(_("{title}: {problem}").format(title=title, problem=error.reason))
            # markup=False: the reason may be the table's own words, and a bracket in them
            # would be read as markup (a stray "[/]" raised MarkupError and ended the app).
            self.notify(error.reason, title=title, severity="error", markup=False)
            if taking_seat:  # back here from the table's screens (it lists the tables)
                self.post_message(self.JoinFailed(
                    self, _("{title}: {problem}").format(title=title, problem=error.reason)))
                return
            # Gone straight to an address that failed (`ono99 join HOST:PORT` before the
            # table was up, or a typo): the list under "Tables on your network" must fill
            # now, not stay empty until the player has been to a table and back.
            self._browse_if_idle()
            return
        # If the host comes back on another port, the table is looked for by its name.
        client.relocator = refinder_for(client.welcome, self.interfaces,
                                        service_name=request.service_name)
        if client.role == "spectator" and not request.spectate:
            # markup=False: the label is the table's advertised name, which anyone can pick.
            self.notify(_("{table} is full or already playing: you are watching.").format(
                table=request.label), title=_("Watching"), markup=False)
        self.set_status((_("Watching {table}.") if request.spectate
                         else _("Joining {table}.")).format(table=request.label))
        self.enter_table(client, request)

    def enter_table(self, client: TableClient, request: JoinRequest | None = None) -> None:
        """Hand the connected client to the app, which shows the table's waiting room.

        The app's connection worker reads the client from here on; the app opens the
        table screen by itself once a match is being played, and comes back here when
        the player leaves the table. `request` is what joined it (a spectator taking a
        seat joins again with it).
        """
        self.post_message(self.Joined(self, client, request))

    def table_moved(self, client: TableClient) -> None:
        """The table joined from here was found again at another address (its host came
        back elsewhere): keep the seat's token for that address too."""
        keep_seat(ResumeTokens(self.config_directory), client)

    def _ask_password(self, request: JoinRequest, *, retry: bool,
                      taking_seat: bool = False) -> None:
        def answered(password: str | None) -> None:
            if password is None:
                status = _("Not joined: {table} needs a password.").format(table=request.label)
                self.set_status(status)
                if taking_seat:
                    self.post_message(self.JoinFailed(self, status))
            else:
                self.start_join(request.with_password(password), taking_seat=taking_seat)

        self.app.push_screen(PasswordPrompt(request.label, wrong=retry), answered)
