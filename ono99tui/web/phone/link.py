"""One phone's seat at the table: a `TableSession` over one loopback TCP connection, inside
the door's process, and the page's websocket when one is attached.

The phone is a player like any other: its `TableClient` says hello to the table on
loopback (resuming the seat's token when it has one, kept in the seat's folder), and every
item the table sends goes through its `TableSession`, which decides what it means. What the
page draws is `ono99tui.web.phone.state.page_state` of that session; the page is sent what
changed in it since it last heard (`state_frame`: the fields a move changed; the whole
state when it attaches), the log's new sentences, the notices, and the turn signal (when it
rings or says something new).

A page that goes away (a reload, a lost Wi-Fi, a locked phone) leaves the connection to the
table up for `linger` seconds: a page that comes back within it is sent the whole state and
the log and goes on. After that the seat says bye with "hangup" (the table then holds it
for its grace period, as for any dropped player), and a page that comes back later resumes
the seat with its token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from netproto.addresses import parse_address
from netproto.client import TableClient
from netproto.client_errors import ConnectFailed, HandshakeRefused, NotConnected
from netproto.wire.messages import TablePhase
from ono99tui import i18n
from ono99tui.bots.review import REVIEW_BUDGET_S
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
    ShowMatchEnd,
    ShowRoundEnd,
    TableGone,
    TurnSignal,
)
from ono99tui.client.session import TableSession
from ono99tui.client.story import (
    AbridgedItem,
    EventItem,
    LogAppended,
    LogForgotten,
    MatchPageOpened,
    SaidItem,
    StandInItem,
    StoryItem,
)
from ono99tui.game import Discard, Draw, Play, RoundEnded, Scoring, SwapFour
from ono99tui.i18n import _
from ono99tui.web.config import PHONE_LINGER
from ono99tui.web.phone.intents import Intent, PageError, read_intent
from ono99tui.web.phone.review import PhoneReview
from ono99tui.web.phone.state import page_state, state_frame
from ono99tui.web.phone.words import event_sentence, isolated, unplayable_reason
from ono99tui.web.seats import Seat, SeatBook

log = logging.getLogger("ono99tui.web.phone")

# Sentences of the log the page is sent when it (re)attaches.
LOG_KEPT = 60
# Seconds a page may be away before the seat hangs up on the table (which then holds it
# for its own grace period): the web door's setting (`WebDoorConfig.phone_linger`).
DEFAULT_LINGER = PHONE_LINGER
# Close codes of the page's websocket.
CLOSE_REPLACED = 4001
CLOSE_ENDED = 4002


def notice_frame(notice: Notice) -> dict[str, Any]:
    """The page's frame for a notice: its text and level, and for how many seconds it
    stands (`for`, when the session gives it a time: the terminal's toast goes then too)."""
    frame: dict[str, Any] = {"t": "notice", "text": notice.text, "level": notice.severity}
    if notice.timeout is not None:
        frame["for"] = notice.timeout
    return frame


def story_sentence(item: StoryItem) -> tuple[str, str] | None:
    """(kind, sentence) of one story item for the page's log, or None."""
    if isinstance(item, EventItem):
        text = event_sentence(item.event, item.names, item.view.rules, item.view.seat)
        return None if text is None else ("event", text)
    if isinstance(item, SaidItem):
        return "said", _("{name}: {text}").format(name=isolated(item.name),
                                                    text=isolated(item.text))
    if isinstance(item, AbridgedItem):
        return "event", _("The first {n} rounds are told in short.").format(n=item.rounds)
    if isinstance(item, StandInItem):
        return "event", _("A stand-in played for you while you were away.")
    return None


def round_results(result: RoundEnded, names: list[str], scoring: str) -> dict[str, Any]:
    """A round's results for the page: per seat its tokens or points."""
    rows = []
    for seat, name in enumerate(names):
        rows.append({"name": name,
                     "tokens": result.tokens[seat] if scoring == Scoring.TOKENS else None,
                     "points": result.points[seat] if scoring != Scoring.TOKENS else None,
                     "score": result.scores[seat] if scoring != Scoring.TOKENS else None})
    return {"kind": "round", "round": result.round_no, "rows": rows}


class PhoneSeat:
    """A phone's seat (see the module docstring): `start`, then `attach` each websocket."""

    def __init__(self, seat: Seat, seats: SeatBook, table_address: str, *,
                 linger: float = DEFAULT_LINGER, on_ended: Callable[[PhoneSeat], None],
                 spectate: bool = False, door_key: str | None = None,
                 host_key: str | None = None,
                 handshakes: asyncio.Semaphore | None = None,
                 review_budget_s: float = REVIEW_BUDGET_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        # `spectate`: a table view (/tv), which only watches.
        self.spectate = spectate
        # The door's key for the table (its hellos count under the door's cap), and the
        # door's bound on its handshakes at once (ono99tui.web.server.PHONE_HANDSHAKES).
        self.door_key = door_key
        # The table's host key, for the host's own phone (its host link: docs/WEB.md).
        self.host_key = host_key
        self._handshakes = handshakes if handshakes is not None else asyncio.Semaphore(1)
        self.seat = seat
        self.seats = seats
        self.address = parse_address(table_address)
        self.linger = linger
        self.clock = clock
        self._on_ended = on_ended
        self.session = TableSession(can_rejoin=not spectate, touch=True)
        self.client: TableClient | None = None
        self.websocket: web.WebSocketResponse | None = None
        self._sent: dict[str, Any] = {}  # the parts of the state the page has
        self.log: list[tuple[int, str, str]] = []  # (number, kind, sentence)
        self._log_number = 0
        self.results: dict[str, Any] | None = None
        self.title = ""
        self._runner: asyncio.Task[None] | None = None
        self._hanging_up: asyncio.TimerHandle | None = None
        self._rejoin = False
        self.ended = False
        self._pending_log: list[tuple[int, str, str]] = []  # sentences the page has not had
        self._log_reset = False  # the log was cleared: the page is sent it whole
        self._pong = False  # the page asked whether the door is there
        self._title_sent = False  # the page has had a turn frame since it attached
        # The language of the seat's sentences: the page's, as the task that made the seat
        # speaks it (shared with the task that reads the table); the page's menu changes it.
        self.language = (i18n.task_language()
                         or i18n.TaskLanguage(i18n.current_language()))
        # A coach's review of this seat's plays, asked once its match is over (`_review`).
        self.review = PhoneReview(self._frame, budget_s=review_budget_s)

    # --- the table --------------------------------------------------------------------

    def start(self) -> None:
        """Connect to the table (in the background) and keep the seat's session."""
        self._runner = asyncio.create_task(self._run(), name=f"phone-{self.seat.name}")

    async def _run(self) -> None:
        i18n.speak_in_this_task(self.language)  # the table's news in the page's language
        try:
            while True:
                self._rejoin = False
                client = await self._open()
                if client is None:
                    break
                self.client = client
                connection = self.session.connection
                async for item in client:
                    outputs = self.session.receive(item, self.clock(), connection)
                    if client.token and client.token != self.seat_token:
                        self.seats.save_token(self.seat, client.token)
                    await self._send(outputs)
                if not self._rejoin:
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("phone seat %s failed", self.seat.name)
        finally:
            self.ended = True
            await self.review.stop()
            await self._publish()
            self._on_ended(self)

    @property
    def seat_token(self) -> str | None:
        """The seat's resume token, as kept in its folder."""
        return self.seats.token_of(self.seat)

    async def _open(self) -> TableClient | None:
        seat_asked = self._rejoin
        connection, outputs = self.session.connect(seat_asked=seat_asked)
        await self._carry_out(outputs)
        try:
            async with self._handshakes:
                client = await TableClient.connect(
                    self.address.host, self.address.port, name=self.seat.name,
                    spectate=self.spectate and not seat_asked, door_key=self.door_key,
                    host_key=self.host_key,
                    # The rating switch's last word, for a new connection's hello (a
                    # spectator taking a seat, a host restarted without the seat).
                    unrated=self.client is not None and self.client.unrated,
                    token=None if seat_asked or self.spectate else self.seat_token)
        except (ConnectFailed, HandshakeRefused) as error:
            await self._carry_out(self.session.connect_failed(error.code, error.reason,
                                                              connection))
            if seat_asked:
                self.session.seat_not_taken()
            return None
        return client

    async def close(self, code: str = "normal") -> None:
        """Leave the table (`code` "hangup": the player did not choose to) and end."""
        if self._hanging_up is not None:
            self._hanging_up.cancel()
        await self.review.stop()
        client = self.client
        if client is not None:
            with contextlib.suppress(Exception):
                await client.close(code=code)
        if self._runner is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._runner, 5.0)

    async def _send(self, outputs: list[Output]) -> None:
        await self._carry_out(outputs)
        await self._publish()
        if self.review.working and not self.session.may_review:
            await self.review.stop(tell=True)  # a new match was dealt: that review is moot

    async def _carry_out(self, outputs: list[Output]) -> None:
        for output in outputs:
            if isinstance(output, Send):
                client = self.client
                try:
                    if client is None:
                        raise NotConnected("offline")
                    await client.send(output.message)
                except NotConnected:
                    self.session.not_sent(output.message)
                    await self._frame({"t": "notice", "text": _("Not sent: the table is not "
                                                                "connected."),
                                       "level": "warning"})
            elif isinstance(output, Log):
                self._log_change(output.change)
            elif isinstance(output, Heard) and not self.session.table_shown:
                self._add_log("said", _("{name}: {text}").format(
                    name=isolated(output.said.name), text=isolated(output.said.text)))
            elif isinstance(output, LogCleared):
                self._clear_log()
            elif isinstance(output, Notice):
                await self._frame(notice_frame(output))
            elif isinstance(output, ClearNotices):
                await self._frame({"t": "notice", "text": "", "level": "information"})
            elif isinstance(output, RoomOpened) and output.notice is not None:
                await self._frame(notice_frame(output.notice))
            elif isinstance(output, TurnSignal):
                # Every view brings one; the page hears it when it says something new.
                if output.ring or output.title != self.title or not self._title_sent:
                    self._title_sent = True
                    await self._frame({"t": "turn", "ring": output.ring,
                                       "title": output.title})
                self.title = output.title
            elif isinstance(output, ShowRoundEnd):
                view = self.session.view
                if view is not None:
                    self.results = round_results(output.result, self.session.names(view),
                                                 view.rules.scoring)
            elif isinstance(output, ShowMatchEnd):
                self.results = {"kind": "match"}
            elif isinstance(output, CloseDialogs):
                if self.results is not None and (
                        (self.results["kind"] == "round" and Dialog.ROUND_END in output.dialogs)
                        or (self.results["kind"] == "match"
                            and Dialog.MATCH_END in output.dialogs)):
                    self.results = None
            elif isinstance(output, TableGone):
                await self._frame({"t": "gone", "headline": output.headline,
                                   "detail": output.explanation})
            elif isinstance(output, SeatedAnew):
                self.session.match_left()
            elif isinstance(output, JoinAgain):
                self._rejoin = True
                client = self.client
                if client is not None:
                    self.session.disconnect()
                    await client.close(_("taking a seat"))

    # --- the log ----------------------------------------------------------------------

    def _add_log(self, kind: str, text: str) -> None:
        self._log_number += 1
        self.log.append((self._log_number, kind, text))
        del self.log[:-LOG_KEPT]
        self._pending_log.append((self._log_number, kind, text))

    def _clear_log(self) -> None:
        self.log.clear()
        self._pending_log.clear()
        self._log_reset = True

    def _log_change(self, change: object) -> None:
        if isinstance(change, LogAppended):
            for item in change.items:
                said = story_sentence(item)
                if said is not None:
                    self._add_log(*said)
        elif isinstance(change, MatchPageOpened):
            self._add_log("page", _("Match {n}").format(n=change.number))
        elif isinstance(change, LogForgotten):
            # The table's account replaces ours: the log is told again from the story.
            self._clear_log()
            for item in self.session.story.items:
                said = story_sentence(item)
                if said is not None:
                    self._add_log(*said)

    def speak(self, code: str) -> None:
        """Speak `code` from now on (the page's language menu, or a page come back in
        another language): the log is told again from the story in it, and the page is
        sent its whole state, whose sentences are in it too."""
        if code == self.language.code:
            return
        self.language.set(code)
        self._clear_log()
        for item in self.session.story.items:
            said = story_sentence(item)
            if said is not None:
                self._add_log(*said)
        self._sent = {}

    # --- the page ---------------------------------------------------------------------

    async def attach(self, websocket: web.WebSocketResponse) -> None:
        """Serve one page over `websocket` until it closes (a newer page replaces it)."""
        # This task (the page's) speaks the seat's language, whichever page made the seat.
        i18n.speak_in_this_task(self.language)
        if self._hanging_up is not None:
            self._hanging_up.cancel()
            self._hanging_up = None
        previous, self.websocket = self.websocket, websocket
        if previous is not None and not previous.closed:
            await previous.close(code=CLOSE_REPLACED,
                                 message=b"this seat was opened in another tab")
        self._sent = {}
        self._title_sent = False
        self._pending_log = []
        self._log_reset = False
        await self._frame({"t": "log", "all": [list(line) for line in self.log]})
        await self._publish()
        try:
            async for message in websocket:
                if message.type != web.WSMsgType.TEXT:
                    await self._frame(PageError("malformed", "text frames only").frame())
                    continue
                try:
                    intent = read_intent(message.data)
                    if intent.kind == "hint":
                        await self._hint()
                        continue
                    if intent.kind == "review":
                        await self._review()
                        continue
                    if intent.kind == "lang":
                        self.speak(intent.text or "en")
                        await self._publish()
                        continue
                    await self._send(self._apply(intent))
                    if self._pong:
                        self._pong = False
                        await self._frame({"t": "pong"})
                except PageError as error:
                    await self._frame(error.frame())
        finally:
            if self.websocket is websocket:
                self.websocket = None
                await self.review.stop()  # nobody is there to read it: the child is stopped
                if not self.ended:
                    self._hanging_up = asyncio.get_running_loop().call_later(
                        self.linger, self._hang_up)

    def _hang_up(self) -> None:
        self._hanging_up = None
        if self.websocket is None:
            asyncio.get_running_loop().create_task(self.close("hangup"))

    async def _frame(self, frame: dict[str, Any]) -> None:
        websocket = self.websocket
        if websocket is None or websocket.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await websocket.send_str(json.dumps(frame, separators=(",", ":"),
                                                ensure_ascii=False))

    async def _publish(self) -> None:
        """Send the page the parts of its state that changed, and the log's news."""
        if self.websocket is None:
            self._pending_log = []
            return
        if self._log_reset:
            self._log_reset = False
            self._pending_log = []
            await self._frame({"t": "log", "all": [list(line) for line in self.log]})
        elif self._pending_log:
            lines, self._pending_log = self._pending_log, []
            await self._frame({"t": "log", "add": [list(line) for line in lines]})
        state = page_state(self.session, self.clock())
        state["results"] = self.results
        state["ended"] = self.ended
        state["name"] = self.seat.name
        frame = state_frame(self._sent, state)
        if frame is not None:
            await self._frame(frame)

    # --- what the page asks -----------------------------------------------------------

    def _apply(self, intent: Intent) -> list[Output]:
        session = self.session
        kind = intent.kind
        if kind == "ping":
            self._pong = True
            return []
        if kind in ("play", "discard", "swap", "draw"):
            return self._move(intent)
        if kind == "ready":
            self._need(not session.spectating and session.lobby is not None, kind)
            return session.ready(bool(intent.flag))
        if kind == "rematch":
            self._need(session.lobby is not None and not session.spectating, kind)
            self.results = None
            return session.rematch()
        if kind == "say":
            self._need(session.may_chat, kind)
            return session.say(intent.text or "")
        if kind == "emote":
            self._need(session.may_chat, kind)
            return session.emote(intent.text or "")
        if kind == "take_seat":
            self._need(session.may_take_seat, kind)
            return session.take_seat()
        if kind == "want_seat":
            self._need(session.may_want_seat or session.seat_wanted, kind)
            return session.want_seat()
        if kind == "open_room":
            self._need(session.may_open_room, kind)
            return session.open_room()
        if kind == "rated":  # the player's own: rated from the next match on, or not
            self._need(session.rated is not None, kind)
            return session.set_rated(bool(intent.flag))
        # The host's own: the table checks the rights too; the page is told at once.
        self._need(session.is_host and not session.spectating, kind, "not-host")
        if kind == "start":
            return session.start()
        if kind == "spectator_chat":
            return session.set_options(_("Could not change spectators' chat"),
                                       table={"spectator_chat": bool(intent.flag)})
        if kind == "turn_time":
            seconds = int(intent.index or 0)
            return session.set_options(_("Could not change the turn time"),
                                       table={"turn_seconds": float(seconds) or None})
        # The rules themselves only change between matches (the table says so too).
        self._need(session.lobby is not None and session.lobby.phase != TablePhase.PLAYING,
                   kind)
        if kind == "preset":
            return session.set_options(_("Could not change the rules"), preset=intent.text)
        if kind == "hints":
            return session.set_options(_("Could not change hints"),
                                       table={"hints": bool(intent.flag)})
        if kind == "duplicate":  # docs/DUPLICATE.md
            return session.set_options(_("Could not change duplicate sets"),
                                       table={"duplicate": bool(intent.flag)})
        if kind == "rule":
            return self._rule(intent)
        if kind == "add_bot":
            return session.add_bot(intent.text or session.options.bot_level or "normal")
        if kind == "remove_bot":
            return session.remove_bot(int(intent.index or 0))
        raise PageError("unknown", kind, kind)

    def _rule(self, intent: Intent) -> list[Output]:
        """One rule option, checked against the table's rules before it is sent: a value
        the rules cannot take is refused on the page, with the engine's reason."""
        name, value = str(intent.text), intent.value
        rules = self.session.options.rules
        if rules is not None:
            if getattr(rules, name, None) == value:
                return []  # the table has it already
            try:
                rules.replace(**{name: value})
            except ValueError as error:
                raise PageError("bad-option", str(error), "rule") from None
        return self.session.set_options(_("Could not change the rules"), rules={name: value})

    async def _hint(self) -> None:
        """Work a hint out from the seat's own view and the deal's public events (the
        terminal's search, `ono99tui.ui.hinting`, which loads no Textual), off the loop."""
        from ono99tui.ui.hinting import NoHint, work_out_hint

        session = self.session
        view = session.view
        self._need(session.hints_allowed and not session.spectating and view is not None
                   and bool(view.legal_moves), "hint")
        assert view is not None
        events = tuple(session.story.seen.events)
        try:
            hint = await asyncio.to_thread(work_out_hint, view, events)
        except NoHint as error:
            raise PageError("not-now", str(error), "hint") from None
        await self._frame({"t": "hint", "suggested": hint.suggested, "reason": hint.reason,
                           "rows": [[row.card, round(row.win * 100)] for row in hint.rows]})

    async def _review(self) -> None:
        """A coach's review of this seat's plays (`ono99tui.web.phone.review`): only once
        its match is over (`TableSession.may_review`; else a typed refusal, as for a
        hint), one at a time (a second tap while it works is told where it is), worked
        out in a child process, its finished figures kept until the next match."""
        session = self.session
        self._need(session.may_review and not session.spectating, "review")
        match = session.story.matches_started
        ready = self.review.ready_for(match)
        if ready is not None:
            await self._frame(ready)  # asked again (a reloaded page): the same review
            return
        if self.review.working and self.review.match == match:
            if self.review.last is not None:
                await self._frame(self.review.last)  # where it is: nothing new is started
            return
        await self.review.stop()
        self.review.start(match, session.story.plays.decisions())

    @staticmethod
    def _need(allowed: bool, kind: str, code: str = "not-now") -> None:
        if not allowed:
            raise PageError(code, "", kind)

    def _move(self, intent: Intent) -> list[Output]:
        session = self.session
        view = session.view
        kind = intent.kind
        if view is None or view.seat is None:
            raise PageError("not-now", "", kind)
        if session.move_in_flight:
            raise PageError("in-flight", "", kind)
        seat = view.seat
        move: Play | Discard | SwapFour | Draw
        if kind in ("play", "discard"):
            index = int(intent.index or 0)
            if index >= len(view.hand):
                raise PageError("malformed", "no such card", kind)
            card = view.hand[index]
            move = Discard(seat, card) if kind == "discard" else Play(seat, card)
            if move not in view.legal_moves:
                reason = unplayable_reason(view, card) if kind == "play" else ""
                raise PageError("not-playable", reason, kind)
        else:
            move = SwapFour(seat) if kind == "swap" else Draw(seat)
            if move not in view.legal_moves:
                raise PageError("not-now", "", kind)
        return session.play(move)
