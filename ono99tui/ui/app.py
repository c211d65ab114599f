"""The ONO 99 Textual app: one connection to one table, and the screens that show it.

Public entry points (used by `ono99 solo`, `ono99 join`, `ono99 host` and the SSH door):

- `Ono99App(client_factory=None, *, start_screen=None, ascii_glyphs=None)`:
  `client_factory` is an async callable returning a connected `netproto.client.TableClient`
  (for example `lambda: TableClient.connect(host, port, name=...)`); `start_screen` is the
  screen shown first (a `Screen` instance, or a callable making one; the lobby passes its
  lobby or waiting room, solo passes `TableScreen`). `ascii_glyphs=None` detects ASCII
  mode from the locale; `sixteen_colours=None` picks the 16-colour theme when the
  terminal reports no more than 16 colours (tests pin both for repeatable snapshots).
- `Ono99App.connect(client_factory)`: start (or replace) the connection, e.g. once the
  lobby has picked a table. The app pushes the table screen by itself when the first view
  of a match arrives.
- State other screens may read or watch: `app.view` (the current `PlayerView`, reactive),
  `app.lobby` (the latest `netproto.messages.Lobby`, reactive), `app.table_rules` (the
  lobby's rules, decoded once, as `Rules`), `app.is_host`, `app.connection_state`
  (reactive: "offline", "connecting", "connected", "reconnecting", "closed"), `app.glyphs`
  (reactive `Glyphs`). `app.client` (the `TableClient`) is the app's own: no screen uses it.
- `ConnectionBanner` (in `ono99tui.ui.widgets.banner`) can be put on any screen: it shows
  itself while the connection is down.

How the parts talk: one exclusive worker reads the `TableClient` and posts the messages
of `ono99tui.ui.messages`; their handlers here set the reactives above, which screens
watch ("attributes down, messages up"). Screens ask for table actions with messages
(`MoveChosen`, `RematchRequested`, the waiting room's `ReadyRequested`, `StartRequested`,
`AddBotRequested`...), which the app sends, reporting a failure in words; a spectator's
`TakeSeatRequested` makes it join the same table again asking for a seat (`take_seat`).
The lobby hands a table it connected to over with `follow_table`. Nothing from the network reaches a
widget without going through here.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.theme import BUILTIN_THEMES

from netproto.errors import HANGUP
from ono99tui.gc_freeze import freeze_startup_objects
from ono99tui.ui.diffing_driver import DiffingDriver, ScreenDiffing
from ono99tui.ui.glyphs import Glyphs, detect_ascii, glyphs_for
from ono99tui.ui.hangup_driver import HangupReporter, TerminalHungUp
from ono99tui.ui.hinting import SeenEvents
from ono99tui.ui.messages import (
    AddBotRequested,
    ChatReceived,
    ChatRequested,
    ConnectionDropped,
    ConnectionEnded,
    ConnectionResumed,
    LeaveRequested,
    LobbyUpdated,
    MoveChosen,
    OpenRoomRequested,
    OptionsChangeRequested,
    ReadyRequested,
    RematchRequested,
    RemoveBotRequested,
    ServerRefused,
    StartRequested,
    TableMessage,
    TakeSeatRequested,
    ViewUpdated,
    Welcomed,
)
from ono99tui.ui.talk import Talk, toast_text
from ono99tui.ui.widgets.log import LogEntry
from ono99tui.ui.wire_text import shown_reason

if TYPE_CHECKING:  # loaded after the first frame (see `_start`)
    from textual.driver import Driver

    from netproto.client import TableClient
    from netproto.messages import Lobby, Welcome
    from ono99tui.game import Event, PlayerView, RoundEnded, Rules
    from ono99tui.ui.catch_up import History
    from ono99tui.ui.joining import JoinRequest
    from ono99tui.ui.round_busts import RoundBusts
    from ono99tui.ui.screens.lobby import LobbyScreen
    from ono99tui.ui.turn_alert import TurnAlert

ClientFactory = Callable[[], Awaitable["TableClient"]]
# Where the table runs, which decides what quitting does: "solo" (this process runs a table
# for one player and bots: quitting ends the game), "host" (this process hosts a table
# others joined: quitting closes it for everyone), "guest" (a table elsewhere: the seat is
# held, then a bot plays it or it resigns, as the table's abandon policy says).
Hosting = Literal["solo", "host", "guest"]
ScreenSource = Screen[Any] | Callable[[], Screen[Any]]

# A theme for 16-colour terminals: the built-in ANSI theme uses green for both "success"
# and "accent", and the cards need them apart.
# Seconds from start-up until the app's long-lived objects are frozen (ono99tui/gc_freeze.py).
SETTLE_SECONDS = 2.0
# The width of a toast (the app's CSS says it too), but for half the screen over a narrow
# table.
TOAST_WIDTH = 31
# Lines of the waiting room's talk the first match's log starts with.
TALK_CARRIED = 20
# Characters of a table's name (from `welcome.table`) looked at before cleaning: enough for
# escape sequences around any name a table may advertise, bounded against a huge one.
MAX_RAW_TABLE_NAME = 512

def shown_welcome(welcome: Welcome) -> Welcome:
    """`welcome` with the text its `table` map (opaque to netproto) gives the screens made
    inert: the table's name goes through the cleaner netproto uses for names, since the
    client never trusts the server (a non-string name is dropped; "?" stands in for a name
    nothing printable is left of, as for seat names: docs/PROTOCOL.md §6)."""
    from netproto.chat_text import clean_line
    from netproto.messages import MAX_SHORT_TEXT, UNREADABLE

    name = welcome.table.get("name")
    if name is None:
        return welcome
    table = dict(welcome.table)
    if isinstance(name, str):
        table["name"] = clean_line(name[:MAX_RAW_TABLE_NAME], MAX_SHORT_TEXT) or UNREADABLE
    else:
        del table["name"]
    return replace(welcome, table=table)

def _abridged_entry(rounds: int) -> LogEntry:
    """The log line saying that the table told the first `rounds` rounds of the match in
    short (a long match's account must fit in one frame: docs/PROTOCOL.md §3 "view")."""
    if rounds == 1:
        text = "Round 1 in short: its deal, busts and result only"
        return LogEntry(text, text)
    return LogEntry(f"Rounds 1\u2013{rounds} in short: their deals, busts and results only",
                    f"Rounds 1-{rounds} in short: their deals, busts and results only")

def crossed_on_the_wire(code: str, ref: str | None) -> bool:
    """Whether a refusal only means our message crossed the table's change of state on the
    wire (docs/PROTOCOL.md §2): a move chosen from a view just replaced (`stale-seq`), a move
    that arrived after the match ended, a `ready` after the rematch was dealt."""
    from netproto.connection import CROSSING_KINDS  # loaded by the time the table answers

    return code == "stale-seq" or (code == "unexpected-message" and ref in CROSSING_KINDS)


# Ends of a session that mean the table itself is gone: (headline, explanation), where
# {reason} is the client's reason. A joined player is offered the way back to the lobby.
TABLE_GONE: dict[str, tuple[str, str]] = {
    "shutdown": ("The host closed the table.",
                 "Nobody can play at it any more: the match, if one was on, is over."),
    "gave-up": ("The table is gone.",
                ("Its host stopped answering ({reason}): it may have stopped, or lost its "
                 "network.")),
}


def screenshot_directory() -> Path:
    """Where screenshots go: the user's Downloads folder if it exists, else `screenshots` in
    ono99's config directory, made (private) when needed; the current directory if even that
    cannot be made."""
    from platformdirs import user_downloads_path

    from ono99tui.config import config_dir

    downloads = user_downloads_path()
    if downloads.is_dir():
        return downloads
    folder = config_dir() / "screenshots"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return Path.cwd()
    return folder


# Arrow keys as the Footer names them in ASCII mode (a terminal that cannot draw "→").
ASCII_KEY_NAMES = str.maketrans({"→": ">", "←": "<", "↑": "^", "↓": "v"})
# Bright blue for the primary colour: the number cards' text, and borders, in xterm's
# dark blue (0, 0, 238) were hard to read on black.
SIXTEEN_COLOUR_THEME = replace(BUILTIN_THEMES["ansi-dark"], name="ono99-16", accent="ansi_magenta",
                               primary="ansi_bright_blue")


class Ono99App(App[None]):
    """One player's (or spectator's) window on one table. See the module docstring."""

    TITLE = "ONO 99"
    # Focus you can see in any terminal, on every screen. A whole path: a relative one
    # would be read beside each subclass's own module.
    CSS_PATH = str(Path(__file__).with_name("focus.tcss"))
    # ASCII mode (the app has class -ascii): Textual's own widgets must not draw box or
    # block characters either. The app's screens and widgets carry their own -ascii rules.
    CSS = """
    .-ascii FooterKey.-command-palette { border-left: ascii $foreground 20%; }
    .-ascii Toast.-information { border-left: ascii $success; }
    .-ascii Toast.-warning { border-left: ascii $warning; }
    .-ascii Toast.-error { border-left: ascii $error; }
    .-ascii VerticalScroll { scrollbar-size-vertical: 0; }
    .-ascii Button { border: ascii $foreground 40%; }
    /* Notifications at the top right, under the title row: over the log, never over the
       hand, its hint line, the total or the prompt (at 80x24 the log pane is 31 wide). */
    ToastRack { dock: top; align: right top; margin-top: 1; margin-bottom: 0;
                max-height: 50%; overflow-y: hidden; }
    Toast { width: 31; max-width: 100%; margin-top: 0; padding: 0 1; }
    /* At the table, inside the log's frame (under its title row, off its right edge):
       the frame and its title stay in sight. The log's inside is 29 cells at 80 columns. */
    TableScreen ToastRack { margin-top: 2; }
    TableScreen Toast { width: 29; margin-right: 1; }
    /* Under 80 columns there is no log: over the seats, on the left, rather than the total. */
    TableScreen.-narrow ToastRack { margin-top: 1; }
    TableScreen.-narrow ToastHolder { align-horizontal: left; }
    TableScreen.-narrow Toast { width: 50%; margin-right: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Screens show their own "q" and "?" in the Footer; these work everywhere.
        Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
        Binding("f1", "rules", "Rules", show=False),
        Binding("f2", "toggle_ascii", "ASCII", show=False),
        Binding("ctrl+l", "redraw", "Redraw", show=False),
    ]

    # repaint=False: an App reactive would otherwise repaint the whole screen on every
    # change, and each repaint is bytes on the wire; the screens repaint what changed.
    view: reactive[PlayerView | None] = reactive(None, always_update=True, repaint=False)
    lobby: reactive[Lobby | None] = reactive(None, always_update=True, repaint=False)
    connection_state: reactive[str] = reactive("offline", repaint=False)
    glyphs: reactive[Glyphs] = reactive(glyphs_for(False), repaint=False)

    def __init__(
        self,
        client_factory: ClientFactory | None = None,
        *,
        start_screen: ScreenSource | None = None,
        ascii_glyphs: bool | None = None,
        sixteen_colours: bool | None = None,
        hosting: Hosting = "guest",
        notice: str = "",
        warnings: Sequence[str] = (),
        seat_factory: ClientFactory | None = None,
    ) -> None:
        """See the module docstring; `seat_factory` makes a new connection to the same
        table asking for a seat, for a spectator who takes one (`take_seat`) where there is
        no lobby to join again from (the host's own app: the factory it connects with)."""
        super().__init__()
        self.hosting: Hosting = hosting
        # Said once the app is up (the host's app: a match taken up from the journal; what
        # the table's journal had to say at the start).
        self._startup_notice = notice
        self._startup_warnings = tuple(warnings)
        self._sixteen_colours = sixteen_colours
        self._client_factory = client_factory
        self._start_screen = start_screen
        self.client: TableClient | None = None
        self.welcome: Welcome | None = None
        self.view_seq = -1
        # The turn clock of the latest view: (seat, `time.monotonic()` deadline), or None.
        self.clock_deadline: tuple[int, float] | None = None
        # Counts `connect` calls: messages from an earlier connection's worker are stale.
        self._connection_no = 0
        # The seq of the view a move was sent from, while the table has not answered it
        # (None: no move in flight). See `move_in_flight`.
        self._move_sent_at: int | None = None
        # Every log line of this match (in both glyph sets), so a screen opened late can
        # show the whole story.
        self.log_entries: list[LogEntry] = []
        # Matches this app has seen start at this table (the log's separators count them).
        self.matches_started = 0
        # The next view may carry moves a stand-in bot made for this seat: the link came
        # back after a drop, or a new connection resumed a seat in a match under way (see
        # `_tell_what_was_played`).
        self._away = False
        self._move_in_flight_at_drop = False
        # A welcome came and its lobby not yet: that lobby says whether a match is on.
        self._welcome_lobby_due = False
        # The first lobby after the last match ended, while its seats stay (`match_lobby`).
        self._lobby_at_match_end: Lobby | None = None
        # Each finished round of this match, for the round-end and match-end screens.
        self.round_results: list[RoundEnded] = []
        # Seats in the order they left the match, for the standings.
        self.out_order: list[int] = []
        # The lobby this table was joined from, which leaving goes back to (None: the
        # app opened on the table, as `ono99 host` and `ono99 solo` do).
        self.joined_from: LobbyScreen | None = None
        # What the lobby joined this table with (name, password, host key): a spectator who
        # takes a seat joins again with it, asking for a seat.
        self._join_request: JoinRequest | None = None
        self._seat_factory = seat_factory
        # A spectator's "take a seat" is under way (`take_seat`); one at a time.
        self._taking_seat = False
        # A spectator asked mid-match for a seat in the next match (`want_seat`): taken the
        # moment the table says the match is over, before anyone can deal the rematch.
        self._seat_wanted = False
        # The next welcome answers a hello that asked for a seat after watching: a
        # spectator's welcome then means the table was full or playing by then.
        self._seat_asked = False
        # The lobby whose rules `table_rules` decoded, and what they decoded to.
        self._rules_source: Lobby | None = None
        self._rules: Rules | None = None
        # The bell and title on the player's turn (built on the first view: ui/turn_alert.py).
        self.turn_alert: TurnAlert | None = None
        self.terminal_title = ""
        # Each finished round's busts, for the results dialogs (built on the first view).
        self.round_busts: RoundBusts | None = None
        # Table talk: whom this player muted (for the session), the names heard; and the
        # lines said before the table screen first opened, which its log starts with.
        self.talk = Talk()
        self._talk_before_deal: list[LogEntry] = []
        # The public events of this deal as they came: what a hint may know besides the view.
        self.seen = SeenEvents()
        # Whether this match's deal opened its page of the log (and counted in
        # `matches_started`): an app that joined mid-match without a history has none.
        self._match_page_open = False
        self.set_reactive(
            Ono99App.glyphs, glyphs_for(detect_ascii() if ascii_glyphs is None else ascii_glyphs)
        )
        self.register_theme(SIXTEEN_COLOUR_THEME)

    # --- start-up -------------------------------------------------------------------------

    def get_key_display(self, binding: Binding) -> str:
        """How the Footer names a key: Textual's way, with plain-ASCII arrows in ASCII mode."""
        display = super().get_key_display(binding)
        return display.translate(ASCII_KEY_NAMES) if self.glyphs.ascii else display

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, but on Linux one that exits when the terminal goes away and
        writes only the cells that change (`ono99tui.ui.diffing_driver`)."""
        from textual.drivers.linux_driver import LinuxDriver

        driver_class = super().get_driver_class()
        return DiffingDriver if driver_class is LinuxDriver else driver_class

    def on_mount(self) -> None:
        self.set_class(self.glyphs.ascii, "-ascii")
        sixteen = self._sixteen_colours
        if sixteen is None:
            sixteen = self.console.color_system in ("standard", "windows")
        if sixteen:
            self.theme = SIXTEEN_COLOUR_THEME.name
        if self._start_screen is not None:
            screen = self._start_screen
            self.push_screen(
                screen() if callable(screen) and not isinstance(screen, Screen) else screen
            )
        if self._startup_notice:
            # Long enough to be read: it explains why a match is on that nobody started.
            self.notify(self._startup_notice, title="Match taken up", timeout=20, markup=False)
        for warning in self._startup_warnings:
            self.tell_host(warning)
        if self._client_factory is not None:
            # Connecting loads the protocol and the engine (and, for solo, starts a table):
            # let the first frame reach the terminal first.
            self.call_after_refresh(self.connect, self._client_factory)
        # Once the screens and the table are built, keep the collector off them: a full
        # collection of a running app took 16-35 ms, a stall every few seconds of play (and,
        # in `ono99 host`, a late view for every seat). See ono99tui/gc_freeze.py.
        self.set_timer(SETTLE_SECONDS, freeze_startup_objects)

    def on_unmount(self) -> None:
        gc.unfreeze()  # the process may go on (a test run): what dies now can be reclaimed

    def connect(self, client_factory: ClientFactory) -> None:
        """Connect to a table (replacing any current connection) and follow it.

        Everything learnt from the previous table is forgotten, and whatever its connection
        still reports is dropped (see `TableMessage.connection`).
        """
        self._client_factory = client_factory
        self._connection_no += 1
        self.client = None
        self.welcome = None
        self.view_seq = -1
        self.clock_deadline = None
        self._move_sent_at = None
        self._new_match()
        self.matches_started = 0
        self._away = False
        self._move_in_flight_at_drop = False
        self._welcome_lobby_due = False
        table = self._table_screen()
        if table is not None:
            table.clear_log()
        self.view = None
        self.lobby = None
        self.connection_state = "connecting"
        self._read_table(client_factory, self._connection_no)

    def _is_stale(self, message: TableMessage) -> bool:
        """Does `message` come from a connection that `connect` has since replaced?"""
        return message.connection is not None and message.connection != self._connection_no

    def _new_match(self) -> None:
        self._match_page_open = False
        self.seen.clear()
        self.log_entries.clear()
        self._talk_before_deal.clear()
        self.round_results.clear()
        self.out_order.clear()

    # --- the connection worker -----------------------------------------------------------

    @work(exclusive=True, group="connection", exit_on_error=False)
    async def _read_table(self, client_factory: ClientFactory, connection_no: int) -> None:
        """Connect, then turn everything the client yields into app messages."""
        from netproto.client import ConnectFailed, HandshakeRefused
        from ono99tui.connect_errors import connect_error_text

        def post(message: TableMessage) -> None:
            message.connection = connection_no
            self.post_message(message)

        try:
            client = await client_factory()
        except (ConnectFailed, HandshakeRefused) as error:
            # Not a table (nothing listening, another protocol) in words; else the table's.
            words = connect_error_text(error)
            post(ConnectionEnded(error.code, words or shown_reason(error.reason) or error.code))
            return
        except (OSError, TimeoutError) as error:
            post(ConnectionEnded("unreachable",
                                 f"cannot reach the table: {shown_reason(str(error))}"))
            return
        except Exception as error:  # whatever went wrong, say it in words, not a traceback
            post(ConnectionEnded("cannot-join",
                                 f"could not join the table: {shown_reason(str(error))}"))
            return
        if connection_no != self._connection_no:
            await client.close()  # replaced while it was connecting
            return
        self.client = client
        try:
            async for item in client:
                message = self._translate(item)
                if message is not None:
                    post(message)
        except Exception as error:
            post(ConnectionEnded("client-error",
                                 f"the connection failed: {shown_reason(str(error))}"))
        finally:
            # Leaving for any reason says goodbye, but not when the terminal is gone: the
            # app may be shutting down because of it before `on_terminal_hung_up` ran.
            await client.close(code=HANGUP if self._terminal_gone() else "normal")

    def _translate(self, item: object) -> TableMessage | None:
        """The app message for one item from the client, None for nothing to tell (runs in
        the worker)."""
        from netproto.client import Closed, Disconnected, Reconnected
        from netproto.messages import Chat, Error, Lobby, Pong, View, Welcome

        if isinstance(item, Pong):
            return None  # the answer to a ping (a liveness check): nothing for the player
        from ono99tui.game.codec import event_from_wire, view_from_wire

        if isinstance(item, View):
            try:
                view = view_from_wire(item.view)
                events = tuple(event_from_wire(event) for event in item.events)
            except ValueError as error:
                # The error quotes the table's values (repr), however long: shown cut.
                return ServerRefused(
                    "bad-view",
                    f"the table sent a view this app cannot read ({shown_reason(str(error))})",
                )
            history, bad_history = None, None
            if item.history is not None:
                from ono99tui.ui.catch_up import BadHistory, history_from_wire

                try:
                    history = history_from_wire(item.history, item.history_abridged)
                except BadHistory as error:
                    bad_history = str(error)  # the view is fine without it: shown anyway
            clock = item.clock
            # The table says how many seconds were left when it sent the view: count down
            # from its arrival on this machine's clock (the two clocks need not agree).
            deadline = None if clock is None else (clock.seat, time.monotonic() + clock.left)
            return ViewUpdated(item.seq, view, events, deadline, history=history,
                               bad_history=bad_history)
        if isinstance(item, Lobby):
            return LobbyUpdated(item)
        if isinstance(item, Chat):
            return ChatReceived(item)
        if isinstance(item, Welcome):
            return Welcomed(shown_welcome(item))
        if isinstance(item, Error):
            return ServerRefused(item.code, shown_reason(item.reason), item.ref)
        if isinstance(item, Disconnected):
            return ConnectionDropped(shown_reason(item.reason), item.will_retry)
        if isinstance(item, Reconnected):
            return ConnectionResumed(item.attempts)
        if isinstance(item, Closed):
            return ConnectionEnded(item.code, shown_reason(item.reason))
        return ServerRefused(
            "unexpected", f"the table sent something unexpected: {type(item).__name__}"
        )

    # --- handlers: messages up, attributes down -----------------------------------------

    def on_welcomed(self, message: Welcomed) -> None:
        if self._is_stale(message):
            return
        if self.welcome is not None and message.welcome.token != self.welcome.token:
            # A new seat, not our old one resumed (the host restarted without our match):
            # its views are numbered from 1 again, so forget the old table's numbers; and
            # the match it tells is not the one this app saw (that one stays in the log).
            self.view_seq = -1
            self._move_sent_at = None
            self.seen.clear()
            if message.welcome.role == "player" and self._table_screen() is not None:
                # Seated anew: the match the table screen shows (and its results, named
                # after the old seats) is over for good; the new seat waits in the
                # waiting room for the next deal (played: a restart at a finished table
                # left a joiner on "Match over: you win!" under someone else's name).
                self._back_to_waiting_room()
        self.welcome = message.welcome
        self.connection_state = "connected"
        self._welcome_lobby_due = True
        if self._seat_asked:
            self._seat_asked = False
            if message.welcome.role == "spectator":
                # The words the lobby uses when a join asking for a seat gets none.
                name = message.welcome.table.get("name")
                table = name if isinstance(name, str) else "The table"
                self.notify(f"{table} is full or already playing: you are watching.",
                            title="Watching", markup=False)  # the table's name is its own

    def on_lobby_updated(self, message: LobbyUpdated) -> None:
        if self._is_stale(message):
            return
        if self._welcome_lobby_due:
            self._welcome_lobby_due = False
            # Seated straight into a match under way: only a resumed seat is (a new player
            # at a playing table watches), and the table may have played it meanwhile.
            if message.lobby.you is not None and message.lobby.phase != "waiting":
                self._away = True
        lobby = message.lobby
        if lobby.phase == "playing":
            self._lobby_at_match_end = None
        elif lobby.phase == "finished" and (
                self._lobby_at_match_end is None
                or [seat.name for seat in lobby.seats]
                == [seat.name for seat in self._lobby_at_match_end.seats]):
            # The finished match's seats as it was played: kept while they stay the same
            # (and in the waiting room opened after it, whose seats the table below the
            # room no longer shows).
            self._lobby_at_match_end = lobby
        self._tell_newcomers(self.lobby, lobby)
        self._tell_ready_taken_back(self.lobby, lobby)
        before, self.lobby = self.lobby, lobby
        if lobby.phase == "waiting" and before is not None and before.phase == "finished":
            self._back_in_the_room()
        if self._seat_wanted and lobby.phase != "playing":
            self._seat_wanted = False
            if not self.take_seat():
                self.notify("No seat is free for the next match: you are still watching.",
                            timeout=8)

    def _back_in_the_room(self) -> None:
        """The table went from a finished match back to the waiting room (its host opened
        it, to change the rules or the seats): the match's screens make way for the room,
        put over the table so that its log keeps the match that is over (the next deal
        shows the table again, `_show_table`). Once: a room over the table stays. (Only
        from a finished match: the table screen `ono99 solo` opens on sees a waiting lobby
        before its first deal, and a host restarted without the match one mid-match.)"""
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        table = self._table_screen()
        if table is None or self._taking_seat:
            return  # no match shown (the room is on screen already), or leaving as a spectator
        stack = list(self.screen_stack)
        if any(isinstance(screen, WaitingRoomScreen) for screen in stack[stack.index(table):]):
            return
        # The host's own room under the table says how others join: the new one too.
        invite = next((screen.invite for screen in stack
                       if isinstance(screen, WaitingRoomScreen)), "")
        while self.screen is not table:
            self.pop_screen()  # the match-over dialog, and whatever else was over the table
        self.push_screen(WaitingRoomScreen(invite=invite))
        if self.is_host:
            return  # the host asked for it
        if self.spectating:
            text = "The host opened the waiting room for the next match."
        else:
            text = ("The host opened the waiting room: the next match's rules may change. "
                    "Press r when you are ready.")
        self.notify(text, title="Waiting room", timeout=8)

    @property
    def may_open_room(self) -> bool:
        """May this app take the table back to the waiting room now? Its host, connected,
        at a table that knows how (`welcome.table.room`), once a match is over."""
        welcome, lobby = self.welcome, self.lobby
        return (welcome is not None and welcome.table.get("room") is True
                and lobby is not None and lobby.phase == "finished" and self.is_host
                and not self.spectating and self.connection_state == "connected")

    def action_open_room(self) -> None:
        """The host: back to the waiting room, to change the rules or the seats before
        the next match (the match-over dialog's `o`, the table's, the command palette)."""
        self.post_message(OpenRoomRequested())

    async def on_open_room_requested(self, message: OpenRoomRequested) -> None:
        if not self.may_open_room:
            if not self.is_host:
                self.notify("Only the host can open the waiting room.", title="Not the host",
                            severity="warning", timeout=4)
            return
        await self._send(lambda client: client.open_room(), "Could not open the waiting room")

    def _tell_ready_taken_back(self, before: Lobby | None, after: Lobby) -> None:
        """The host changed the next match's rules after this player said ready: the table
        took the ready mark back (it was said to other rules), and the player is told why
        the room asks them again. (The room opening after a match says so itself.)"""
        if (before is None or before.phase != after.phase or after.phase == "playing"
                or before.you is None or after.you is None or self.is_host
                or before.options == after.options):
            return
        was = next((seat for seat in before.seats if seat.seat == before.you), None)
        now = next((seat for seat in after.seats if seat.seat == after.you), None)
        if was is not None and now is not None and was.ready and not now.ready:
            self.notify("The host changed the rules of the next match: look them over, then "
                        "press r when you are ready.", title="Rules changed", timeout=8)

    def _tell_newcomers(self, before: Lobby | None, after: Lobby) -> None:
        """Between matches, say who sat down for the next one, and whose seat a bot gave
        up for them: the players are looking at the results then, not at the seats."""
        from netproto.messages import SeatKind

        if (before is None or before.phase != "finished" or after.phase != "finished"
                or self.hosting == "solo"):
            return
        had = {seat.name for seat in before.seats}
        has = {seat.name for seat in after.seats}
        mine = after.seats[after.you].name if after.you is not None else None
        arrived = [seat.name for seat in after.seats
                   if seat.name not in had and seat.name != mine]
        bots_gone = [seat.name for seat in before.seats
                     if seat.kind == SeatKind.BOT and seat.name not in has]
        for name in arrived:
            if len(arrived) == 1 and len(bots_gone) == 1:
                text = f"{name} takes {bots_gone[0]}'s seat for the next match."
            else:
                text = f"{name} takes a seat for the next match."
            self.notify(text, title="Next match", timeout=8, markup=False)

    @property
    def match_lobby(self) -> Lobby | None:
        """The lobby whose seats are those of the match the view shows: once it is over,
        the table's word as it ended (a seat freed since renumbers the seats of later
        lobbies, and the results named the wrong players); otherwise the latest."""
        view = self.view
        if (self._lobby_at_match_end is not None and view is not None
                and view.phase == "match_over"):
            return self._lobby_at_match_end
        return self.lobby

    def on_view_updated(self, message: ViewUpdated) -> None:
        if self._is_stale(message) or not self.screen_stack:
            return  # (no screens: the app is closing, and a view came in meanwhile)
        if message.seq <= self.view_seq:
            return  # a resumed session may repeat the last view
        self.view_seq = message.seq
        self.clock_deadline = message.clock_deadline
        if self._move_sent_at is not None and message.seq > self._move_sent_at:
            self._move_sent_at = None  # the table has moved on: the player may choose again
        before = self.view
        events = message.events
        if message.bad_history is not None:
            # markup=False: the reason may quote what the table sent.
            self.notify(f"The table's account of the match so far could not be read "
                        f"({message.bad_history}); the log goes on from here.",
                        title="Log incomplete", severity="warning", timeout=8, markup=False)
        if message.history is not None:
            events = self._catch_up(message.history, events, message.view)
        self._record(events, message.view)
        self.seen.add(events)
        self.view = message.view
        self._show_table()
        self._follow_busts(events, before, message.view)
        self._announce(events, message.view)
        self._alert_turn(before, message.view)

    @property
    def log_lines(self) -> list[str]:
        """This match's log lines, in the glyph set shown now."""
        return [entry.text(self.glyphs.ascii) for entry in self.log_entries]

    def on_server_refused(self, message: ServerRefused) -> None:
        if self._is_stale(message):
            return
        if message.ref == "move":
            self._move_sent_at = None  # the move was refused: the view shown is still current
        if crossed_on_the_wire(message.code, message.ref):
            # Not a mistake: the table changed (another seat played, the match ended, the
            # rematch was dealt) while this went to it, and what changed is on its way.
            if message.ref == "move":
                self.notify("The table moved on before your move reached it: look again.",
                            title="Not played", severity="warning", timeout=4)
            return
        reason = message.reason or message.code.replace("-", " ")
        if message.ref == "say":
            title = "Slow down" if message.code == "slow-down" else "Not said"
            self.notify(reason, title=title, severity="warning", timeout=4, markup=False)
            return
        # markup=False: the reason came over the network.
        self.notify(reason, title="The table said no", severity="error", timeout=6,
                    markup=False)

    def on_connection_dropped(self, message: ConnectionDropped) -> None:
        if self._is_stale(message):
            return
        self.connection_state = "reconnecting" if message.will_retry else "closed"
        self._away = True
        self._move_in_flight_at_drop = self._move_sent_at is not None
        if message.will_retry:
            self.notify("Connection lost: reconnecting...", severity="warning")

    def on_connection_resumed(self, message: ConnectionResumed) -> None:
        if self._is_stale(message):
            return
        self.connection_state = "connected"
        # A move sent just before the drop may never have arrived; the resumed view (which
        # may repeat the last seq) is the one to play from.
        self._move_sent_at = None
        client = self.client
        if self.joined_from is not None and client is not None and client.relocator is not None:
            # Resumed where the table was found again: a new app joining there later
            # must find the seat's token under that address.
            self.joined_from.table_moved(client)
        self.notify("Reconnected: watching again." if self.spectating
                    else "Reconnected: your seat is back.")

    def on_connection_ended(self, message: ConnectionEnded) -> None:
        if self._is_stale(message):
            return
        self.connection_state = "closed"
        self.client = None
        if message.code in TABLE_GONE and self.hosting == "guest" and self.welcome is not None:
            self._say_table_gone(message)
        elif message.code != "normal":
            reason = message.reason or message.code.replace("-", " ")
            self.notify(f"Disconnected from the table: {reason}", severity="error", timeout=10,
                        markup=False)  # the reason came over the network

    def _say_table_gone(self, message: ConnectionEnded) -> None:
        """The table closed for good: say so over whatever is shown, and offer the way on
        (back to the lobby the player came from, or quit)."""
        from ono99tui.ui.screens.table_gone import TableGoneChoice, TableGoneScreen

        headline, explanation = TABLE_GONE[message.code]
        lobby = self._lobby_screen()

        def chosen(choice: TableGoneChoice | None) -> None:
            if choice == "lobby" and lobby is not None:
                self._back_to_lobby(lobby, f"{headline} Pick another table, or type an address.")
            else:
                self.exit()

        reason = message.reason or message.code
        self.push_screen(TableGoneScreen(headline, explanation.format(reason=reason),
                                         lobby=lobby is not None), chosen)

    def _lobby_screen(self) -> Any:
        """The lobby this table was joined from (`ono99 join`), if any."""
        from ono99tui.ui.screens.lobby import LobbyScreen

        return next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)

    def _back_to_lobby(self, lobby: Any, status: str) -> None:
        """Forget the table and show `lobby` again, saying `status` there."""
        while self.screen is not lobby and len(self.screen_stack) > 1:
            self.pop_screen()
        self.welcome = None
        self.view_seq = -1
        self._move_sent_at = None
        self._new_match()
        self.view = None
        self.lobby = None
        self.connection_state = "offline"
        self._taking_seat = False
        self._seat_wanted = False
        lobby.come_back(status)

    @property
    def move_in_flight(self) -> bool:
        """Has a move been sent that the table has not answered yet (by a newer view or an
        error)? Any move chosen meanwhile would be based on an outdated view."""
        return self._move_sent_at is not None

    async def on_move_chosen(self, message: MoveChosen) -> None:
        from ono99tui.game.codec import move_to_wire

        if self.move_in_flight:
            return  # a second key press before the table answered the first: quietly ignored
        based_on = self.view_seq
        self._move_sent_at = based_on
        sent = await self._send(
            lambda client: client.send_move(move_to_wire(message.move), based_on)
        )
        if not sent:
            self._move_sent_at = None

    # --- table talk ---------------------------------------------------------------------

    @property
    def may_chat(self) -> bool:
        """May this player talk at this table now? The table must know `say` (its welcome
        says so), somebody must be there to hear (not solo), and a spectator only while the
        host lets spectators talk."""
        welcome, lobby = self.welcome, self.lobby
        if (welcome is None or welcome.table.get("chat") is not True
                or self.hosting == "solo" or self.connection_state != "connected"):
            return False
        if welcome.role == "spectator" or (lobby is not None and lobby.you is None):
            return lobby is None or lobby.options.get("spectator_chat", True) is not False
        return True

    def on_chat_received(self, message: ChatReceived) -> None:
        """Show a line of talk in the log (unless its sender is muted); where no log is in
        sight, as a toast too."""
        if self._is_stale(message):
            return
        entry = self.talk.entry(message.chat)
        if entry is None:
            return
        from ono99tui.ui.screens.chat_prompt import ChatPrompt
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        table, screen = self._table_screen(), self.screen
        if isinstance(screen, ChatPrompt) and len(self.screen_stack) > 1:
            screen = self.screen_stack[-2]  # the prompt leaves the log above it in sight
        if table is not None:
            self.log_entries.append(entry)
            table.add_log_lines([entry])
        else:
            self._talk_before_deal.append(entry)
            del self._talk_before_deal[:-TALK_CARRIED]
        if isinstance(screen, WaitingRoomScreen):
            in_sight = screen.add_chat(entry)
        else:
            in_sight = screen is table and not table.has_class("-narrow")
        if not in_sight:
            self._toast_chat(entry)

    def _toast_chat(self, entry: LogEntry) -> None:
        """A line of talk as a toast, cut short with an ellipsis where it would stand tall
        over the table (the log keeps the whole line). Under 80 columns the toast lies over
        the seats (see CSS): a 200-character line covered all of them at 61x19."""
        from ono99tui.ui.screens.table import TableScreen

        # The toast goes on the screen on top (the chat prompt's own, while it is open).
        narrow = isinstance(self.screen, TableScreen) and self.screen.has_class("-narrow")
        width = self.size.width // 2 if narrow else min(TOAST_WIDTH, self.size.width)
        ascii_glyphs = self.glyphs.ascii
        # Text width: the toast's padding (a column each side) and its coloured edge.
        line = toast_text(entry.text(ascii_glyphs), max(8, width - 3), 2 if narrow else 4,
                          ascii_glyphs=ascii_glyphs)
        self.notify(line, title="Chat", timeout=5, markup=False)

    def open_chat_prompt(self) -> None:
        """The one-line prompt; what is typed in it is said at the table."""
        from ono99tui.ui.screens.chat_prompt import ChatPrompt

        def said(text: str | None) -> None:
            if text:
                self.post_message(ChatRequested(text=text))

        if self.may_chat and not isinstance(self.screen, ChatPrompt):
            self.push_screen(ChatPrompt(), said)

    def open_mute_list(self) -> None:
        """The list of people at the table, to mute or unmute (for this session)."""
        from ono99tui.ui.screens.mute import MuteScreen

        if isinstance(self.screen, MuteScreen):
            return
        lobby = self.lobby
        seats = lobby.seats if lobby is not None else ()
        mine = next((seat.name for seat in seats
                     if lobby is not None and seat.seat == lobby.you), None)
        # People at the table (bots never talk), then anyone else heard (spectators).
        names = [seat.name for seat in seats if seat.name != mine and seat.kind != "bot"]
        names += [name for name in self.talk.heard if name not in names and name != mine]
        self.push_screen(MuteScreen(names, set(self.talk.muted)), self._muted)

    def _muted(self, names: set[str] | None) -> None:
        if names is None or names == self.talk.muted:
            return
        self.talk.set_muted(names)
        self.notify(f"Muted: {', '.join(sorted(names))}" if names else "Nobody is muted.",
                    timeout=3, markup=False)

    async def on_chat_requested(self, message: ChatRequested) -> None:
        text, emote = message.text, message.emote
        if text is not None:
            await self._send(lambda client: client.say(text), "Not said")
        elif emote is not None:
            await self._send(lambda client: client.emote(emote), "Not said")

    async def on_rematch_requested(self, message: RematchRequested) -> None:
        if self.spectating:
            # A spectator's connection may not say `ready` (netproto/connection.py): to play
            # the next match they take a seat instead.
            self.notify("You are watching this table: take a seat to play the next match.",
                        title="Not a player", severity="warning", timeout=4)
            return
        await self._send(lambda client: client.start() if client.is_host else client.ready(True))

    async def _send(self, action: Callable[[TableClient], Awaitable[None]],
                    title: str = "Not sent") -> bool:
        """Send something to the table; say in words why not (under `title`) and return
        False if it failed."""
        from netproto.client import ClientError

        client = self.client
        if client is None:
            self.notify("Not connected to the table: nothing was sent.", title=title,
                        severity="error")
            return False
        try:
            await action(client)
        except ClientError as error:
            self.notify(shown_reason(error.reason) or error.code, title=title, severity="error",
                        markup=False)
            return False
        except OSError as error:
            self.notify(f"Not sent: {shown_reason(str(error))}", title=title, severity="error",
                        markup=False)
            return False
        return True

    # --- requests from the lobby and the waiting room -------------------------------------

    def follow_table(self, client: TableClient, lobby: LobbyScreen,
                     request: JoinRequest | None = None) -> None:
        """Follow a table the lobby has just connected to, and show its waiting room.

        A call, not a message: the waiting room must be up by the time the table has
        seated the player (and others see them), as it was when the lobby pushed it.
        `lobby` is where leaving the table goes back to; `request` is what the lobby joined
        with (a spectator who takes a seat joins again with it). Whatever the previous
        connection had on screen above the lobby (a spectator taking a seat: the table and
        its match-over dialog) goes first.
        """
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        async def connected() -> TableClient:
            return client

        if lobby in self.screen_stack:
            while self.screen is not lobby:
                self.pop_screen()
        self.connect(connected)
        self.joined_from = lobby
        self._join_request = request
        self._taking_seat = False
        self.push_screen(WaitingRoomScreen())

    # --- a spectator takes a seat ---------------------------------------------------------

    @property
    def spectating(self) -> bool:
        """Is this app connected as a spectator (its connection may only talk, never say
        ready or play: netproto/connection.py)?"""
        welcome = self.welcome
        return welcome is not None and welcome.role == "spectator"

    @property
    def taking_seat(self) -> bool:
        """Is a spectator's "take a seat" under way (the spectator's connection closed, a
        new one asking for a seat not yet followed)?"""
        return self._taking_seat

    def _rejoin_lobby(self) -> LobbyScreen | None:
        """The lobby to join this table again from, with what it joined with (None where
        the app did not come from a lobby, or it is no longer under the table)."""
        lobby = self.joined_from
        if lobby is None or self._join_request is None or lobby not in self.screen_stack:
            return None
        return lobby

    def may_take_seat(self) -> bool:
        """May this spectator ask for a seat now? Watching, connected, with a way to join
        the table again as a player (the lobby's request, or the host's own factory), no
        such request under way, and the table between matches with a seat that may be free
        (`ono99tui.ui.free_seats`)."""
        from ono99tui.ui.free_seats import seats_free

        return self._may_ask_for_a_seat() and seats_free(self.lobby) > 0

    def may_want_seat(self) -> bool:
        """May this spectator ask now, while a match is on, for a seat in the next one? The
        same as `may_take_seat` but for the table's phase."""
        return (self._may_ask_for_a_seat() and self.lobby is not None
                and self.lobby.phase == "playing")

    def _may_ask_for_a_seat(self) -> bool:
        # Watching, connected, with a way to join again as a player, nothing under way.
        return (self.spectating and self.client is not None
                and self.connection_state == "connected" and not self._taking_seat
                and (self._rejoin_lobby() is not None or self._seat_factory is not None))

    @property
    def seat_wanted(self) -> bool:
        """Has this spectator asked for a seat as soon as the match ends?"""
        return self._seat_wanted

    def want_seat(self) -> None:
        """Ask (or, asked already, stop asking) for a seat as soon as this match ends. The
        app takes it itself the moment the table says the match is over, so a host quick
        to deal the rematch does not leave the spectator watching another whole match."""
        self._seat_wanted = not self._seat_wanted
        if self._seat_wanted:
            self.notify("You take a seat as soon as this match ends, if one is free "
                        "(t again to keep watching).", timeout=8)
        else:
            self.notify("You keep watching after this match.", timeout=5)

    def on_take_seat_requested(self, message: TakeSeatRequested) -> None:
        self.take_seat()

    def take_seat(self) -> bool:
        """Leave the table as a spectator and join it again asking for a seat: a clean bye
        first, then a new connection with the same name, password and host key. Joined
        from a lobby, the lobby's own join does it (so a table that is full or dealing by
        then seats them as a spectator again, saying so, and a table that is gone sends
        them back to the lobby, saying why); the host's own app connects with its factory.
        False (and nothing done) when it may not (`may_take_seat`), e.g. a second press
        while the first is under way."""
        if not self.may_take_seat():
            return False
        self._taking_seat = True
        self.screen.refresh_bindings()  # the key is not offered twice
        self._rejoin_as_player()
        return True

    @work(exclusive=True, group="take-seat", exit_on_error=False)
    async def _rejoin_as_player(self) -> None:
        from dataclasses import replace as replace_field

        lobby, request, factory = self._rejoin_lobby(), self._join_request, self._seat_factory
        spectator = self.client
        # From here on whatever the spectator's connection still reports (its end) is
        # stale: the screens shown stay as they are until the new connection is followed.
        self._connection_no += 1
        self.client = None
        try:
            if spectator is not None:
                with contextlib.suppress(OSError, TimeoutError):
                    await asyncio.wait_for(spectator.close("taking a seat"), 10.0)
            if lobby is not None and request is not None:
                lobby.start_join(replace_field(request, spectate=False), taking_seat=True)
            elif factory is not None:
                self._follow_new_seat(factory)
            else:  # cannot happen: `may_take_seat` checked there is a way
                raise RuntimeError("no way to join the table again")
        except Exception as error:  # never leave the player on a table with no connection
            self._taking_seat = False
            if lobby is not None:
                self._back_to_lobby(lobby, f"Could not take a seat: {error}")
            else:
                self.connection_state = "closed"
                self.notify(f"Could not take a seat: {error}", severity="error", timeout=10,
                            markup=False)

    def _follow_new_seat(self, factory: ClientFactory) -> None:
        """Connect with the host's own factory and show the waiting room it opened on
        (everything above it goes: the table and its match-over dialog)."""
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        room = next((s for s in self.screen_stack if isinstance(s, WaitingRoomScreen)), None)
        if room is not None:
            while self.screen is not room:
                self.pop_screen()
        self._seat_asked = True
        self.connect(factory)
        self._taking_seat = False
        if room is None:
            self.push_screen(WaitingRoomScreen())

    def _back_to_waiting_room(self) -> None:
        """Forget the match shown and show the waiting room under the table (`ono99 join`
        and the host's app open on one): the seat held now was given for the next deal."""
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        room = next((s for s in self.screen_stack if isinstance(s, WaitingRoomScreen)), None)
        if room is None:
            return
        while self.screen is not room:
            self.pop_screen()
        self._lobby_at_match_end = None
        self.view = None

    def seat_not_taken(self, lobby: LobbyScreen, status: str) -> None:
        """The lobby could not join the table again for a spectator taking a seat (it is
        gone, or the password prompt was cancelled): back to the lobby, saying `status`."""
        self._taking_seat = False
        self._back_to_lobby(lobby, status)

    async def on_ready_requested(self, message: ReadyRequested) -> None:
        ready = message.ready
        await self._send(lambda client: client.ready(ready), "Could not change ready")

    async def on_add_bot_requested(self, message: AddBotRequested) -> None:
        bot = message.bot
        await self._send(lambda client: client.add_bot(bot), "Could not add a bot")

    async def on_remove_bot_requested(self, message: RemoveBotRequested) -> None:
        seat = message.seat
        await self._send(lambda client: client.remove_bot(seat), "Could not remove the bot")

    async def on_start_requested(self, message: StartRequested) -> None:
        await self._send(lambda client: client.start(), "Could not start")

    async def on_options_change_requested(self, message: OptionsChangeRequested) -> None:
        options: dict[str, object] = {}
        if message.preset is not None:
            options["preset"] = message.preset
        if message.rules is not None:
            options["rules"] = message.rules
        if message.table is not None:
            options.update(message.table)
        await self._send(lambda client: client.set_options(**options), f"Could not {message.what}")

    def can_leave_table(self, room: Screen[Any]) -> bool:
        """May the player leave the table shown on `room` for the lobby they joined it from,
        under it? (Not at the host's own table, nor in solo: no lobby to go back to.)"""
        stack = self.screen_stack
        if self.joined_from is None or room not in stack or self._taking_seat:
            return False
        # Right under it, or under the table the room was opened over after a match.
        return self.joined_from in stack[:stack.index(room)]

    async def on_leave_requested(self, message: LeaveRequested) -> None:
        """Give up the seat (or stop watching) and go back to the lobby.

        Asks nothing: the table goes on without the player (if they held its host rights,
        the next person seated gets them). The host of `ono99 host`, whose leaving would
        close the table, has no lobby to go to: they close it with `q`, which asks first.
        """
        lobby = self.joined_from
        if lobby is None or not self.can_leave_table(self.screen):
            return
        client = self.client
        if client is not None:
            await client.close("left the table")
        # This table's state must not show in the next table's waiting room.
        self.lobby = None
        while self.screen is not lobby:
            self.pop_screen()
        lobby.set_status("You left the table. Pick another, or type an address.")

    # --- what the screens read ----------------------------------------------------------

    @property
    def table_rules(self) -> Rules | None:
        """The table's rules as its latest lobby gives them (decoded once per lobby), or
        None before the first lobby or if the table sent rules this app cannot read."""
        lobby = self.lobby
        if lobby is None:
            return None
        if lobby is not self._rules_source:
            from ono99tui.game.codec import rules_from_wire

            self._rules_source = lobby
            try:
                self._rules = rules_from_wire(lobby.options.get("rules"))
            except ValueError:
                self._rules = None
        return self._rules

    @property
    def hints_allowed(self) -> bool:
        """Does the table allow hints (`lobby.options.hints`)? An honour setting: the app
        works hints out from its own view, and hides its hint key when this is off."""
        lobby = self.lobby
        return lobby is not None and lobby.options.get("hints") is True

    @property
    def is_host(self) -> bool:
        """Does this player hold the table's host rights (start, bots, rules)?"""
        lobby, welcome = self.lobby, self.welcome
        if lobby is not None and lobby.you is not None:
            return lobby.you == lobby.host_seat
        return welcome is not None and welcome.host

    # --- the story of the match ---------------------------------------------------------

    def _record(self, events: tuple[Event, ...], view: PlayerView, *,
                catching_up: bool = False, abridged: int = 0) -> None:
        """Put `events` in the story of the match: the log, the round results, the order
        seats went out in. `catching_up`: they are a (re)joined view's history, which
        says nothing about a stand-in (the view's own events do); `abridged`: how many of
        their first rounds the table shortened (the log says so)."""
        from ono99tui.game import Eliminated, RoundDealt, RoundEnded
        from ono99tui.ui.present import event_line, names_of

        seats = self.lobby.seats if self.lobby else ()
        names = names_of(view, seats)
        unicode, ascii = glyphs_for(False), glyphs_for(True)
        table = self._table_screen()
        lines: list[LogEntry] = []
        for event in events:
            if isinstance(event, RoundDealt) and event.round_no == 1:
                if table is not None and lines:
                    table.add_log_lines(lines)  # the end of the last match, before the page turns
                # The talk of the waiting room opens the first match's log.
                lines = self._talk_before_deal[-TALK_CARRIED:]
                self._new_match()
                self.matches_started += 1
                self._match_page_open = True
                if table is not None:
                    table.start_log_match(f"Match {self.matches_started}")
            elif isinstance(event, RoundEnded):
                self.round_results.append(event)
            elif isinstance(event, Eliminated):
                self.out_order.append(event.seat)
            if abridged and isinstance(event, RoundDealt):
                lines.append(_abridged_entry(abridged))
                abridged = 0
            line = event_line(event, names, view, unicode)
            if line is not None:
                lines.append(LogEntry(line, event_line(event, names, view, ascii) or line))
        stand_in = None if catching_up else self._tell_what_was_played(events, view)
        if stand_in is not None:
            lines.append(LogEntry(stand_in, stand_in))
        self.log_entries.extend(lines)
        if table is not None and lines:
            table.add_log_lines(lines)

    def _catch_up(self, history: History, events: tuple[Event, ...],
                  view: PlayerView) -> tuple[Event, ...]:
        """Take in the match so far that a (re)joined view tells (its `history`, then its
        `events`) as if the app had watched it: into the log, the round results, the
        busts and what a hint may know, but quietly (no toast, dialog or bell for what is
        past), and nothing the app already took in a second time. Returns the view's
        events that are news to the app, to be taken in as any view's."""
        from ono99tui.game import MatchEnded, RoundDealt
        from ono99tui.ui.catch_up import unseen_from
        from ono99tui.ui.present import names_of
        from ono99tui.ui.round_busts import RoundBusts

        story = (*history.events, *events)
        start = unseen_from(self.seen.events, story)
        if start is None:
            if not any(isinstance(event, MatchEnded) for event in self.seen.events):
                # The table's account differs from what this app holds of the match: the
                # table is the authority, so its account replaces the app's.
                opens = bool(story) and type(story[0]) is RoundDealt and story[0].round_no == 1
                self._forget_this_match(reopened=opens)
            start = 0  # (else the match the app saw is over: the story is the next one's)
        told = len(history.events)
        past = story[start:told]
        if past:
            self._record(past, view, catching_up=True,
                         abridged=history.abridged if start == 0 else 0)
            self.seen.add(past)
            self.round_busts = self.round_busts or RoundBusts()
            self.round_busts.record(past, names_of(view, self.lobby.seats if self.lobby else ()),
                                    view, after=story[told:])
            if any(isinstance(event, RoundDealt) for event in past):
                self._close_round_dialogs()  # a round the app saw end is long over
        return story[max(start, told):]

    def _forget_this_match(self, *, reopened: bool) -> None:
        """Drop the app's story of the match in progress (its log lines, round results,
        busts), for the table's account to replace. What was said at the table meanwhile
        is kept: it opens the match's log again when the account starts with the deal
        (`reopened`), else it stays where the log goes on."""
        table = self._table_screen()
        talk = [entry for entry in self.log_entries if entry.chat]
        page_open = self._match_page_open
        # The page goes too only if the table's account opens it again.
        if table is not None:
            table.forget_log_match(len(self.log_entries), page_open and reopened)
        self._new_match()
        self.round_busts = None
        if reopened:
            if page_open:
                self.matches_started -= 1  # counted again as the account opens the page
            self._talk_before_deal = talk
        else:
            self._match_page_open = page_open
            self.log_entries.extend(talk)
            if table is not None and talk:
                table.add_log_lines(talk)

    def _close_round_dialogs(self) -> None:
        """Close a bust banner or a round's results still open from before a drop: the
        match has moved on past them."""
        from ono99tui.ui.screens.bust import BustScreen
        from ono99tui.ui.screens.results import RoundEndScreen

        while isinstance(self.screen, (BustScreen, RoundEndScreen)):
            self.pop_screen()

    def _tell_what_was_played(self, events: tuple[Event, ...], view: PlayerView) -> str | None:
        """The first view after the player was away (a new connection, or one resumed
        after a drop) brings the events the table kept for the seat: say what a stand-in
        bot played in the seat's name meanwhile."""
        if not self._away:
            return None
        self._away = False
        if view.seat is None:
            return None
        from ono99tui.ui.present import stand_in_line

        return stand_in_line(events, view.seat, view.rules, skip_first=self._move_in_flight_at_drop)

    def _announce(self, events: tuple[Event, ...], view: PlayerView) -> None:
        """Toasts and end-of-round / end-of-match screens."""
        from ono99tui.game import (
            Eliminated,
            MatchEnded,
            Resigned,
            RoundDealt,
            RoundEnded,
            TimedOut,
        )
        from ono99tui.ui.present import seat_name, verb
        from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen

        seats = self.lobby.seats if self.lobby else ()
        match_over = any(isinstance(event, MatchEnded) for event in events)
        if any(isinstance(event, RoundDealt) for event in events):
            # A new round or a rematch: the previous results are history.
            while isinstance(self.screen, (RoundEndScreen, MatchEndScreen)) and not match_over:
                self.pop_screen()
        # A dialog is (or is about to be) on screen: it says what happened, and a toast
        # would only cover it (the log has the line).
        dialog = (match_over or any(isinstance(event, RoundEnded) for event in events)
                  or isinstance(self.screen, ModalScreen))
        for event in events:
            if isinstance(event, Eliminated) and not dialog:
                who = (
                    "You are" if event.seat == view.seat
                    else verb(seat_name(event.seat, seats), "is", "are")
                )
                # markup=False: `who` is a player's name, and names may hold brackets.
                self.notify(f"{who} out of the match.", severity="warning", markup=False)
            elif isinstance(event, TimedOut) and event.seat == view.seat and not dialog:
                again = f" ({event.in_a_row} in a row)" if event.in_a_row > 1 else ""
                resigned = any(isinstance(e, Resigned) and e.seat == view.seat for e in events)
                then = "" if resigned else ": a stand-in plays your turn"
                self.notify(f"Your time ran out{again}{then}.", severity="warning")
        if match_over:
            # The match's dialog has every round: one still open under it would be what
            # Esc leads back to, instead of the table and its rematch key.
            while isinstance(self.screen, RoundEndScreen):
                self.pop_screen()
            self.clear_notifications()
            self.push_screen(MatchEndScreen())
        elif any(isinstance(event, RoundEnded) for event in events):
            if isinstance(self.screen, RoundEndScreen):
                self.pop_screen()
            self.push_screen(RoundEndScreen(self.round_results[-1]))

    def _follow_busts(
        self, events: tuple[Event, ...], before: PlayerView | None, view: PlayerView
    ) -> None:
        """Hold the player's own bust on screen (`BustScreen`) until a key, the next deal or
        the end of the match (whose dialog takes over), and keep each round's busts for its
        round-end dialog (`round_busts`)."""
        from ono99tui.game import MatchEnded, RoundDealt
        from ono99tui.ui.present import bust_notice, names_of
        from ono99tui.ui.round_busts import RoundBusts
        from ono99tui.ui.screens.bust import BustScreen

        if isinstance(self.screen, BustScreen) and any(
            isinstance(e, (RoundDealt, MatchEnded)) for e in events
        ):
            self.pop_screen()
        self.round_busts = self.round_busts or RoundBusts()
        self.round_busts.record(
            events, names_of(view, self.lobby.seats if self.lobby else ()), view
        )
        notice = bust_notice(events, before, view, self.glyphs)
        if notice is not None and notice.ends_round:
            self.round_busts.keep_yours(notice, events)  # the round-end dialog shows it
        elif notice is not None:
            self.push_screen(BustScreen(notice))

    def _alert_turn(self, before: PlayerView | None, view: PlayerView) -> None:
        """Ring the bell when the player's turn comes, and say so in the terminal's title."""
        if self.turn_alert is None:
            from ono99tui.ui.turn_alert import TurnAlert

            self.turn_alert = TurnAlert()
        ring, title = self.turn_alert.follow(before, view)
        if ring:
            self.bell()
        if title is not None:
            self.set_terminal_title(title)

    def set_terminal_title(self, title: str) -> None:
        """Set the terminal window's title (an OSC 2 sequence; nothing when headless)."""
        self.terminal_title = title
        if not self.is_headless and self._driver is not None:
            self._driver.write(f"\x1b]2;{title}\x07")

    def action_toggle_turn_alert(self) -> None:
        """Switch the turn alert (bell and title) on or off, and remember it."""
        from ono99tui.config import ConfigError
        from ono99tui.ui.turn_alert import TITLE_IDLE, TurnAlert

        alert = self.turn_alert = self.turn_alert or TurnAlert()
        enabled = not alert.enabled
        try:
            alert.set_enabled(enabled)
        except ConfigError as error:
            self.notify(
                f"{error}: for this session only.", title="Not remembered", severity="warning",
                markup=False,  # the error quotes a path, which may hold brackets
            )
        if not enabled:
            if alert.title not in (None, TITLE_IDLE):
                self.set_terminal_title(TITLE_IDLE)  # no "your turn" left behind
            alert.title = None
        self.notify("Turn alert on: a bell and the title on your turn." if enabled
                    else "Turn alert off: no bell on your turn.", timeout=3)

    def _table_screen(self) -> Any:
        from ono99tui.ui.screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    def _show_table(self) -> None:
        """Open the table screen once a match is on (from the lobby or the waiting room)."""
        from ono99tui.ui.screens.chat_prompt import ChatPrompt
        from ono99tui.ui.screens.mute import MuteScreen
        from ono99tui.ui.screens.table import TableScreen

        table = self._table_screen()
        if table is not None:
            if self.screen is not table:
                # (Loaded only here: solo's first view must not wait for the room's module.)
                from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

                stack = self.screen_stack
                if any(isinstance(screen, WaitingRoomScreen)
                       for screen in stack[stack.index(table):]):
                    # Dealt from the room opened over the table after a match: the room,
                    # and whatever is open over it, makes way for the table again.
                    while self.screen is not table:
                        self.pop_screen()
        else:
            # A chat prompt or the mute list open in the waiting room would be left
            # behind, under the table, for good.
            while isinstance(self.screen, (ChatPrompt, MuteScreen)):
                self.pop_screen()
            # Talk heard before the table opened (joined mid-match: no deal to carry it).
            self.log_entries[:0] = self._talk_before_deal[-TALK_CARRIED:]
            self._talk_before_deal.clear()
            self.push_screen(TableScreen())

    def _terminal_gone(self) -> bool:
        """Whether the driver has noticed the terminal go away (the hang-up may not have
        reached `on_terminal_hung_up` yet)."""
        driver = self._driver
        return isinstance(driver, HangupReporter) and driver.hung_up

    async def on_terminal_hung_up(self, message: TerminalHungUp) -> None:
        """The terminal is gone (window closed, SSH connection lost): nobody can see or play
        this seat now, so close the connection and exit. The bye says "hangup", not
        "normal": the player did not choose to leave, so the table holds the seat for its
        grace period and `ono99 join` run again reclaims it."""
        client = self.client
        self.client = None
        if client is not None:
            with contextlib.suppress(OSError, TimeoutError):
                await asyncio.wait_for(client.close("the terminal went away", code=HANGUP), 2.0)
        self.exit(return_code=129)  # 128 + SIGHUP, as a shell reports a hung-up process

    # --- glyphs, themes, quitting, help -------------------------------------------------

    def watch_glyphs(self, glyphs: Glyphs) -> None:
        self.set_class(glyphs.ascii, "-ascii")
        for screen in self.screen_stack:
            for widget in screen.query("*"):
                widget.refresh(layout=True)

    def action_toggle_ascii(self) -> None:
        """Switch between Unicode and ASCII-only glyphs."""
        self.glyphs = glyphs_for(not self.glyphs.ascii)
        self.notify("ASCII glyphs" if self.glyphs.ascii else "Unicode glyphs", timeout=2)

    def action_rules(self) -> None:
        """Show the rules of this table's preset and options."""
        from ono99tui.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def in_game(self) -> bool:
        """Is this player seated in a match that is still going?"""
        view = self.view
        return (
            view is not None
            and view.seat is not None
            and view.phase != "match_over"  # game.MATCH_OVER; the engine may not be loaded
            and not view.eliminated[view.seat]
            and self.connection_state != "closed"
        )

    def action_redraw(self) -> None:
        """Draw the whole screen again, as terminal programs do on Ctrl+L: the app writes only
        what changes, so a terminal cleared or scribbled on from outside stays wrong until
        then."""
        driver = self._driver
        if isinstance(driver, ScreenDiffing):
            driver.forget_screen()
        self.screen.refresh()

    async def action_quit(self) -> None:
        """Quit; in the middle of a match, ask first."""
        from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen

        if isinstance(self.screen, ConfirmQuitScreen):
            self.exit()
            return
        if not self.in_game() and not self.hosting_others():
            self.exit()
            return

        def answered(quit_now: bool | None) -> None:
            if quit_now:
                self.exit()

        self.push_screen(ConfirmQuitScreen(*self.quit_warning()), answered)

    def tell_host(self, text: str) -> None:
        """Say something about its table the person hosting it must know now (the table's
        journal could not be written, was deleted, can be written again): long enough to
        be read, and marked as a warning. `text` names files: no markup in it."""
        self.notify(text, title="Journal", severity="warning", timeout=30,
                    markup=False)

    def hosting_others(self) -> bool:
        """Does this app run the table (`ono99 host`) with other people (seated or watching)
        whom quitting would send away? Bots don't count: nobody minds their table closing.

        Host rights alone are not enough: a player who joined with them (the first person
        seated at a table with no secret, or a headless table's operator with its key)
        leaves a table that stays open.
        """
        lobby = self.lobby
        if self.hosting != "host" or lobby is None:
            return False
        from netproto.messages import SeatKind

        people = [seat for seat in lobby.seats
                  if seat.seat != lobby.you and seat.kind != SeatKind.BOT]
        return bool(people) or lobby.spectators > 0

    def quit_warning(self) -> tuple[str, str]:
        """(question, explanation) of the quit dialog: what quitting does at this table."""
        if self.hosting == "solo":
            return "Quit the game?", "This is a solo game: quitting ends it for good."
        if self.hosting == "host":
            if not self.in_game():
                return ("Close the table?",
                        "You host this table: quitting closes it for everyone waiting at it.")
            # Quitting here is the host's choice: the match ends for good (only a crash or a
            # stopped host leaves a match that a restart takes up; docs/JOURNAL.md).
            return ("Close the table?",
                    "You host this table: quitting closes it and ends the match for everyone, "
                    "for good (it stays in the history as abandoned; restarting the host will "
                    "not take it up).")
        options = self.lobby.options if self.lobby is not None else {}
        grace = options.get("grace_seconds")
        held = f"held for {grace:g} s" if isinstance(grace, (int, float)) else "held for a while"
        then = ("then you are out of the match" if options.get("abandon_policy") == "eliminate"
                else "then a bot plays it")
        return ("Leave the match?",
                f"The match goes on without you: your seat is {held} (come back to take it "
                f"back), {then}.")

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Textual's screenshot (the palette's "Screenshot"), saved where it can be: Textual
        writes into the Downloads folder and only said "Failed to save screenshot" where
        there is none (a server, an SSH door's user). See `screenshot_directory`."""
        if path is None:
            path = str(screenshot_directory())
        return super().deliver_screenshot(filename, path, time_format)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            "ASCII glyphs",
            "Switch between Unicode and plain ASCII characters",
            self.action_toggle_ascii,
        )
        yield SystemCommand(
            "Rules", "The rules of this table's preset and options", self.action_rules
        )
        if self.may_open_room:
            yield SystemCommand(
                "Waiting room",
                "Back to the waiting room: change the rules or the seats before the next match",
                self.action_open_room,
            )
        yield SystemCommand(
            "Turn alert", "Ring the bell and set the title on your turn (on/off, remembered)",
            self.action_toggle_turn_alert,
        )
