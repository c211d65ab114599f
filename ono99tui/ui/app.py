"""The ONO 99 Textual app: the adapter between one table's connection, the client session
and the screens (as `host/server.py` is for the host's core).

Public entry points (used by `ono99 solo`, `ono99 join`, `ono99 host` and the SSH door):

- `Ono99App(client_factory=None, *, start_screen=None, ascii_glyphs=None)`:
  `client_factory` is an async callable returning a connected `netproto.client.TableClient`
  (for example `lambda: TableClient.connect(host, port, name=...)`); `start_screen` is the
  screen shown first (a `Screen` instance, or a callable making one; the lobby passes its
  lobby or waiting room, solo passes `TableScreen`). `ascii_glyphs=None` detects ASCII
  mode from the locale; `sixteen_colours=None` picks the 16-colour theme when the
  terminal reports no more than 16 colours (tests pin both for repeatable snapshots).
- `Ono99App.connect(client_factory)`: start (or replace) the connection, e.g. once the
  lobby has picked a table. The app shows the table screen by itself when the first view
  of a match arrives.

How the parts talk: one exclusive worker reads the `TableClient` and posts each item as a
`TableItem`; the app hands it to its `TableSession` (`ono99tui.client.session`, where every
rule about the table is decided) and carries out what the session returns: frames to send,
notices, dialogs, the bell and the title, the log's changes (published on the
`log_changed` signal) and talk (`talk_heard`). Screens read the session (`app.session`, a
reactive set again after each change: `ui/session_app.py`) and ask for table actions with
messages (`MoveChosen`, `RematchRequested`, `ReadyRequested`, `TakeSeatRequested`...),
which the app hands to the session in turn. Nothing from the network reaches a widget
without going through the session.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import SystemCommand
from textual.screen import ModalScreen, Screen

from netproto.wire.errors import HANGUP
from ono99tui.client.outputs import (
    ClearNotices,
    CloseDialogs,
    Dialog,
    Heard,
    JoinAgain,
    Log,
    LogCleared,
    Notice,
    Output,
    RoomOpened,
    SeatedAnew,
    Send,
    ShowBust,
    ShowMatchEnd,
    ShowRoundEnd,
    ShowTable,
    TableGone,
    TurnSignal,
)
from ono99tui.client.session import Hosting, TableSession
from ono99tui.client.wire_text import shown_reason
from ono99tui.i18n import _
from ono99tui.ui.drivers.hangup import TerminalHungUp
from ono99tui.ui.log_lines import log_entries
from ono99tui.ui.requests import (
    AddBotRequested,
    ChatRequested,
    ConnectFailure,
    LeaveRequested,
    MoveChosen,
    OpenRoomRequested,
    OptionsChangeRequested,
    RatedRequested,
    ReadyRequested,
    RematchRequested,
    RemoveBotRequested,
    StartRequested,
    TableItem,
    TakeSeatRequested,
    WantSeatToggled,
)
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.talk import toast_text
from ono99tui.ui.terminal_app import TerminalApp

if TYPE_CHECKING:  # loaded after the first frame (see `on_mount`)
    from netproto.client import TableClient
    from ono99tui.client.joining import JoinRequest
    from ono99tui.client.turn_alert import TurnAlert

ClientFactory = Callable[[], Awaitable["TableClient"]]
ScreenSource = Screen[Any] | Callable[[], Screen[Any]]

# The width of a toast (the app's CSS says it too), but for half the screen over a narrow
# table.
TOAST_WIDTH = 31


class Ono99App(TerminalApp):
    """One player's (or spectator's) window on one table. See the module docstring."""

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
        table asking for a seat, for a spectator who takes one where there is no lobby to
        join again from (the host's own app: the factory it connects with)."""
        super().__init__(ascii_glyphs=ascii_glyphs, sixteen_colours=sixteen_colours)
        self.set_reactive(Ono99App.session, TableSession(hosting=hosting,
                                                         can_rejoin=seat_factory is not None))
        # Said once the app is up (the host's app: a match taken up from the journal; what
        # the table's journal had to say at the start).
        self._startup_notice = notice
        self._startup_warnings = tuple(warnings)
        self._client_factory = client_factory
        self._start_screen = start_screen
        # The connection this app reads (the worker's); None while there is none.
        self.client: TableClient | None = None
        # What the lobby joined this table with (name, password, host key): a spectator who
        # takes a seat joins again with it, asking for a seat.
        self._join_request: JoinRequest | None = None
        self._seat_factory = seat_factory
        # The bell and title on the player's turn (built on the first turn signal).
        self.turn_alert: TurnAlert | None = None

    # --- start-up -------------------------------------------------------------------------

    def on_mount(self) -> None:
        super().on_mount()
        if self._start_screen is not None:
            screen = self._start_screen
            self.push_screen(
                screen() if callable(screen) and not isinstance(screen, Screen) else screen
            )
        if self._startup_notice:
            # Long enough to be read: it explains why a match is on that nobody started.
            self.notify(self._startup_notice, title=_("Match taken up"), timeout=20, markup=False)
        for warning in self._startup_warnings:
            self.tell_host(warning)
        if self._client_factory is not None:
            # Connecting loads the protocol and the engine (and, for solo, starts a table):
            # let the first frame reach the terminal first.
            self.call_after_refresh(self.connect, self._client_factory)

    def connect(self, client_factory: ClientFactory, *, seat_asked: bool = False) -> None:
        """Connect to a table (replacing any current connection) and follow it: the session
        forgets everything learnt from the previous table, and whatever its connection
        still reports is stale."""
        self._client_factory = client_factory
        self.client = None
        connection, outputs = self.session.connect(seat_asked=seat_asked)
        self._carry_out(outputs)
        self._read_table(client_factory, connection)

    # --- the connection worker -----------------------------------------------------------

    @work(exclusive=True, group="connection", exit_on_error=False)
    async def _read_table(self, client_factory: ClientFactory, connection: int) -> None:
        """Connect, then hand everything the client yields to the app, in order."""
        from netproto.client_errors import ConnectFailed, HandshakeRefused
        from ono99tui.client.connect_errors import connect_error_text

        def failed(code: str, reason: str) -> None:
            self.post_message(ConnectFailure(code, reason, connection))

        try:
            client = await client_factory()
        except (ConnectFailed, HandshakeRefused) as error:
            # Not a table (nothing listening, another protocol) in words; else the table's.
            words = connect_error_text(error)
            failed(error.code, words or shown_reason(error.reason) or error.code)
            return
        except (OSError, TimeoutError) as error:
            failed("unreachable", _("cannot reach the table: {reason}").format(
                reason=shown_reason(str(error))))
            return
        except Exception as error:  # whatever went wrong, say it in words, not a traceback
            failed("cannot-join", _("could not join the table: {reason}").format(
                reason=shown_reason(str(error))))
            return
        if connection != self.session.connection:
            await client.close()  # replaced while it was connecting
            return
        self.client = client
        try:
            async for item in client:
                self.post_message(TableItem(item, connection))
        except Exception as error:
            failed("client-error", _("the connection failed: {reason}").format(
                reason=shown_reason(str(error))))
        finally:
            # Leaving for any reason says goodbye, but not when the terminal is gone: the
            # app may be shutting down because of it before `on_terminal_hung_up` ran.
            await client.close(code=HANGUP if self._terminal_gone() else "normal")

    @on(TableItem)
    def _take_item(self, message: TableItem) -> None:
        from netproto.client import Closed, Reconnected
        from netproto.wire.messages import View

        session = self.session
        if message.connection is not None and message.connection != session.connection:
            return
        if isinstance(message.item, View) and not self.screen_stack:
            return  # (no screens: the app is closing, and a view came in meanwhile)
        if session.table_shown and self._table_screen() is None:
            session.table_closed()  # closed by a key (or a test), not by the app itself
        outputs = session.receive(message.item, self.clock(), message.connection)
        if isinstance(message.item, Closed):
            self.client = None
        elif isinstance(message.item, Reconnected):
            self._keep_seat_where_found()
        self._changed()
        self._carry_out(outputs)

    @on(ConnectFailure)
    def _connect_failed(self, message: ConnectFailure) -> None:
        outputs = self.session.connect_failed(message.code, message.reason, message.connection)
        if message.connection is None or message.connection == self.session.connection:
            self.client = None
        self._changed()
        self._carry_out(outputs)

    def _keep_seat_where_found(self) -> None:
        """Resumed where the table was found again: a new app joining there later must
        find the seat's token under that address."""
        client, lobby = self.client, self.joined_from
        if isinstance(lobby, LobbyScreen) and client is not None and client.relocator is not None:
            lobby.table_moved(client)

    def _changed(self) -> None:
        """The session changed: its watchers (the screens) look again."""
        self.mutate_reactive(Ono99App.session)

    # --- carrying the session's outputs out -----------------------------------------------

    def _carry_out(self, outputs: Iterable[Output]) -> None:
        for output in outputs:
            if isinstance(output, Send):
                # Only the player's intents send (`_act` awaits them, in order).
                self.run_worker(self._send(output), group="send", exit_on_error=False)
            elif isinstance(output, Notice):
                if not (output.quiet_under_dialog and isinstance(self.screen, ModalScreen)):
                    self._notify(output)
            elif isinstance(output, Log | LogCleared):
                self.log_changed.publish(output.change if isinstance(output, Log) else output)
            elif isinstance(output, Heard):
                self._heard(output)
            elif isinstance(output, TurnSignal):
                self._alert_turn(output)
            elif isinstance(output, ShowTable):
                self._show_table()
            elif isinstance(output, CloseDialogs):
                self._close_dialogs(output.dialogs)
            elif isinstance(output, ShowBust):
                self._show_bust(output)
            elif isinstance(output, ShowRoundEnd):
                from ono99tui.ui.screens.results import RoundEndScreen

                self.push_screen(RoundEndScreen(output.result))
            elif isinstance(output, ShowMatchEnd):
                from ono99tui.ui.screens.results import MatchEndScreen

                self.push_screen(MatchEndScreen())
            elif isinstance(output, ClearNotices):
                self.clear_notifications()
            elif isinstance(output, TableGone):
                self._say_table_gone(output)
            elif isinstance(output, RoomOpened):
                self._back_in_the_room(output)
            elif isinstance(output, SeatedAnew):
                self._back_to_waiting_room()
            elif isinstance(output, JoinAgain):
                self.screen.refresh_bindings()  # the key is not offered twice
                self._rejoin_as_player()
            # EventsTaken: for bots; the app's hints read the session's story instead.

    def _notify(self, notice: Notice) -> None:
        # markup=False: notices quote names and the table's words.
        self.notify(notice.text, title=notice.title, severity=notice.severity,
                    timeout=notice.timeout, markup=False)

    async def _send(self, output: Send) -> bool:
        """Send a frame to the table; say in words why not (under the output's title) and
        return False if it failed."""
        from netproto.client_errors import ClientError

        client = self.client
        title = output.failure_title
        error_text: str | None = None
        if client is None:
            error_text = _("Not connected to the table: nothing was sent.")
        else:
            try:
                await client.send(output.message)
            except ClientError as error:
                error_text = shown_reason(error.reason) or error.code
            except OSError as error:
                error_text = _("Not sent: {reason}").format(reason=shown_reason(str(error)))
        if error_text is None:
            return True
        self.session.not_sent(output.message)
        self.notify(error_text, title=title, severity="error", markup=False)
        return False

    async def _act(self, outputs: list[Output]) -> None:
        """Carry out what the session answered a player's intent with: its frames sent in
        order, before the next message is handled."""
        self._changed()
        self._carry_out([output for output in outputs if not isinstance(output, Send)])
        for output in outputs:
            if isinstance(output, Send):
                await self._send(output)

    def _show_table(self) -> None:
        """Open the table screen once a match is on (from the lobby or the waiting room)."""
        from ono99tui.ui.screens.chat_prompt import ChatPrompt
        from ono99tui.ui.screens.mute import MuteScreen
        from ono99tui.ui.screens.table import TableScreen

        table = self._table_screen()
        if table is None:
            # A chat prompt or the mute list open in the waiting room would be left
            # behind, under the table, for good.
            while isinstance(self.screen, ChatPrompt | MuteScreen):
                self.pop_screen()
            self.push_screen(TableScreen())
        elif self.screen is not table and self._room_over(table):
            # Dealt from the room opened over the table after a match: the room, and
            # whatever is open over it, makes way for the table again.
            self._pop_to(table)

    def _room_over(self, table: Screen[Any]) -> bool:
        """Is a waiting room open over `table` (the host opened it after a match)?"""
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        stack = self.screen_stack
        return any(isinstance(screen, WaitingRoomScreen)
                   for screen in stack[stack.index(table):])

    def _back_in_the_room(self, opened: RoomOpened) -> None:
        """The table went from a finished match back to the waiting room: the match's
        screens make way for the room, put over the table so that its log keeps the match
        that is over (the next deal shows the table again, `_show_table`). Once: a room
        over the table stays. (Only from a finished match: the table screen `ono99 solo`
        opens on sees a waiting lobby before its first deal.)"""
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        table = self._table_screen()
        if table is None or self.session.taking_seat or self._room_over(table):
            return  # no match shown (the room is up already), or leaving as a spectator
        # The host's own room under the table says how others join: the new one too.
        invite = next((screen.invite for screen in self.screen_stack
                       if isinstance(screen, WaitingRoomScreen)), "")
        self._pop_to(table)  # the match-over dialog, and whatever else was over the table
        self.push_screen(WaitingRoomScreen(invite=invite))
        if opened.notice is not None:
            self._notify(opened.notice)

    def _close_dialogs(self, dialogs: frozenset[Dialog]) -> None:
        from ono99tui.ui.screens.bust import BustScreen
        from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen

        kinds: dict[Dialog, type[Screen[Any]]] = {
            Dialog.BUST: BustScreen, Dialog.ROUND_END: RoundEndScreen,
            Dialog.MATCH_END: MatchEndScreen,
        }
        closing = tuple(kinds[dialog] for dialog in dialogs)
        while isinstance(self.screen, closing) and len(self.screen_stack) > 1:
            self.pop_screen()

    def _show_bust(self, output: ShowBust) -> None:
        from ono99tui.ui.present import bust_notice
        from ono99tui.ui.screens.bust import BustScreen

        bust = output.bust
        notice = bust_notice(bust.events, bust.before, bust.after, self.glyphs)
        if notice is not None:
            self.push_screen(BustScreen(notice))

    def _heard(self, output: Heard) -> None:
        """A line of talk: the screens that show talk have it (`talk_heard`); where none is
        in sight, it shows as a toast too."""
        from ono99tui.ui.screens.chat_prompt import ChatPrompt
        from ono99tui.ui.screens.talk_screen import TalkScreen

        self.talk_heard.publish(output.said)
        screen = self.screen
        if isinstance(screen, ChatPrompt) and len(self.screen_stack) > 1:
            screen = self.screen_stack[-2]  # the prompt leaves the log above it in sight
        if not (isinstance(screen, TalkScreen) and screen.talk_in_sight()):
            self._toast_chat(f"» {output.said.name}: {output.said.text}",
                             f"> {output.said.name}: {output.said.text}")

    def _toast_chat(self, unicode: str, ascii: str) -> None:
        """A line of talk as a toast, cut short with an ellipsis where it would stand tall
        over the table (the log keeps the whole line). Under 80 columns the toast lies over
        the seats (see CSS): a 200-character line covered all of them at 61x19."""
        from ono99tui.ui.screens.table import TableScreen

        # The toast goes on the screen on top (the chat prompt's own, while it is open).
        narrow = isinstance(self.screen, TableScreen) and self.screen.has_class("-narrow")
        width = self.size.width // 2 if narrow else min(TOAST_WIDTH, self.size.width)
        ascii_glyphs = self.glyphs.ascii
        # Text width: the toast's padding (a column each side) and its coloured edge.
        line = toast_text(ascii if ascii_glyphs else unicode, max(8, width - 3),
                          2 if narrow else 4, ascii_glyphs=ascii_glyphs)
        self.notify(line, title=_("Chat"), timeout=5, markup=False)

    def _alert_turn(self, signal: TurnSignal) -> None:
        """Ring the bell when the player's turn comes, and say so in the terminal's title."""
        if self.turn_alert is None:
            from ono99tui.client.turn_alert import TurnAlert

            self.turn_alert = TurnAlert()
        ring, title = self.turn_alert.take(signal.ring, signal.title)
        if ring:
            self.bell()
        if title is not None:
            self.set_terminal_title(title)

    def _say_table_gone(self, gone: TableGone) -> None:
        """The table closed for good: say so over whatever is shown, and offer the way on
        (back to the lobby the player came from, or quit)."""
        from ono99tui.ui.screens.table_gone import TableGoneChoice, TableGoneScreen

        lobby = self._lobby_screen()

        def chosen(choice: TableGoneChoice | None) -> None:
            if choice == "lobby" and lobby is not None:
                self._back_to_lobby(lobby, _("{headline} Pick another table, or type an "
                                             "address.").format(headline=gone.headline))
            else:
                self.exit()

        self.push_screen(TableGoneScreen(gone.headline, gone.explanation,
                                         lobby=lobby is not None), chosen)

    @property
    def log_lines(self) -> list[str]:
        """This match's log lines, in the glyph set shown now."""
        ascii_glyphs = self.glyphs.ascii
        return [entry.text(ascii_glyphs) for entry in log_entries(self.session.story.items)]

    # --- the player's intents -------------------------------------------------------------

    async def on_move_chosen(self, message: MoveChosen) -> None:
        await self._act(self.session.play(message.move))

    async def on_rematch_requested(self, message: RematchRequested) -> None:
        await self._act(self.session.rematch())

    async def on_ready_requested(self, message: ReadyRequested) -> None:
        await self._act(self.session.ready(message.ready))

    async def on_rated_requested(self, message: RatedRequested) -> None:
        await self._act(self.session.set_rated(message.rated))

    async def on_add_bot_requested(self, message: AddBotRequested) -> None:
        await self._act(self.session.add_bot(message.bot))

    async def on_remove_bot_requested(self, message: RemoveBotRequested) -> None:
        await self._act(self.session.remove_bot(message.seat))

    async def on_start_requested(self, message: StartRequested) -> None:
        await self._act(self.session.start())

    async def on_options_change_requested(self, message: OptionsChangeRequested) -> None:
        await self._act(self.session.set_options(message.what, preset=message.preset,
                                           rules=message.rules, table=message.table))

    async def on_chat_requested(self, message: ChatRequested) -> None:
        if message.text is not None:
            await self._act(self.session.say(message.text))
        elif message.emote is not None:
            await self._act(self.session.emote(message.emote))

    async def on_open_room_requested(self, message: OpenRoomRequested) -> None:
        await self._act(self.session.open_room())

    def action_open_room(self) -> None:
        """The host: back to the waiting room, to change the rules or the seats before
        the next match (the match-over dialog's `o`, the table's, the command palette)."""
        self.post_message(OpenRoomRequested())

    async def on_take_seat_requested(self, message: TakeSeatRequested) -> None:
        await self._act(self.session.take_seat())

    async def on_want_seat_toggled(self, message: WantSeatToggled) -> None:
        await self._act(self.session.want_seat())

    def action_chat(self) -> None:
        """The one-line prompt; what is typed in it is said at the table."""
        from ono99tui.ui.screens.chat_prompt import ChatPrompt

        def said(text: str | None) -> None:
            if text:
                self.post_message(ChatRequested(text=text))

        if self.session.may_chat and not isinstance(self.screen, ChatPrompt):
            self.push_screen(ChatPrompt(), said)

    def action_mute(self) -> None:
        """The list of people at the table, to mute or unmute (for this session)."""
        from netproto.wire.messages import SeatKind
        from ono99tui.ui.screens.mute import MuteScreen

        if isinstance(self.screen, MuteScreen):
            return
        session = self.session
        lobby = session.lobby
        seats = lobby.seats if lobby is not None else ()
        mine = next((seat.name for seat in seats
                     if lobby is not None and seat.seat == lobby.you), None)
        # People at the table (bots never talk), then anyone else heard (spectators).
        names = [seat.name for seat in seats if seat.name != mine and seat.kind != SeatKind.BOT]
        names += [name for name in session.talk.heard if name not in names and name != mine]
        self.push_screen(MuteScreen(names, set(session.talk.muted)), self._muted)

    def _muted(self, names: set[str] | None) -> None:
        talk = self.session.talk
        if names is None or names == talk.muted:
            return
        talk.set_muted(names)
        self.notify(_("Muted: {names}").format(
            names=", ".join(sorted(names))) if names else _("Nobody is muted."),
                    timeout=3, markup=False)

    # --- joining, leaving, taking a seat ---------------------------------------------------

    @on(LobbyScreen.Joined)
    def _joined(self, message: LobbyScreen.Joined) -> None:
        """Follow a table the lobby has just connected to, and show its waiting room.

        The waiting room must be up by the time the table has seated the player (and others
        see them). `message.request` is what the lobby joined with (a spectator who takes a
        seat joins again with it). Whatever the previous connection had on screen above the
        lobby (a spectator taking a seat: the table and its match-over dialog) goes first.
        """
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        client, lobby = message.connected, message.lobby

        async def connected() -> TableClient:
            return client

        self._pop_to(lobby)
        self.joined_from = lobby
        self._join_request = message.request
        self.session.can_rejoin = message.request is not None or self._seat_factory is not None
        self.connect(connected)
        self.push_screen(WaitingRoomScreen())

    @on(LobbyScreen.JoinFailed)
    def _join_failed(self, message: LobbyScreen.JoinFailed) -> None:
        """The lobby could not join the table again for a spectator taking a seat (it is
        gone, or the password prompt was cancelled): back to the lobby, saying why."""
        self.session.seat_not_taken()
        self._back_to_lobby(message.lobby, message.status)

    @work(exclusive=True, group="take-seat", exit_on_error=False)
    async def _rejoin_as_player(self) -> None:
        """Leave the table as a spectator and join it again asking for a seat: a clean bye
        first, then a new connection with the same name, password and host key. Joined
        from a lobby, the lobby's own join does it (so a table that is full or dealing by
        then seats them as a spectator again, saying so, and a table that is gone sends
        them back to the lobby, saying why); the host's own app connects with its factory."""
        lobby, request, factory = self._lobby_screen(), self._join_request, self._seat_factory
        spectator = self.client
        # From here on whatever the spectator's connection still reports (its end) is
        # stale: the screens shown stay as they are until the new connection is followed.
        self.session.disconnect()
        self.client = None
        try:
            if spectator is not None:
                with contextlib.suppress(OSError, TimeoutError):
                    await asyncio.wait_for(spectator.close("taking a seat"), 10.0)
            if lobby is not None and request is not None:
                lobby.start_join(replace(request, spectate=False), taking_seat=True)
            elif factory is not None:
                self._follow_new_seat(factory)
            else:  # cannot happen: the session's `can_rejoin` says there is a way
                raise RuntimeError("no way to join the table again")
        except Exception as error:  # never leave the player on a table with no connection
            self.session.seat_not_taken()
            if lobby is not None:
                self._back_to_lobby(lobby, _("Could not take a seat: {error}").format(error=error))
            else:
                self.session.connection_state = "closed"
                self._changed()
                self.notify(_("Could not take a seat: {error}").format(
                    error=error), severity="error", timeout=10,
                            markup=False)

    def _follow_new_seat(self, factory: ClientFactory) -> None:
        """Connect with the host's own factory and show the waiting room it opened on
        (everything above it goes: the table and its match-over dialog)."""
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        room = next((s for s in self.screen_stack if isinstance(s, WaitingRoomScreen)), None)
        if room is not None:
            self._pop_to(room)
        self.connect(factory, seat_asked=True)
        if room is None:
            self.push_screen(WaitingRoomScreen())

    def _back_to_waiting_room(self) -> None:
        """Forget the match shown and show the waiting room under the table (`ono99 join`
        and the host's app open on one): the seat held now was given for the next deal."""
        from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

        room = next((s for s in self.screen_stack if isinstance(s, WaitingRoomScreen)), None)
        if room is not None:
            self._pop_to(room)
            self.session.match_left()
            self._changed()

    def _pop_to(self, screen: Screen[Any]) -> None:
        """Close every screen above `screen` (if it is on the stack); the session is told
        when that closes the table."""
        if screen not in self.screen_stack:
            return
        table = self._table_screen()
        while self.screen is not screen:
            self.pop_screen()
        if table is not None and table not in self.screen_stack:
            self.session.table_closed()

    def _back_to_lobby(self, lobby: LobbyScreen, status: str) -> None:
        """Forget the table and show `lobby` again, saying `status` there."""
        self._pop_to(lobby)
        self._carry_out(self.session.reset())
        self._changed()
        lobby.come_back(status)

    async def on_leave_requested(self, message: LeaveRequested) -> None:
        """Give up the seat (or stop watching) and go back to the lobby.

        Asks nothing: the table goes on without the player (if they held its host rights,
        the next person seated gets them). The host of `ono99 host`, whose leaving would
        close the table, has no lobby to go to: they close it with `q`, which asks first.
        """
        lobby = self._lobby_screen()
        if lobby is None or not self.can_leave_table(self.screen):
            return
        client = self.client
        if client is not None:
            await client.close("left the table")
        # This table's state must not show in the next table's waiting room.
        self.session.disconnect()
        self._pop_to(lobby)
        self._carry_out(self.session.reset())
        self._changed()
        lobby.set_status(_("You left the table. Pick another, or type an address."))

    def _lobby_screen(self) -> LobbyScreen | None:
        """The lobby this table was joined from (`ono99 join`), while it is under it."""
        return next((screen for screen in self.screen_stack
                     if screen is self.joined_from and isinstance(screen, LobbyScreen)), None)

    def _table_screen(self) -> Screen[Any] | None:
        from ono99tui.ui.screens.table import TableScreen

        return next((s for s in self.screen_stack if isinstance(s, TableScreen)), None)

    # --- the terminal ---------------------------------------------------------------------

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

    def action_toggle_turn_alert(self) -> None:
        """Switch the turn alert (bell and title) on or off, and remember it."""
        from ono99tui.client.turn_alert import TITLE_IDLE, TurnAlert
        from ono99tui.user_settings import ConfigError

        alert = self.turn_alert = self.turn_alert or TurnAlert()
        enabled = not alert.enabled
        try:
            alert.set_enabled(enabled)
        except ConfigError as error:
            self.notify(
                _("{error}: for this session only.").format(
                    error=error), title=_("Not remembered"), severity="warning",
                markup=False,  # the error quotes a path, which may hold brackets
            )
        if not enabled:
            if alert.title not in (None, TITLE_IDLE):
                self.set_terminal_title(TITLE_IDLE)  # no "your turn" left behind
            alert.title = None
        self.notify(_("Turn alert on: a bell and the title on your turn.") if enabled
                    else _("Turn alert off: no bell on your turn."), timeout=3)

    async def action_quit(self) -> None:
        """Quit; in the middle of a match, or with others at the host's table, ask first."""
        from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen

        if isinstance(self.screen, ConfirmQuitScreen) or not self.session.quitting_asks:
            self.exit()
            return

        def answered(quit_now: bool | None) -> None:
            if quit_now:
                self.exit()

        self.push_screen(ConfirmQuitScreen(*self.session.quit_warning()), answered)

    def tell_host(self, text: str) -> None:
        """Say something about its table the person hosting it must know now (the table's
        journal could not be written, was deleted, can be written again): long enough to
        be read, and marked as a warning. `text` names files: no markup in it."""
        self.notify(text, title=_("Journal"), severity="warning", timeout=30,
                    markup=False)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if self.session.may_open_room:
            yield SystemCommand(
                _("Waiting room"),
                _("Back to the waiting room: change the rules or the seats before the next match"),
                self.action_open_room,
            )
        yield SystemCommand(
            _("Turn alert"), _("Ring the bell and set the title on your turn (on/off, remembered)"),
            self.action_toggle_turn_alert,
        )

