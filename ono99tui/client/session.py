"""The client session: what one player's program knows and decides about its table, sans-IO.

The host has a sans-IO core (`ono99tui.host.core`) and a thin asyncio adapter; a player's
program is built the same way. A `TableSession` takes

- what the table sends, as `netproto.client.TableClient` yields it (`receive`: a welcome,
  a lobby, a view, a refusal, a line of talk, the link dropping, coming back or ending),
  and the connection's failure to start (`connect_failed`);
- the player's intents (`play`, `rematch`, `ready`, `set_rated`, `start`, `add_bot`, `remove_bot`,
  `set_options`, `say`, `emote`, `take_seat`, `want_seat`, and the front end's own
  reports: `not_sent`, `seat_not_taken`, `table_closed`),

and returns outputs (`ono99tui.client.outputs`): frames to send, what to tell the player
(a notice, a dialog, the turn alert), the log's changes. It never touches a socket, a
screen or the clock: `now` comes in with each input. What the player may do is a plain
property (`may_chat`, `may_take_seat`, `may_want_seat`, `is_host`, `in_game`,
`hosting_others`, `quit_warning`...), decided here once for every front end: the Textual
app (`ono99tui.ui.app`), the network bot (`ono99tui.client.bot_player`), and the front ends
to come.

The session owns the welcome, the lobby, the view and its sequence number, the move in
flight, the seat's reconnect state, and the match's story (`ono99tui.client.story`);
`connect` starts a new connection and `reset` forgets the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

from netproto.client import Closed, Disconnected, Reconnected
from netproto.wire.chat_text import clean_line
from netproto.wire.connection import CROSSING_KINDS
from netproto.wire.messages import (
    MAX_SHORT_TEXT,
    UNREADABLE,
    AddBot,
    Chat,
    Error,
    Lobby,
    Message,
    Move,
    OpenRoom,
    Pong,
    Rated,
    Ready,
    RemoveBot,
    Say,
    SeatKind,
    SetOptions,
    Start,
    TablePhase,
    View,
    Welcome,
)
from ono99tui.client.catch_up import BadHistory, History, history_from_wire
from ono99tui.client.free_seats import seats_free
from ono99tui.client.names import is_named_you, names_of, seat_name
from ono99tui.client.options import NO_OPTIONS, TableOptions, options_from_wire
from ono99tui.client.outputs import (
    ClearNotices,
    CloseDialogs,
    Dialog,
    EventsTaken,
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
from ono99tui.client.plots import EveningRatings
from ono99tui.client.story import MatchStory, StandInItem, your_bust
from ono99tui.client.talk import Talk
from ono99tui.client.turn_alert import alert_due, title_for
from ono99tui.client.wire_text import shown_reason
from ono99tui.game import (
    MATCH_OVER,
    Eliminated,
    Event,
    MatchEnded,
    PlayerView,
    Resigned,
    RoundDealt,
    RoundEnded,
    TimedOut,
)
from ono99tui.game import Move as GameMove
from ono99tui.game.codec import event_from_wire, move_to_wire, view_from_wire
from ono99tui.i18n import N_, _
from ono99tui.table_protocol import TABLE_ERROR_REASONS, TableError

# Where the table runs, which decides what quitting does: "solo" (this process runs a table
# for one player and bots: quitting ends the game), "host" (this process hosts a table
# others joined: quitting closes it for everyone), "guest" (a table elsewhere: the seat is
# held, then a bot plays it or it resigns, as the table's abandon policy says).
Hosting = Literal["solo", "host", "guest"]
ConnectionState = Literal["offline", "connecting", "connected", "reconnecting", "closed"]

# Characters of a table's name (from `welcome.table`) looked at before cleaning: enough for
# escape sequences around any name a table may advertise, bounded against a huge one.
MAX_RAW_TABLE_NAME = 512

# Ends of a session that mean the table itself is gone: (headline, explanation), where
# {reason} is the client's reason. A joined player is offered the way back to the lobby.
TABLE_GONE: dict[str, tuple[str, str]] = {
    "shutdown": (N_("The host closed the table."),
                 N_("Nobody can play at it any more: the match, if one was on, is over.")),
    "gave-up": (N_("The table is gone."),
                N_("Its host stopped answering ({reason}): it may have stopped, or lost its "
                   "network.")),
}

_ROUND_DIALOGS = frozenset({Dialog.BUST, Dialog.ROUND_END})
_RESULTS = frozenset({Dialog.ROUND_END, Dialog.MATCH_END})


def shown_welcome(welcome: Welcome) -> Welcome:
    """`welcome` with the text its `table` map (opaque to netproto) gives the front ends
    made inert: the table's name goes through the cleaner netproto uses for names, since
    the client never trusts the server (a non-string name is dropped; "?" stands in for a
    name nothing printable is left of, as for seat names: docs/PROTOCOL.md §6)."""
    name = welcome.table.get("name")
    if name is None:
        return welcome
    table = dict(welcome.table)
    if isinstance(name, str):
        table["name"] = clean_line(name[:MAX_RAW_TABLE_NAME], MAX_SHORT_TEXT) or UNREADABLE
    else:
        del table["name"]
    return replace(welcome, table=table)


def crossed_on_the_wire(code: str, ref: str | None) -> bool:
    """Whether a refusal only means our message crossed the table's change of state on the
    wire (docs/PROTOCOL.md §2): a move chosen from a view just replaced (`stale-seq`), a move
    that arrived after the match ended, a `ready` after the rematch was dealt. Such a
    refusal is harmless: what changed is on its way."""
    return code == TableError.STALE_SEQ or (code == "unexpected-message" and ref in CROSSING_KINDS)


def refusal_words(code: str, reason: str) -> str:
    """A table's refusal in the player's language: the table says what its code means in
    English (`TABLE_ERROR_REASONS`, then maybe ": " and a detail); that meaning is
    translated, the detail kept as the table sent it; any other reason as it came."""
    try:
        meaning = TABLE_ERROR_REASONS[TableError(code)]
    except ValueError:
        return reason
    if reason == meaning:
        return _(meaning)
    if reason.startswith(meaning + ": "):
        return _("{reason}: {detail}").format(reason=_(meaning),
                                              detail=reason[len(meaning) + 2:])
    return reason


class TableSession:
    """One player's (or spectator's) session at one table (see the module docstring).

    `hosting` says where the table runs (`Hosting`); `can_rejoin` whether the front end
    has a way to join this table again asking for a seat (a lobby's request, or the host's
    own connection factory), which a spectator needs to take one. `touch`: the front end
    is tapped, not typed (the phone page): the notices name its "I'm ready" button, not
    the r key it does not have.
    """

    def __init__(self, *, hosting: Hosting = "guest", can_rejoin: bool = False,
                 touch: bool = False) -> None:
        self.hosting: Hosting = hosting
        self.can_rejoin = can_rejoin
        self.touch = touch
        self.talk = Talk()  # who is muted: for the whole session, whatever the table
        self.story = MatchStory()
        # Each rated match's ratings at this table, for the evening's plot.
        self.evening = EveningRatings()
        self.connection = 0  # counts `connect` calls: an older connection's items are stale
        self.welcome: Welcome | None = None
        self.lobby: Lobby | None = None
        self.options: TableOptions = NO_OPTIONS  # the latest lobby's, decoded once
        self.view: PlayerView | None = None
        self.view_seq = -1
        # Views taken in since the session began (a new seat numbers its views from 1 again).
        self.views_taken = 0
        # The turn clock of the latest view: (seat, deadline on the `now` clock), or None.
        self.clock_deadline: tuple[int, float] | None = None
        self.connection_state: ConnectionState = "offline"
        # Once the session has ended because the table is gone: why, in one line ("The host
        # closed the table."), for what stays on screen behind the dialog that says so.
        self.gone_headline: str | None = None
        # The seq of the view a move was sent from, while the table has not answered it.
        self._move_sent_at: int | None = None
        # The next view may carry moves a stand-in bot made for this seat: the link came
        # back after a drop, or a new connection resumed a seat in a match under way.
        self._away = False
        self._move_in_flight_at_drop = False
        # A welcome came and its lobby not yet: that lobby says whether a match is on.
        self._welcome_lobby_due = False
        # The first lobby after the last match ended, while its seats stay (`match_lobby`).
        self._lobby_at_match_end: Lobby | None = None
        # A spectator's "take a seat" is under way (`take_seat`); one at a time.
        self._taking_seat = False
        # A spectator asked mid-match for a seat in the next match (`want_seat`).
        self._seat_wanted = False
        # The next welcome answers a hello that asked for a seat after watching: a
        # spectator's welcome then means the table was full or playing by then.
        self._seat_asked = False
        # Whether the front end shows the table (`ShowTable` was asked for since it last
        # said it closed it): talk heard before goes into the first match's log.
        self._table_shown = False

    # --- connections ----------------------------------------------------------------------

    def reset(self) -> list[Output]:
        """Forget the table: its welcome, lobby, view, story and requests. Returns the
        log's clearing."""
        self.welcome = None
        self.lobby = None
        self.evening.clear()
        self.options = NO_OPTIONS
        self.view = None
        self.view_seq = -1
        self.clock_deadline = None
        self.connection_state = "offline"
        self.gone_headline = None
        self._move_sent_at = None
        self._away = False
        self._move_in_flight_at_drop = False
        self._welcome_lobby_due = False
        self._lobby_at_match_end = None
        self._taking_seat = False
        self._seat_wanted = False
        self._seat_asked = False
        self.story.reset()
        return [LogCleared()]

    def connect(self, *, seat_asked: bool = False) -> tuple[int, list[Output]]:
        """A new connection to a table starts (replacing any current one): everything
        learnt from the previous one is forgotten, and its items are stale from now on.
        `seat_asked`: it is a spectator's join asking for a seat (`take_seat`). Returns the
        connection's number (pass it with each item it yields) and the outputs."""
        outputs = self.reset()
        self.connection += 1
        self.connection_state = "connecting"
        self._seat_asked = seat_asked
        return self.connection, outputs

    def disconnect(self) -> None:
        """The front end let go of the connection itself (a spectator taking a seat says
        goodbye before joining again): whatever it still reports is stale."""
        self.connection += 1

    def connect_failed(self, code: str, reason: str, connection: int | None = None) -> list[Output]:
        """The connection never reached the table (`reason` in words)."""
        if self._is_stale(connection):
            return []
        return self._ended(code, reason)

    def _is_stale(self, connection: int | None) -> bool:
        return connection is not None and connection != self.connection

    # --- what the table sends -------------------------------------------------------------

    def receive(self, item: object, now: float, connection: int | None = None) -> list[Output]:
        """Take one item the `TableClient` yielded (`connection`: the number `connect`
        gave its connection; None for one that cannot be stale)."""
        if self._is_stale(connection):
            return []
        if isinstance(item, View):
            return self._on_view(item, now)
        if isinstance(item, Lobby):
            return self._on_lobby(item)
        if isinstance(item, Chat):
            return self._on_chat(item)
        if isinstance(item, Welcome):
            return self._on_welcome(shown_welcome(item))
        if isinstance(item, Error):
            return self._on_refusal(item.code, shown_reason(item.reason), item.ref)
        if isinstance(item, Disconnected):
            return self._on_dropped(item.will_retry)
        if isinstance(item, Reconnected):
            return self._on_resumed()
        if isinstance(item, Closed):
            return self._ended(item.code, shown_reason(item.reason))
        if isinstance(item, Pong):
            return []  # the answer to a ping (a liveness check): nothing for the player
        return self._on_refusal(
            "unexpected", _("the table sent something unexpected: {what}").format(
                what=type(item).__name__), None)

    def _on_welcome(self, welcome: Welcome) -> list[Output]:
        outputs: list[Output] = []
        if self.welcome is not None and welcome.token != self.welcome.token:
            # A new seat, not our old one resumed (the host restarted without our match):
            # its views are numbered from 1 again, so forget the old table's numbers; and
            # the match it tells is not the one we saw (that one stays in the log).
            self.view_seq = -1
            self._move_sent_at = None
            self.story.seen.clear()
            if welcome.role == "player" and self._table_shown:
                # Seated anew: the match shown (and its results, named after the old
                # seats) is over for good; the new seat waits for the next deal (played: a
                # restart at a finished table left a joiner on "Match over: you win!"
                # under someone else's name).
                outputs.append(SeatedAnew())
        self.welcome = welcome
        self.connection_state = "connected"
        self._welcome_lobby_due = True
        if self._seat_asked:
            self._seat_asked = False
            if welcome.role == "spectator":
                name = welcome.table.get("name")
                text = (_("{table} is full or already playing: you are watching.").format(
                    table=name) if isinstance(name, str)
                    else _("The table is full or already playing: you are watching."))
                outputs.append(Notice(text, title=_("Watching")))
        return outputs

    def _on_lobby(self, lobby: Lobby) -> list[Output]:
        outputs: list[Output] = []
        if self._welcome_lobby_due:
            self._welcome_lobby_due = False
            # Seated straight into a match under way: only a resumed seat is (a new player
            # at a playing table watches), and the table may have played it meanwhile.
            if lobby.you is not None and lobby.phase != TablePhase.WAITING:
                self._away = True
        if lobby.phase == TablePhase.PLAYING:
            self._lobby_at_match_end = None
        elif lobby.phase == TablePhase.FINISHED and self._keeps_match_end(lobby):
            self._lobby_at_match_end = lobby
            self.evening.record(self.story.matches_started,
                                [seat.name for seat in lobby.seats], lobby.results)
        outputs += self._newcomers(self.lobby, lobby)
        outputs += self._ready_taken_back(self.lobby, lobby)
        before, self.lobby = self.lobby, lobby
        self.options = options_from_wire(lobby.options)
        if (lobby.phase == TablePhase.WAITING and before is not None
                and before.phase == TablePhase.FINISHED):
            outputs.append(RoomOpened(self._room_opened_notice()))
        if self._seat_wanted and lobby.phase != TablePhase.PLAYING:
            self._seat_wanted = False
            taken = self.take_seat()
            outputs += taken or [Notice(
                _("No seat is free for the next match: you are still watching."), timeout=8)]
        return outputs

    def _keeps_match_end(self, lobby: Lobby) -> bool:
        """Is this finished lobby the match's as it was played? Its seats are kept while
        they stay the same (and in the waiting room opened after it, whose seats the table
        below the room no longer shows). Its ratings are in the match's seat order: only a
        session that saw the match played knows those seats are these; one seated after it
        (a bot's seat taken between matches) would put the match's ratings under the new
        seats' names."""
        kept = self._lobby_at_match_end
        if kept is not None:
            return [seat.name for seat in lobby.seats] == [seat.name for seat in kept.seats]
        return self.lobby is not None and self.lobby.phase == TablePhase.PLAYING

    def _room_opened_notice(self) -> Notice | None:
        """What a player is told as the host takes the table back to the waiting room after
        a match (the host asked for it: nothing)."""
        if self.is_host:
            return None
        if self.spectating:
            text = _("The host opened the waiting room for the next match.")
        elif self.touch:
            text = _("The host opened the waiting room: the next match's rules may change. "
                     "Tap “I'm ready” when you are ready.")
        else:
            text = _("The host opened the waiting room: the next match's rules may change. "
                     "Press r when you are ready.")
        return Notice(text, title=_("Waiting room"), timeout=8)

    def _ready_taken_back(self, before: Lobby | None, after: Lobby) -> list[Output]:
        """The host changed the next match's rules after this player said ready: the table
        took the ready mark back (it was said to other rules), and the player is told why
        the room asks them again. (The room opening after a match says so itself.)"""
        if (before is None or before.phase != after.phase or after.phase == TablePhase.PLAYING
                or before.you is None or after.you is None or self.is_host
                or before.options == after.options):
            return []
        was = next((seat for seat in before.seats if seat.seat == before.you), None)
        now = next((seat for seat in after.seats if seat.seat == after.you), None)
        if was is not None and now is not None and was.ready and not now.ready:
            text = (_("The host changed the rules of the next match: look them over, "
                      "then tap “I'm ready” when you are ready.") if self.touch
                    else _("The host changed the rules of the next match: look them over, "
                           "then press r when you are ready."))
            return [Notice(text, title=_("Rules changed"), timeout=8)]
        return []

    def _newcomers(self, before: Lobby | None, after: Lobby) -> list[Output]:
        """Between matches, say who sat down for the next one, and whose seat a bot gave
        up for them: the players are looking at the results then, not at the seats."""
        if (before is None or before.phase != TablePhase.FINISHED
                or after.phase != TablePhase.FINISHED or self.hosting == "solo"):
            return []
        had = {seat.name for seat in before.seats}
        has = {seat.name for seat in after.seats}
        mine = after.seats[after.you].name if after.you is not None else None
        arrived = [seat.name for seat in after.seats
                   if seat.name not in had and seat.name != mine]
        bots_gone = [seat.name for seat in before.seats
                     if seat.kind == SeatKind.BOT and seat.name not in has]
        outputs: list[Output] = []
        for name in arrived:
            if len(arrived) == 1 and len(bots_gone) == 1:
                text = _("{name} takes {bot}'s seat for the next match.").format(
                    name=name, bot=bots_gone[0])
            else:
                text = _("{name} takes a seat for the next match.").format(name=name)
            outputs.append(Notice(text, title=_("Next match"), timeout=8))
        return outputs

    def _on_view(self, item: View, now: float) -> list[Output]:
        try:
            view = view_from_wire(item.view)
            events = tuple(event_from_wire(event) for event in item.events)
        except ValueError as error:
            # The error quotes the table's values (repr), however long: shown cut.
            return self._on_refusal(
                "bad-view",
                _("the table sent a view this app cannot read ({problem})").format(
                    problem=shown_reason(str(error))), None)
        history, bad_history = None, None
        if item.history is not None:
            try:
                history = history_from_wire(item.history, item.history_abridged)
            except BadHistory as error:
                bad_history = str(error)  # the view is fine without it: shown anyway
        if item.seq <= self.view_seq:
            return []  # a resumed session may repeat the last view
        self.view_seq = item.seq
        clock = item.clock
        # The table says how many seconds were left when it sent the view: count down
        # from its arrival on this machine's clock (the two clocks need not agree).
        self.clock_deadline = None if clock is None else (clock.seat, now + clock.left)
        if self._move_sent_at is not None and item.seq > self._move_sent_at:
            self._move_sent_at = None  # the table has moved on: the player may choose again
        return self._take_view(view, events, history, bad_history)

    def _take_view(self, view: PlayerView, events: tuple[Event, ...], history: History | None,
                   bad_history: str | None) -> list[Output]:
        outputs: list[Output] = []
        before = self.view
        names = self.names(view)
        if bad_history is not None:
            outputs.append(Notice(
                _("The table's account of the match so far could not be read ({problem}); "
                  "the log goes on from here.").format(problem=bad_history),
                title=_("Log incomplete"), severity="warning",
                timeout=8))
        past: tuple[Event, ...] = ()
        if history is not None:
            caught_up = self.story.catch_up(history, events, view, names)
            past, events = caught_up.past, caught_up.news
            outputs += [Log(change) for change in caught_up.changes]
            if caught_up.round_over:
                outputs.append(CloseDialogs(_ROUND_DIALOGS))  # a round we saw end is long over
        stand_in = self._stand_in(events, view)
        outputs += [Log(change) for change in self.story.record(events, view, names,
                                                                stand_in=stand_in)]
        self.story.seen.add(events)
        self.story.plays.take(events, view, self.story.seen.events)
        self.view = view
        self.views_taken += 1
        if past or events:
            outputs.append(EventsTaken((*past, *events)))
        if not self._table_shown:
            self._table_shown = True
            self.story.table_opened()
        # Every view: the table comes back over a waiting room opened after a match.
        outputs.append(ShowTable())
        outputs += self._busts(events, before, view, names)
        outputs += self._announce(events, view)
        outputs.append(TurnSignal(alert_due(before, view), title_for(view)))
        return outputs

    def _stand_in(self, events: tuple[Event, ...], view: PlayerView) -> StandInItem | None:
        """The first view after the player was away (a new connection, or one resumed
        after a drop) brings the events the table kept for the seat: what a stand-in bot
        played in the seat's name meanwhile."""
        if not self._away:
            return None
        self._away = False
        if view.seat is None:
            return None
        return StandInItem(events, view.seat, view.rules, self._move_in_flight_at_drop)

    def _busts(self, events: tuple[Event, ...], before: PlayerView | None, view: PlayerView,
               names: Sequence[str]) -> list[Output]:
        """Hold the player's own bust on screen until a key, the next deal or the end of the
        match (whose dialog takes over), and keep each round's busts for its dialog."""
        outputs: list[Output] = []
        if any(isinstance(event, RoundDealt | MatchEnded) for event in events):
            outputs.append(CloseDialogs(frozenset({Dialog.BUST})))
        self.story.busts.record(events, names, view)
        bust = your_bust(events, before, view)
        if bust is not None and bust.ends_round:
            self.story.busts.keep_yours(bust)  # the round-end dialog shows it
        elif bust is not None:
            outputs.append(ShowBust(bust))
        return outputs

    def _announce(self, events: tuple[Event, ...], view: PlayerView) -> list[Output]:
        """Notices, and the end-of-round and end-of-match dialogs."""
        outputs: list[Output] = []
        seats = self.lobby.seats if self.lobby else ()
        match_over = any(isinstance(event, MatchEnded) for event in events)
        round_over = any(isinstance(event, RoundEnded) for event in events)
        if not match_over and any(isinstance(event, RoundDealt) for event in events):
            # A new round or a rematch: the previous results are history.
            outputs.append(CloseDialogs(_RESULTS))
        for event in events:
            if match_over or round_over:
                break  # a dialog is about to say what happened (the log has the line)
            if isinstance(event, Eliminated):
                who = seat_name(event.seat, seats)
                text = (_("You are out of the match.") if event.seat == view.seat
                        else _("{you} are out of the match.").format(you=who)
                        if is_named_you(who) else
                        _("{name} is out of the match.").format(name=who))
                outputs.append(Notice(text, severity="warning",
                                      quiet_under_dialog=True))
            elif isinstance(event, TimedOut) and event.seat == view.seat:
                resigned = any(isinstance(e, Resigned) and e.seat == view.seat for e in events)
                if event.in_a_row > 1:
                    text = (_("Your time ran out ({count} in a row).") if resigned
                            else _("Your time ran out ({count} in a row): a stand-in plays "
                                   "your turn.")).format(count=event.in_a_row)
                else:
                    text = (_("Your time ran out.") if resigned
                            else _("Your time ran out: a stand-in plays your turn."))
                outputs.append(Notice(text, severity="warning",
                                      quiet_under_dialog=True))
        if match_over:
            # The match's dialog has every round: one still open under it would be what
            # leaving it leads back to, instead of the table and its rematch key.
            outputs += [CloseDialogs(frozenset({Dialog.ROUND_END})), ClearNotices(),
                        ShowMatchEnd()]
        elif round_over:
            outputs += [CloseDialogs(frozenset({Dialog.ROUND_END})),
                        ShowRoundEnd(self.story.round_results[-1])]
        return outputs

    def _on_refusal(self, code: str, reason: str, ref: str | None) -> list[Output]:
        if ref == "move":
            self._move_sent_at = None  # the move was refused: the view shown is still current
        if crossed_on_the_wire(code, ref):
            # Not a mistake: the table changed (another seat played, the match ended, the
            # rematch was dealt) while this went to it, and what changed is on its way.
            if ref == "move":
                return [Notice(_("The table moved on before your move reached it: look again."),
                               title=_("Not played"), severity="warning", timeout=4)]
            return []
        reason = refusal_words(code, reason) or code.replace("-", " ")
        if ref == "say":
            title = _("Slow down") if code == TableError.SLOW_DOWN else _("Not said")
            return [Notice(reason, title=title, severity="warning", timeout=4)]
        return [Notice(reason, title=_("The table said no"), severity="error", timeout=6)]

    def _on_chat(self, chat: Chat) -> list[Output]:
        said = self.talk.said(chat)
        if said is None:
            return []
        changes = self.story.heard(said, table_shown=self._table_shown)
        return [*(Log(change) for change in changes), Heard(said)]

    def _on_dropped(self, will_retry: bool) -> list[Output]:
        self.connection_state = "reconnecting" if will_retry else "closed"
        self._away = True
        self._move_in_flight_at_drop = self._move_sent_at is not None
        if will_retry:
            return [Notice(_("Connection lost: reconnecting..."), severity="warning")]
        return []

    def _on_resumed(self) -> list[Output]:
        self.connection_state = "connected"
        # A move sent just before the drop may never have arrived; the resumed view (which
        # may repeat the last seq) is the one to play from.
        self._move_sent_at = None
        return [Notice(_("Reconnected: watching again.") if self.spectating
                       else _("Reconnected: your seat is back."))]

    def _ended(self, code: str, reason: str) -> list[Output]:
        self.connection_state = "closed"
        if code in TABLE_GONE and self.hosting == "guest" and self.welcome is not None:
            headline, explanation = (_(words) for words in TABLE_GONE[code])
            self.gone_headline = headline
            return [TableGone(headline, explanation.format(reason=reason or code))]
        if code != "normal":
            reason = reason or code.replace("-", " ")
            return [Notice(_("Disconnected from the table: {reason}").format(reason=reason),
                           severity="error",
                           timeout=10)]
        return []

    # --- the player's intents -------------------------------------------------------------

    def play(self, move: GameMove) -> list[Output]:
        """Play `move`, chosen from the latest view. A second move before the table answered
        the first is quietly ignored: it would be based on an outdated view."""
        if self.move_in_flight:
            return []
        self._move_sent_at = self.view_seq
        return [Send(Move(seq=self.view_seq, move=move_to_wire(move)))]

    def not_sent(self, message: Message) -> None:
        """The front end could not send `message` (the link is down): a move is no longer
        in flight."""
        if isinstance(message, Move):
            self._move_sent_at = None

    def rematch(self) -> list[Output]:
        """Ask for another match: the host deals it, a player says they are ready."""
        if self.spectating:
            # A spectator's connection may not say `ready` (netproto/wire/connection.py): to play
            # the next match they take a seat instead.
            return [Notice(_("You are watching this table: take a seat to play the next match."),
                           title=_("Not a player"), severity="warning", timeout=4)]
        return [Send(Start() if self.is_host else Ready(ready=True))]

    def open_room(self) -> list[Output]:
        """The host takes the table back to the waiting room after a match, to change the
        rules or the seats first (`may_open_room`)."""
        if not self.may_open_room:
            if not self.is_host:
                return [Notice(_("Only the host can open the waiting room."),
                               title=_("Not the host"), severity="warning", timeout=4)]
            return []
        return [Send(OpenRoom(), _("Could not open the waiting room"))]

    def ready(self, ready: bool) -> list[Output]:
        """Say this seat is (or is no longer) ready for the match."""
        return [Send(Ready(ready=ready), _("Could not change ready"))]

    def set_rated(self, rated: bool) -> list[Output]:
        """Ask the table to rate this player's play from the next match on (`rated`), or
        to leave it out. Only a seated player at a table that rates (`may_set_rated`),
        between matches: otherwise a notice says why, and nothing is sent."""
        lobby = self.lobby
        if self.spectating or lobby is None or lobby.you is None:
            return [Notice(_("You are watching this table: only its players are rated."),
                           title=_("Not a player"), severity="warning", timeout=4)]
        if not self.table_rates:
            return [Notice(_("This table rates nobody."), title=_("Rating"),
                           severity="warning", timeout=4)]
        if lobby.phase == TablePhase.PLAYING:
            return [Notice(_("Not during a match: whether you are rated can change only "
                             "between matches."), title=_("Rating not changed"),
                           severity="warning", timeout=6)]
        return [Send(Rated(rated=rated), _("Could not change your rating"))]

    def start(self) -> list[Output]:
        """The host deals the match."""
        return [Send(Start(), _("Could not start"))]

    def add_bot(self, bot: str) -> list[Output]:
        """The host seats a bot of kind (or level) `bot`."""
        return [Send(AddBot(bot=bot), _("Could not add a bot"))]

    def remove_bot(self, seat: int) -> list[Output]:
        """The host removes the bot in `seat`."""
        return [Send(RemoveBot(seat=seat), _("Could not remove the bot"))]

    def set_options(self, what: str, *, preset: str | None = None,
                    rules: Mapping[str, object] | None = None,
                    table: Mapping[str, object] | None = None) -> list[Output]:
        """The host changes the table's options: a preset by name, single rule options,
        and table options beside the rules; `what` is the title shown if it cannot be sent,
        a whole sentence in the player's language ("Could not change the preset")."""
        options: dict[str, Any] = {}
        if preset is not None:
            options["preset"] = preset
        if rules is not None:
            options["rules"] = dict(rules)
        if table is not None:
            options.update(table)
        return [Send(SetOptions(options=options), what)]

    def say(self, text: str) -> list[Output]:
        """Say a line at the table."""
        return [Send(Say(text=text), _("Not said"))]

    def emote(self, emote: str) -> list[Output]:
        """Send a quick emote by its name."""
        return [Send(Say(emote=emote), _("Not said"))]

    def take_seat(self) -> list[Output]:
        """A spectator joins again asking for a seat (`JoinAgain`); nothing when they may
        not now (`may_take_seat`), e.g. a second press while the first is under way."""
        if not self.may_take_seat:
            return []
        self._taking_seat = True
        return [JoinAgain()]

    def seat_not_taken(self) -> None:
        """Joining again for a seat failed (the table is gone, the password prompt was
        cancelled): the spectator may try again."""
        self._taking_seat = False

    def want_seat(self) -> list[Output]:
        """Ask (or, asked already, stop asking) for a seat as soon as this match ends: it
        is taken the moment the table says the match is over, so a host quick to deal the
        rematch does not leave the spectator watching another whole match."""
        self._seat_wanted = not self._seat_wanted
        if self._seat_wanted:
            return [Notice(_("You take a seat as soon as this match ends, if one is free "
                             "(t again to keep watching)."), timeout=8)]
        return [Notice(_("You keep watching after this match."), timeout=5)]

    def match_left(self) -> None:
        """The front end went back to the waiting room after `SeatedAnew`: the match shown
        is forgotten, and the next deal shows the table again."""
        self._lobby_at_match_end = None
        self.view = None
        self.table_closed()

    def table_closed(self) -> None:
        """The front end no longer shows the table (back to the lobby or the waiting room):
        talk heard from now on is kept for the next match's log, and the next view shows
        the table again."""
        self._table_shown = False

    @property
    def table_shown(self) -> bool:
        """Has the session asked for the table to be shown (`ShowTable`) since the front
        end last said it closed it?"""
        return self._table_shown

    # --- what the front ends read ---------------------------------------------------------

    def names(self, view: PlayerView) -> list[str]:
        """Every seat's name in `view`'s match, from the latest lobby."""
        return names_of(view, self.lobby.seats if self.lobby else ())

    @property
    def move_in_flight(self) -> bool:
        """Has a move been sent that the table has not answered yet (by a newer view or an
        error)? Any move chosen meanwhile would be based on an outdated view."""
        return self._move_sent_at is not None

    @property
    def spectating(self) -> bool:
        """Is this session a spectator's (it may only talk, never say ready or play)?"""
        return self.welcome is not None and self.welcome.role == "spectator"

    @property
    def is_host(self) -> bool:
        """Does this player hold the table's host rights (start, bots, rules)?"""
        lobby, welcome = self.lobby, self.welcome
        if lobby is not None and lobby.you is not None:
            return lobby.you == lobby.host_seat
        return welcome is not None and welcome.host

    @property
    def hints_allowed(self) -> bool:
        """Does the table allow hints? An honour setting: a front end works hints out from
        its own view, and offers none when this is off."""
        return self.lobby is not None and self.options.hints

    @property
    def table_rates(self) -> bool:
        """Does the table rate its players (and take `rated`)? Its welcome says so."""
        welcome = self.welcome
        return welcome is not None and welcome.table.get("rates") is True

    @property
    def rated(self) -> bool | None:
        """Is this player's play rated at this table, as the latest lobby says? None for a
        spectator, before the table answered, or at a table that rates nobody."""
        lobby = self.lobby
        if not self.table_rates or self.spectating or lobby is None or lobby.you is None:
            return None
        mine = next((seat for seat in lobby.seats if seat.seat == lobby.you), None)
        return None if mine is None else not mine.unrated

    @property
    def may_set_rated(self) -> bool:
        """May this player switch their rating now? Seated at a table that rates, connected,
        between matches."""
        lobby = self.lobby
        return (self.rated is not None and lobby is not None
                and lobby.phase != TablePhase.PLAYING and self.connection_state == "connected")

    @property
    def may_open_room(self) -> bool:
        """May this player take the table back to the waiting room now? Its host,
        connected, at a table that knows how (`welcome.table.room`), once a match is over."""
        welcome, lobby = self.welcome, self.lobby
        return (welcome is not None and welcome.table.get("room") is True
                and lobby is not None and lobby.phase == TablePhase.FINISHED and self.is_host
                and not self.spectating and self.connection_state == "connected")

    @property
    def may_chat(self) -> bool:
        """May this player talk now? The table must know `say` (its welcome says so),
        somebody must be there to hear (not solo), and a spectator only while the host
        lets spectators talk."""
        welcome, lobby = self.welcome, self.lobby
        if (welcome is None or welcome.table.get("chat") is not True
                or self.hosting == "solo" or self.connection_state != "connected"):
            return False
        if welcome.role == "spectator" or (lobby is not None and lobby.you is None):
            return lobby is None or self.options.spectator_chat
        return True

    @property
    def taking_seat(self) -> bool:
        """Is a spectator's "take a seat" under way?"""
        return self._taking_seat

    @property
    def seat_wanted(self) -> bool:
        """Has this spectator asked for a seat as soon as the match ends?"""
        return self._seat_wanted

    def _may_ask_for_a_seat(self) -> bool:
        # Watching, connected, with a way to join again as a player, nothing under way.
        return (self.spectating and self.connection_state == "connected"
                and not self._taking_seat and self.can_rejoin)

    @property
    def may_take_seat(self) -> bool:
        """May this spectator ask for a seat now? Watching, connected, with a way to join
        again as a player, no such request under way, and the table between matches with a
        seat that may be free (`ono99tui.client.free_seats`)."""
        return self._may_ask_for_a_seat() and seats_free(self.lobby) > 0

    @property
    def may_want_seat(self) -> bool:
        """May this spectator ask now, while a match is on, for a seat in the next one?"""
        return (self._may_ask_for_a_seat() and self.lobby is not None
                and self.lobby.phase == TablePhase.PLAYING)

    @property
    def match_lobby(self) -> Lobby | None:
        """The lobby whose seats are those of the match the view shows: once it is over,
        the table's word as it ended (a seat freed since renumbers the seats of later
        lobbies, and the results would name the wrong players); otherwise the latest."""
        view = self.view
        if (self._lobby_at_match_end is not None and view is not None
                and view.phase == MATCH_OVER):
            return self._lobby_at_match_end
        return self.lobby

    @property
    def may_review(self) -> bool:
        """May this player have a review of the match now? Only once it is over, and only
        of a seat this program played (a spectator has no plays of their own)."""
        view, plays = self.view, self.story.plays
        return (view is not None and view.phase == MATCH_OVER and view.seat is not None
                and plays.match_over and plays.seat == view.seat)

    @property
    def in_game(self) -> bool:
        """Is this player seated in a match that is still going?"""
        view = self.view
        return (view is not None and view.seat is not None and view.phase != MATCH_OVER
                and not view.eliminated[view.seat] and self.connection_state != "closed")

    @property
    def hosting_others(self) -> bool:
        """Does this program run the table (`ono99 host`) with other people (seated or
        watching) whom quitting would send away? Bots don't count. Host rights alone are
        not enough: a player who joined with them leaves a table that stays open."""
        lobby = self.lobby
        if self.hosting != "host" or lobby is None:
            return False
        people = [seat for seat in lobby.seats
                  if seat.seat != lobby.you and seat.kind != SeatKind.BOT]
        return bool(people) or lobby.spectators > 0

    @property
    def quitting_asks(self) -> bool:
        """Does quitting need asking first (a match on, or others at the host's table)?"""
        return self.in_game or self.hosting_others

    def quit_warning(self) -> tuple[str, str]:
        """(question, explanation): what quitting does at this table."""
        if self.hosting == "solo":
            return _("Quit the game?"), _("This is a solo game: quitting ends it for good.")
        if self.hosting == "host":
            if not self.in_game:
                return (_("Close the table?"),
                        _("You host this table: quitting closes it for everyone waiting at it."))
            # Quitting here is the host's choice: the match ends for good (only a crash or a
            # stopped host leaves a match that a restart takes up; docs/JOURNAL.md).
            return (_("Close the table?"),
                    _("You host this table: quitting closes it and ends the match for everyone, "
                      "for good (it stays in the history as abandoned; restarting the host will "
                      "not take it up)."))
        grace = self.options.grace_seconds
        out = self.options.abandon_policy == "eliminate"
        if grace is not None:
            explanation = (
                _("The match goes on without you: your seat is held for {seconds} s (come back "
                  "to take it back), then you are out of the match.") if out
                else _("The match goes on without you: your seat is held for {seconds} s (come "
                       "back to take it back), then a bot plays it.")).format(
                seconds=f"{grace:g}")
        else:
            explanation = (
                _("The match goes on without you: your seat is held for a while (come back to "
                  "take it back), then you are out of the match.") if out
                else _("The match goes on without you: your seat is held for a while (come back "
                       "to take it back), then a bot plays it."))
        return _("Leave the match?"), explanation
