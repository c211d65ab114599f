"""Line mode's asyncio adapter: stdin lines and the table's connection in, sentences out.

It stands on the client session (`ono99tui.client.session.TableSession`) as the Textual
app does: every item the `TableClient` yields goes through the session, and what the
session returns is carried out here in words (`sentences`, `ono99tui.words.events`),
printed by a `LineWriter`. What the player types is read by `commands.read_command` and
handed to the session's intents; a line that is not a command, or a card that cannot be
played, says why in one line and sends nothing.

Everything happens in one task, in order, from one queue: lines typed (read on a thread,
so any stdin works: a terminal, an SSH pty, a pipe), the table's items, a hint worked out
on a thread. So a sentence is never printed in the middle of another.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from netproto.client import Closed, Reconnected
from netproto.client_errors import ClientError, ConnectFailed, HandshakeRefused
from netproto.wire.messages import Lobby, SeatKind, TablePhase, View
from ono99tui.client.connect_errors import connect_error_text
from ono99tui.client.outputs import (
    Heard,
    JoinAgain,
    Log,
    Notice,
    Output,
    RoomOpened,
    SeatedAnew,
    Send,
    ShowBust,
    ShowMatchEnd,
    ShowTable,
    TableGone,
    TurnSignal,
)
from ono99tui.client.plots import round_totals
from ono99tui.client.session import TableSession
from ono99tui.client.story import EventItem, LogAppended, MatchPageOpened, SaidItem
from ono99tui.client.wire_text import shown_reason
from ono99tui.game import (
    Busted,
    Discard,
    Draw,
    Eliminated,
    MatchEnded,
    Play,
    PlayerView,
    RoundEnded,
    SwapFour,
)
from ono99tui.game.state import MATCH_OVER
from ono99tui.i18n import _
from ono99tui.line import sentences
from ono99tui.line.commands import (
    Command,
    CommandError,
    read_command,
    read_on_off,
    read_yes_no,
)
from ono99tui.line.hint import hint_lines
from ono99tui.line.host_options import HostOptionError, option_change, option_lines
from ono99tui.line.output import LineWriter
from ono99tui.line.room_news import lobby_news
from ono99tui.table_protocol import EMOTES
from ono99tui.words.events import bust_notice, unplayable_reason
from ono99tui.words.plots import round_summary
from ono99tui.words.rule_labels import card_label

if TYPE_CHECKING:
    from netproto.client import TableClient

ClientFactory = Callable[[], Awaitable["TableClient"]]

# How many plays `last` tells without a number.
LAST_DEFAULT = 5
# How many costly choices `review` tells unless asked for more.
REVIEW_TOLD = 5
# A hint's thinking budget, as the terminal's.
HINT_SECONDS = 0.3
# On a turn clock, the player is told once when this many seconds are left.
CLOCK_WARNING_SECONDS = 10


@dataclass(frozen=True, slots=True)
class _Typed:
    line: str | None  # None: end of input (Ctrl-D)


@dataclass(frozen=True, slots=True)
class _Item:
    item: object
    connection: int


@dataclass(frozen=True, slots=True)
class _Failed:
    code: str
    reason: str
    connection: int


@dataclass(frozen=True, slots=True)
class _Hinted:
    lines: list[str]


@dataclass(frozen=True, slots=True)
class _Told:
    """Something to say that came from outside the table (the host's journal), or the
    program asked to end (`text` None)."""

    text: str | None


_Input = _Typed | _Item | _Failed | _Hinted | _Told


def read_lines(stream: TextIO, put: Callable[[_Input], None]) -> threading.Thread:
    """Read `stream` line by line on a daemon thread, handing each to `put` (`_Typed`);
    end of input is `_Typed(None)`. At a terminal Ctrl-D ends input only for that read, so
    reading goes on (a question may still be answered); a pipe's end is for good."""

    def run() -> None:
        while True:
            try:
                line = stream.readline()
            except (OSError, ValueError):
                line = ""
            if not line:
                put(_Typed(None))
                if not stream.isatty():
                    return
                continue
            put(_Typed(line.rstrip("\r\n")))

    thread = threading.Thread(target=run, name="ono99-line-input", daemon=True)
    thread.start()
    return thread


class LineFrontEnd:
    """One player's line mode at one table (see the module docstring).

    `connect` makes the connection (and, asked again with `seat=True` by a spectator taking
    a seat, one asking for a seat); `hosting` as for `TableSession`.
    """

    def __init__(self, connect: Callable[[bool], Awaitable[TableClient]], *,
                 writer: LineWriter, stdin: TextIO | None = None,
                 session: TableSession | None = None, intro: list[str] | None = None) -> None:
        self._connect_with = connect
        self.writer = writer
        self.stdin = stdin if stdin is not None else sys.stdin
        self.session = session or TableSession()
        self.client: TableClient | None = None
        self._intro = intro or []
        self._queue: asyncio.Queue[_Input] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reader: asyncio.Task[None] | None = None
        self._done = False
        self._return_code = 0
        self._asking_quit = False
        # The view (seq) whose hand was last told, so each turn's hand is told once.
        self._hand_told: tuple[int, int] | None = None
        self._table_said = False
        # The round whose total was last said in a sentence: (match, round).
        self._round_total_said: tuple[int, int] | None = None
        self._lobby_said: Lobby | None = None
        self._hinting = False
        self._hint_task: asyncio.Future[None] | None = None
        # What was typed last sent something to the table, whose answer is said next.
        self._sent = False
        self._echoed = True  # input comes from a terminal, which echoes it (`run` looks)

    # --- running ---------------------------------------------------------------------------

    async def run(self) -> int:
        """Play until the player quits (or the table is gone); the exit status."""
        self._loop = asyncio.get_running_loop()
        try:
            self._echoed = self.stdin.isatty()
        except (OSError, ValueError):
            self._echoed = False
        self.writer.say_all(self._intro)
        self.writer.say(_("Type ? for the commands."))
        self._start_connection(seat=False)
        read_lines(self.stdin, self._put_threadsafe)
        try:
            while not self._done:
                item = await self._queue.get()
                await self._take(item)
                if not self._done:
                    self._prompt_if_needed(typed=isinstance(item, _Typed | _Hinted))
        finally:
            await self._close_client("normal")
            self.writer.goodbye()
        return self._return_code

    @property
    def return_code(self) -> int | None:
        """The exit status, once the front end has ended (None before)."""
        return self._return_code if self._done else None

    def exit(self) -> None:
        """End the front end (the host's table is closing: a signal)."""
        self._put_threadsafe(_Told(None))

    def tell_host(self, text: str) -> None:
        """Say something the person hosting the table must know now (its journal)."""
        self._put_threadsafe(_Told(text))

    def _put_threadsafe(self, item: _Input) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._queue.put_nowait, item)

    def _start_connection(self, *, seat: bool) -> None:
        connection, outputs = self.session.connect(seat_asked=seat)
        self._hand_told = None
        self._lobby_said = None
        self._carry_out_now(outputs)
        self._reader = asyncio.ensure_future(self._read_table(seat, connection))

    async def _read_table(self, seat: bool, connection: int) -> None:
        try:
            client = await self._connect_with(seat)
        except (ConnectFailed, HandshakeRefused) as error:
            words = connect_error_text(error)
            self._queue.put_nowait(_Failed(error.code, words or shown_reason(error.reason)
                                           or error.code, connection))
            return
        except Exception as error:  # whatever went wrong, in words, not a traceback
            self._queue.put_nowait(_Failed(
                "cannot-join", _("could not join the table: {error}").format(
                    error=shown_reason(str(error))), connection))
            return
        if connection != self.session.connection:
            await client.close()
            return
        self.client = client
        try:
            async for item in client:
                self._queue.put_nowait(_Item(item, connection))
        except Exception as error:
            self._queue.put_nowait(_Failed("client-error", shown_reason(str(error)), connection))

    async def _close_client(self, code: str, reason: str = "") -> None:
        client, self.client = self.client, None
        if self._reader is not None:
            self._reader.cancel()
        if client is not None:
            with contextlib.suppress(OSError, TimeoutError, ClientError):
                await asyncio.wait_for(client.close(reason, code=code), 3.0)

    # --- inputs ----------------------------------------------------------------------------

    async def _take(self, item: _Input) -> None:
        if isinstance(item, _Typed):
            # Ctrl-D is not echoed: the next line written ends the prompt's line.
            self.writer.input_taken(echoed=self._echoed and item.line is not None)
            self._sent = False
            await self._typed(item.line)
        elif isinstance(item, _Item):
            await self._from_table(item)
        elif isinstance(item, _Failed):
            outputs = self.session.connect_failed(item.code, item.reason, item.connection)
            await self._carry_out(outputs)
            if item.connection == self.session.connection:
                self.writer.say(_("Could not reach the table: {reason}").format(
                    reason=item.reason), "error")
                self._return_code = 1
                self._done = True
        elif isinstance(item, _Hinted):
            self._hinting = False
            self.writer.say_all(item.lines)
        elif isinstance(item, _Told):
            if item.text is None:
                self._done = True
            else:
                self.writer.say(item.text, "alert")

    async def _from_table(self, item: _Item) -> None:
        session = self.session
        if item.connection != session.connection:
            return
        before = session.lobby
        outputs = session.receive(item.item, time.monotonic(), item.connection)
        await self._carry_out(outputs)
        if isinstance(item.item, Lobby):
            self._say_lobby_change(before, item.item)
        elif isinstance(item.item, View) and (self.client is None
                                              or item.item is self.client.view):
            self._tell_turn()
        elif isinstance(item.item, Reconnected):
            self._hand_told = None
            self._tell_turn()
        elif isinstance(item.item, Closed):
            self.client = None
            if not self._done and item.item.code != "normal":
                self._return_code = self._return_code or 1
                self._done = True

    # --- what the session asks -------------------------------------------------------------

    def _carry_out_now(self, outputs: list[Output]) -> None:
        for output in outputs:
            if not isinstance(output, Send):
                self._say_output(output)

    async def _carry_out(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, Send):
                await self._send(output)
            elif isinstance(output, JoinAgain):
                await self._close_client("normal", "taking a seat")
                self._start_connection(seat=True)
            else:
                self._say_output(output)

    async def _send(self, output: Send) -> None:
        client = self.client
        problem: str | None = None
        if client is None:
            problem = _("Not connected to the table: nothing was sent.")
        else:
            try:
                await client.send(output.message)
            except ClientError as error:
                problem = shown_reason(error.reason) or error.code
            except OSError as error:
                problem = shown_reason(str(error))
        self._sent = problem is None
        if problem is not None:
            self.session.not_sent(output.message)
            self.writer.say(_("{title}: {problem}").format(title=output.failure_title,
                                                           problem=problem), "error")

    def _say_round_total(self, names: Sequence[str]) -> None:
        """The round just over, its total in a sentence (what the terminal and the phone
        plot), once: a match's end right after its last round's end says nothing more."""
        story = self.session.story
        totals = round_totals((item.event for item in story.items
                               if isinstance(item, EventItem)), finished=True)
        if totals is None:
            return
        said = (story.matches_started, totals.round_no)
        if said != self._round_total_said:
            self._round_total_said = said
            self.writer.say(round_summary(totals, names))

    def _say_output(self, output: Output) -> None:
        writer, session = self.writer, self.session
        if isinstance(output, Log):
            change = output.change
            if isinstance(change, MatchPageOpened):
                writer.say(_("Match {number} begins.").format(number=change.number), "turn")
            elif isinstance(change, LogAppended):
                for story_item in change.items:
                    if isinstance(story_item, SaidItem):
                        continue  # said as it is heard (`Heard`)
                    line = sentences.story_line(story_item)
                    if line is not None:
                        own_bust = (isinstance(story_item, EventItem)
                                    and isinstance(story_item.event, Busted)
                                    and story_item.event.seat == story_item.view.seat)
                        writer.say(line, "alert" if own_bust else "plain")
                    if isinstance(story_item, EventItem) and isinstance(story_item.event,
                                                                        RoundEnded):
                        # The round's standing, before the next round is dealt.
                        writer.say_all(sentences.round_end_lines(
                            story_item.event, story_item.view.rules, story_item.names,
                            story_item.view.eliminated))
                    if isinstance(story_item, EventItem) and isinstance(
                            story_item.event, RoundEnded | MatchEnded):
                        self._say_round_total(story_item.names)
        elif isinstance(output, Heard):
            writer.say(_("{name} says: {text}").format(name=output.said.name,
                                                       text=output.said.text), "talk")
        elif isinstance(output, Notice):
            if output.title == "Rules changed":  # the session's words name the app's key
                writer.say(_("The host changed the rules of the next match: type r to hear "
                             "them, then y when you are ready."))
            elif not output.quiet_under_dialog:  # those repeat an event already said
                writer.say(output.text, "error" if output.severity == "error" else "plain")
        elif isinstance(output, TurnSignal):
            if output.ring:
                writer.ring()
        elif isinstance(output, ShowTable):
            if not self._table_said:
                self._table_said = True
        elif isinstance(output, ShowBust):
            # The bust and what it cost (a token, the match, the round) were the events'
            # sentences, said once, there ("You busted at 98.", "You are out of the match
            # (held …)."); what they may not have said is the hand that was held.
            bust = output.bust
            notice = bust_notice(bust.events, bust.before, bust.after)
            me = bust.after.seat
            shown = any(isinstance(event, Eliminated) and event.seat == me and event.hand
                        for event in bust.events)
            if notice is not None and notice.held and not shown:
                writer.say(_("You held {cards}.").format(cards=", ".join(notice.held)))
        elif isinstance(output, ShowMatchEnd):
            if session.view is not None:
                writer.say_all(sentences.match_end_lines(
                    host=session.is_host, spectating=session.spectating,
                    room=session.may_open_room), "turn")
        elif isinstance(output, TableGone):
            writer.say(output.headline, "alert")
            writer.say(output.explanation)
            self._done = True
        elif isinstance(output, RoomOpened):
            if output.notice is None:  # the host opened it
                writer.say(_("The waiting room is open again."), "turn")
            elif session.spectating:
                writer.say(_("The host opened the waiting room for the next match."), "turn")
            else:
                writer.say(_("The host opened the waiting room: the next match's rules may "
                             "change. Type y when you are ready."), "turn")
            self._table_said = False
        elif isinstance(output, SeatedAnew):
            session.match_left()
            writer.say(_("The table gave you a new seat: you wait for the next deal."))

    # --- the table in words ----------------------------------------------------------------

    def _tell_turn(self) -> None:
        """At the viewer's turn, once per view: the hand, numbered, with what can be played."""
        view = self.session.view
        if view is None or view.seat is None or view.phase == MATCH_OVER:
            return
        told = (self.session.views_taken, self.session.view_seq)
        if told == self._hand_told or not sentences.acting(view):
            return
        self._hand_told = told
        self.writer.say(sentences.turn_line(view, self.session.lobby), "turn")
        # The turn's sentence says what is owed: the hand does not say it again.
        self.writer.say_all(sentences.hand_lines(view, self.session.lobby,
                                                 owed_told=sentences.turn_tells_owed(view)))
        clock = self._seconds_left()
        if clock is not None:
            self.writer.say(sentences.clock_line(clock))
            if clock > CLOCK_WARNING_SECONDS and self._loop is not None:
                # A screen shows the seconds run down; a line says it once, in time to act.
                self._loop.call_later(clock - CLOCK_WARNING_SECONDS, self._warn_clock, told)

    def _warn_clock(self, told: tuple[int, int]) -> None:
        if (self.session.views_taken, self.session.view_seq) == told and not self._done:
            self._queue.put_nowait(_Told(sentences.clock_line(CLOCK_WARNING_SECONDS)))

    def _seconds_left(self) -> int | None:
        """Seconds the viewer has left to move, when a turn clock runs on their move."""
        deadline, view = self.session.clock_deadline, self.session.view
        if deadline is None or view is None or deadline[0] != view.seat:
            return None
        return max(0, math.ceil(deadline[1] - time.monotonic()))

    def _say_lobby_change(self, before: Lobby | None, after: Lobby) -> None:
        """What changed at the table, as a screen would show it (`room_news`)."""
        said, self._lobby_said = self._lobby_said, after
        session = self.session
        self.writer.say_all(lobby_news(said, after, session.options,
                                       solo=session.hosting == "solo",
                                       spectating=session.spectating, host=session.is_host))

    def prompt_text(self) -> str:
        """What the prompt says: what the program waits for."""
        session = self.session
        if self._asking_quit:
            return _("Quit? yes or no")
        view = session.view
        if session.lobby is None:
            return _("Joining")
        if session.lobby.phase == TablePhase.PLAYING and view is not None:
            if view.seat is not None and view.phase != MATCH_OVER:
                if view.discarding == view.seat:
                    return _("Discard 1-{count}").format(count=len(view.hand))
                if sentences.acting(view) and not session.move_in_flight:
                    if not any(isinstance(m, Play | SwapFour | Discard)
                               for m in view.legal_moves):
                        return _("Draw: d")
                    return _("Play 1-{count}").format(count=len(view.hand))
            turn = sentences.turn_line(view, session.lobby)
            return turn.removesuffix(".") if turn else _("Table")
        return sentences.phase_name(session.lobby)

    def asks(self) -> bool:
        """Is the player asked for something now: their move, a between-matches answer
        (ready, rematch), the quit question? (While others play, events are only said:
        a prompt after each would be read out after each.)"""
        session = self.session
        if self._asking_quit or session.lobby is None:
            return True
        if session.lobby.phase != TablePhase.PLAYING:
            return True
        view = session.view
        return (view is not None and view.seat is not None and view.phase != MATCH_OVER
                and sentences.acting(view) and not session.move_in_flight)

    def _prompt_if_needed(self, *, typed: bool) -> None:
        """The prompt again after what was said: after every answer to what was typed
        (but a move sent: the table's answer comes first), else when the player is asked
        for something."""
        writer, session = self.writer, self.session
        waiting = session.move_in_flight or self._hinting or (
            self._sent and not writer.said_since_prompt)
        if typed and waiting and not self._asking_quit:
            return  # the table's answer (or the hint) comes first, then the prompt
        if (typed and not writer.prompt_open) or (writer.said_since_prompt and self.asks()):
            writer.prompt(self.prompt_text())

    # --- what the player typed -------------------------------------------------------------

    async def _typed(self, line: str | None) -> None:
        if line is None:  # Ctrl-D: as quit; a second one (or a pipe's end) quits
            if self._asking_quit:
                self._done = True
                return
            await self._quit()
            return
        if self._asking_quit:
            answer = read_yes_no(line)
            if answer is None:
                self.writer.say(_("Type yes to quit, or no to stay."), "error")
            elif answer:
                self._done = True
            else:
                self._asking_quit = False
                self.writer.say(_("You stay."))
            return
        try:
            command = read_command(line)
        except CommandError as error:
            self.writer.say(str(error), "error")
            return
        if command is None:
            self.writer.said_since_prompt = True  # Enter alone asks again
            return
        await self._command(command)

    async def _command(self, command: Command) -> None:
        session, writer = self.session, self.writer
        word = command.word
        handler = getattr(self, f"_do_{word}", None)
        if handler is not None:
            await handler(command)
            return
        intents = {
            "room": session.open_room,
        }
        if word in intents:
            outputs = intents[word]()
            if not outputs:
                writer.say(_("Not now: {word} is not possible at this moment.").format(
                    word=word), "error")
            await self._carry_out(outputs)
            return
        raise AssertionError(f"no handler for {word}")  # every command word has one

    async def _do_rematch(self, command: Command) -> None:
        lobby = self.session.lobby
        if lobby is None or lobby.phase != TablePhase.FINISHED:
            self.writer.say(_("A rematch is for when a match is over."), "error")
            return
        await self._carry_out(self.session.rematch())

    async def _do_seat(self, command: Command) -> None:
        outputs = self._seat()
        if outputs:
            await self._carry_out(outputs)

    def _seat(self) -> list[Output]:
        session = self.session
        if session.may_want_seat:
            session.want_seat()  # (its notice names the app's key: said here instead)
            self.writer.say(_("You take a seat as soon as this match ends, if one is free "
                              "(j again to keep watching).") if session.seat_wanted
                            else _("You keep watching after this match."))
            return []
        if not session.spectating:
            self.writer.say(_("You have a seat already."), "error")
            return []
        outputs = session.take_seat()
        if not outputs:
            self.writer.say(_("No seat can be taken now."), "error")
        return outputs

    def _playing_view(self) -> PlayerView | None:
        """The view a move may be chosen from, or None (said why)."""
        session, writer = self.session, self.writer
        view = session.view
        if view is None or session.lobby is None or session.lobby.phase != TablePhase.PLAYING:
            writer.say(_("No match is on: there is nothing to play."), "error")
            return None
        if view.seat is None:
            writer.say(_("You are watching: type j to take a seat."), "error")
            return None
        if session.move_in_flight:
            writer.say(_("Your move is on its way: wait for the table."), "error")
            return None
        return view

    async def _do_play(self, command: Command) -> None:
        view = self._playing_view()
        if view is None or view.seat is None:
            return
        number = command.number or 0
        if not 1 <= number <= len(view.hand):
            self.writer.say(_("There is no card {number}: your hand has {count}.").format(
                number=number, count=len(view.hand)), "error")
            return
        card = view.hand[number - 1]
        discard = Discard(view.seat, card)
        play = Play(view.seat, card)
        move = discard if discard in view.legal_moves else play
        if move not in view.legal_moves:
            reason = unplayable_reason(view, card) or _("the table would refuse it")
            self.writer.say(_("Card {number}, {card}, cannot be played: {reason}.").format(
                number=number,
                card=card_label(card, view.rules), reason=reason.rstrip(".")), "error")
            return
        await self._carry_out(self.session.play(move))

    async def _do_swap(self, command: Command) -> None:
        view = self._playing_view()
        if view is None or view.seat is None:
            return
        move = SwapFour(view.seat)
        if move not in view.legal_moves:
            self.writer.say(_("You cannot swap now: it takes four ONO 99 cards, on your turn, "
                              "at a table that allows it."), "error")
            return
        await self._carry_out(self.session.play(move))

    async def _do_draw(self, command: Command) -> None:
        view = self._playing_view()
        if view is None or view.seat is None:
            return
        move = Draw(view.seat)
        if move not in view.legal_moves:
            self.writer.say(_("There is no card for you to draw now."), "error")
            return
        await self._carry_out(self.session.play(move))

    async def _do_hint(self, command: Command) -> None:
        session, writer = self.session, self.writer
        view = session.view
        if not session.hints_allowed:
            writer.say(_("This table does not allow hints."), "error")
            return
        if view is None or view.seat is None or view.turn != view.seat or not any(
                isinstance(move, Play | SwapFour) for move in view.legal_moves):
            writer.say(_("A hint is for your own turn to play a card."), "error")
            return
        if self._hinting:
            writer.say(_("A hint is being worked out."), "error")
            return
        self._hinting = True
        events = list(session.story.seen.events)
        writer.say(_("Thinking..."))

        def work() -> list[str]:
            return hint_lines(view, events, HINT_SECONDS)

        async def run() -> None:
            lines = await asyncio.to_thread(work)
            self._queue.put_nowait(_Hinted(lines))

        self._hint_task = asyncio.ensure_future(run())

    async def _do_review(self, command: Command) -> None:
        """A coach's review of the player's plays, once the match is over: the costliest
        choices first (`command.number` of them, else REVIEW_TOLD), worked out apart."""
        from ono99tui.bots.review_apart import review_apart
        from ono99tui.words.review import progress_sentence, review_lines

        session, writer = self.session, self.writer
        view = session.view
        if view is None or view.phase != MATCH_OVER:
            writer.say(_("A review comes once the match is over."), "error")
            return
        if not session.may_review:
            writer.say(_("You had no seat in this match: there is nothing of yours to "
                         "review."), "error")
            return
        if self._hinting:
            writer.say(_("Still thinking: wait for the answer first."), "error")
            return
        decisions = session.story.plays.decisions()
        told = command.number if command.number is not None and command.number > 0 \
            else REVIEW_TOLD
        self._hinting = True
        writer.say(progress_sentence(0, len(decisions)))

        def work() -> list[str]:
            # In a child process: this program may host the table (bots/review_apart.py).
            return review_lines(review_apart(decisions), told)

        async def run() -> None:
            lines = await asyncio.to_thread(work)
            self._queue.put_nowait(_Hinted(lines))

        self._hint_task = asyncio.ensure_future(run())

    async def _do_total(self, command: Command) -> None:
        view = self.session.view
        if view is None:
            self.writer.say(_("No match has been dealt yet."))
            return
        self.writer.say_all(sentences.table_lines(view, self.session.match_lobby))
        clock = self._seconds_left()
        if clock is not None and view.phase != MATCH_OVER:
            self.writer.say(sentences.clock_line(clock))

    async def _do_hand(self, command: Command) -> None:
        view = self.session.view
        if view is None or view.seat is None:
            self.writer.say(_("You hold no cards."), "error")
            return
        self.writer.say_all(sentences.hand_lines(view, self.session.lobby))

    async def _do_who(self, command: Command) -> None:
        session = self.session
        view, lobby = session.view, session.lobby
        if (lobby is not None and lobby.phase == TablePhase.WAITING) or view is None:
            if lobby is None:
                self.writer.say(_("The table has not said who is there yet."))
                return
            self.writer.say_all(sentences.room_lines(lobby, session.options))
            return
        self.writer.say_all(sentences.seat_lines(view, session.match_lobby))

    async def _do_last(self, command: Command) -> None:
        count = command.number if command.number else LAST_DEFAULT
        self.writer.say_all(sentences.last_lines(self.session.story.items, count))

    async def _do_rules(self, command: Command) -> None:
        self.writer.say_all(sentences.rules_lines(self.session.options))

    async def _do_say(self, command: Command) -> None:
        if not self.session.may_chat:
            self.writer.say(_("Nobody can hear you here: talk is off at this table now."),
                            "error")
            return
        await self._carry_out(self.session.say(command.text))

    async def _do_emotes(self, command: Command) -> None:
        text = command.text.strip().lower()
        if not text:
            self.writer.say_all(sentences.emote_lines())
            return
        name = text
        if text.isdigit() and 1 <= int(text) <= len(sentences.EMOTE_ORDER):
            name = sentences.EMOTE_ORDER[int(text) - 1]
        if name not in EMOTES:
            self.writer.say(_("No emote {name!r}: type e for the list.").format(name=text[:20]),
                            "error")
            return
        if not self.session.may_chat:
            self.writer.say(_("Nobody can hear you here: talk is off at this table now."),
                            "error")
            return
        await self._carry_out(self.session.emote(name))

    async def _do_ready(self, command: Command) -> None:
        session = self.session
        lobby = session.lobby
        if session.spectating or lobby is None or lobby.you is None:
            self.writer.say(_("You are watching: type j to take a seat."), "error")
            return
        if lobby.phase == TablePhase.PLAYING:
            self.writer.say(_("The match is on: ready is for between matches."), "error")
            return
        mine = next((seat for seat in lobby.seats if seat.seat == lobby.you), None)
        await self._carry_out(session.ready(not (mine is not None and mine.ready)))

    async def _do_rated(self, command: Command) -> None:
        session = self.session
        text = command.text.strip()
        if not text:  # alone: how it stands, and how to change it
            rated = session.rated
            self.writer.say(
                _("This table rates nobody.") if rated is None and session.lobby is not None
                and not session.table_rates
                else _("Only a table's players are rated.") if rated is None
                else _("Your play is rated here: type a off to play unrated.") if rated
                else _("Your play is not rated here: type a on to be rated again."))
            return
        wanted = read_on_off(text)
        if wanted is None:
            self.writer.say(_("rated takes on or off, not {text!r}.").format(text=text[:20]),
                            "error")
            return
        if wanted is session.rated:  # the table has it so already: nothing would be told
            self.writer.say(_("Your play is rated here already.") if wanted
                            else _("Your play is not rated here already."))
            return
        await self._carry_out(session.set_rated(wanted))

    async def _do_mute(self, command: Command) -> None:
        talk = self.session.talk
        name = command.text.strip()
        if not name:
            muted = ", ".join(sorted(talk.muted))
            self.writer.say(_("Muted: {names}.").format(names=muted) if muted
                            else _("Nobody is muted. Type u NAME to mute someone."))
            return
        names = set(talk.muted)
        if name in names:
            names.discard(name)
            self.writer.say(_("{name} is heard again.").format(name=name))
        else:
            names.add(name)
            self.writer.say(_("{name} is muted.").format(name=name))
        talk.set_muted(names)

    async def _do_start(self, command: Command) -> None:
        if not self._host_only():
            return
        lobby = self.session.lobby
        if lobby is not None and lobby.phase == TablePhase.FINISHED:
            self.writer.say(_("The match is over: m deals the rematch."), "error")
            return
        await self._carry_out(self.session.start())

    async def _do_bot(self, command: Command) -> None:
        if not self._host_only():
            return
        await self._carry_out(self.session.add_bot(command.text.strip() or "normal"))

    async def _do_remove(self, command: Command) -> None:
        if not self._host_only():
            return
        lobby = self.session.lobby
        seat = (command.number or 0) - 1
        if lobby is None or not any(info.seat == seat and info.kind == SeatKind.BOT
                                    for info in lobby.seats):
            self.writer.say(_("Seat {number} holds no bot: type w to see the seats.").format(
                number=seat + 1), "error")
            return
        await self._carry_out(self.session.remove_bot(seat))

    async def _do_set(self, command: Command) -> None:
        if not command.text.strip():
            self.writer.say_all(option_lines(self.session.options))
            return
        if not self._host_only():
            return
        try:
            what, change = option_change(command.text, self.session.options)
        except HostOptionError as error:
            self.writer.say(str(error), "error")
            return
        await self._carry_out(self.session.set_options(what, **change))

    def _host_only(self) -> bool:
        if not self.session.is_host:
            self.writer.say(_("Only the host can do that."), "error")
            return False
        lobby = self.session.lobby
        if lobby is not None and lobby.phase == TablePhase.PLAYING:
            self.writer.say(_("Not during a match: wait for it to end."), "error")
            return False
        return True

    async def _do_help(self, command: Command) -> None:
        self.writer.say_all(sentences.help_lines(host=self.session.is_host))

    async def _do_quit(self, command: Command) -> None:
        await self._quit()

    async def _quit(self) -> None:
        session = self.session
        if not session.quitting_asks:
            self._done = True
            return
        question, explanation = session.quit_warning()
        self.writer.say(question, "alert")
        self.writer.say(explanation)
        self._asking_quit = True
