"""The table screen: your hand, the running total, every seat and the story of the match.

It follows the session's view and lobby (`app.session`) and hands display values down to
its widgets, which update in place: an opponent's move repaints the total, two seat lines,
the prompt and one log line, and nothing else. Choices go up as `MoveChosen` messages; the
app hands them to the session.

Layout: seats | total | log across the middle, the prompt and the hand below, the Footer
last. Below 80 columns the log is hidden; below 24 rows cards and total shrink to one line;
from 34 rows (and again from 50) the total grows, from 100 columns (and again from 160)
the seats and log widen.

The engine (through `ono99tui.ui.present`) is imported only once there is a view to show:
the first frame goes out before it loads, which keeps `ono99 solo` quick to start.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

if TYPE_CHECKING:
    from textual import getters

    from ono99tui.game import PlayerView
    from ono99tui.ui.session_app import LogSignal

from ono99tui.client.outputs import LogCleared
from ono99tui.client.story import LogAppended, LogForgotten, MatchPageOpened
from ono99tui.i18n import _, ngettext
from ono99tui.ui.log_lines import log_entries
from ono99tui.ui.requests import (
    AddBotRequested,
    MoveChosen,
    OpenRoomRequested,
    TakeSeatRequested,
    WantSeatToggled,
)
from ono99tui.ui.screens.talk_screen import TALK_BINDINGS, TalkScreen
from ono99tui.ui.session_app import SessionApp, watch_session
from ono99tui.ui.turn_wait import TurnWait
from ono99tui.ui.widgets.banner import ConnectionBanner
from ono99tui.ui.widgets.cards import CardWidget, HandView
from ono99tui.ui.widgets.log import EventLog, LogEntry
from ono99tui.ui.widgets.prompt import PromptLine
from ono99tui.ui.widgets.seats import SeatList
from ono99tui.ui.widgets.static_text import update_if_changed
from ono99tui.ui.widgets.total import TotalPanel


class TableScreen(TalkScreen):
    """Where a match is played (see the module docstring)."""

    CSS_PATH = "table.tcss"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)
    # Textual repaints the whole screen when the focus moves (about 15 KB at 80x24) though
    # only the two cards whose focus style changes need it, and `set_focus` refreshes
    # those. Every arrow key costs a player over SSH; so no full repaint here.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    # Textual annotates these `ClassVar[...] | None`, which mypy cannot read as a ClassVar
    # (it sees an instance variable), so it rejects the correct ClassVar annotation here.
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-narrow"), (80, "-wide"), (100, "-roomy"), (160, "-huge"),
    ]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-short"), (24, "-tall"), (34, "-deep"), (50, "-vast"),
    ]

    BINDINGS: ClassVar[list[BindingType]] = [
        # The Footer's words: translated as the class is made, which is after `ono99`
        # has chosen the language (the UI modules are imported once a command runs).
        Binding("1", "choose(0)", _("Play"), key_display="1-4"),
        Binding("2", "choose(1)", _("Play 2nd"), show=False),
        Binding("3", "choose(2)", _("Play 3rd"), show=False),
        Binding("4", "choose(3)", _("Play 4th"), show=False),
        Binding("left", "move_focus(-1)", _("Left"), show=False),
        Binding("right", "move_focus(1)", _("Right"), show=False),
        Binding("s", "swap", _("Swap 4x99")),
        Binding("d", "draw", _("Draw")),
        # The log: PgUp/PgDn a page, up/down a line, Home the oldest kept, End the newest.
        # The log pane's title shows them (the Footer has no room at 60 columns).
        Binding("pageup", "page_log(-1)", _("Log up"), show=False),
        Binding("pagedown", "page_log(1)", _("Log down"), show=False),
        Binding("up", "scroll_log(-1)", _("Log up a line"), show=False),
        Binding("down", "scroll_log(1)", _("Log down a line"), show=False),
        Binding("home", "log_top", _("Log: oldest"), show=False),
        Binding("end", "log_newest", _("Log: newest"), show=False),
        # After the match-over dialog was closed (Esc): the rematch, and the results again.
        Binding("r", "rematch", _("Rematch")),
        # The host: back to the waiting room, to change the rules before the next match.
        Binding("o", "open_room", _("Waiting room")),
        # A spectator's instead: a seat for the next match, where one may be free.
        Binding("t", "take_seat", _("Take a seat")),
        # The host, the match over, with a seat empty (a player left): a bot for the next.
        Binding("b", "add_bot", _("Add bot")),
        Binding("w", "standings", _("Wins")),
        # The host only, during a match: start, change or stop the turn clock.
        Binding("k", "turn_clock", _("Clock")),
        *TALK_BINDINGS,  # table talk
        # Shown only where the table allows hints (lobby.options.hints); where it does not,
        # h is not offered, and pressed anyway it says why (the second binding).
        Binding("h", "hint", _("Hint")),
        Binding("h", "hint_refused", _("Hint"), show=False),
        Binding("question_mark", "app.rules", _("Rules"), key_display="?"),
        Binding("q", "app.quit", _("Quit")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._was_my_turn = False
        # May the viewer swap four ONO 99 / draw now? (Kept from the last view shown.)
        self._swap_open = False
        self._draw_open = False
        # (swap, draw, out or watching, match over, may chat, may take a seat now / after
        # the match, host, may add a bot, hints allowed, may open the waiting room) as the
        # Footer last showed them.
        self._keys_shown: tuple[bool, ...] | None = None
        # How long the table has waited on the current move (the host's clock reminder).
        self._turn_wait = TurnWait()
        self._following = False
        # The turn clock deadline the player was last warned about (warned once a turn).
        self._warned_for: tuple[int, float] | None = None
        # The view the hint being worked out is about.
        self._hint_view: PlayerView | None = None

    def compose(self) -> ComposeResult:
        yield ConnectionBanner()
        # markup=False here and on the prompt: they show the table's preset name and the
        # players' names, which come over the network and may hold brackets ("[/]" would
        # raise MarkupError, "[@click=app.quit]" would be a live link).
        yield Static("", id="table-title", markup=False)
        with Horizontal(id="middle"):
            with Vertical(id="seats-pane") as seats_pane:
                seats_pane.border_title = _("Seats")
                yield SeatList()
            yield TotalPanel(id="center")
            # The border sits on a container: the log repaints its lines as it scrolls,
            # and the border need not go with them.
            with Vertical(id="log-pane") as log_pane:
                log_pane.border_title = _("Log (PgUp/PgDn)")
                yield EventLog(id="log")
        yield PromptLine(_("Waiting for the deal..."), id="prompt")
        yield HandView()
        # Compact: one cell between keys, not two (table.tcss: the host's nine keys fit 80).
        yield Footer(compact=True)

    def on_mount(self) -> None:
        # Widgets compose their own children after this screen mounts: follow the app once
        # the whole tree is there.
        self.call_after_refresh(self._follow_app)

    def _follow_app(self) -> None:
        if not self.is_attached:
            return  # closed before it was built: there is nothing to show things in
        self._following = True
        log = self.query_one(EventLog)
        self.watch(self.app, "glyphs", self._show_glyphs)
        for entry in log_entries(self.app.session.story.items):
            log.add(entry)
        self.app.log_changed.subscribe(self, self._log_changed, immediate=True)
        watch_session(self, lambda session: session.view, self._show, init=False)
        watch_session(self, lambda session: session.lobby, self._show, init=False)
        self._show()
        # The turn clock counts down between views (each view says how long is left).
        self.set_interval(0.5, self._show_seats)
        self.set_interval(1.0, self._remind_of_the_clock)

    # --- attributes down ----------------------------------------------------------------

    @property
    def current_view(self) -> PlayerView | None:
        """The view the screen shows (the session's)."""
        return self.app.session.view

    def _seats(self) -> Sequence[Any]:
        # After the match, the seats it was played by (see TableSession.match_lobby).
        lobby = self.app.session.match_lobby
        return lobby.seats if lobby is not None else ()

    def on_unmount(self) -> None:
        # The app's reactives may still change (and call the watchers) after this screen
        # closed; its widgets are gone by then.
        self._following = False

    def _show(self, *_args: object) -> None:
        view = self.current_view
        if view is None or not self._following or not self.is_attached:
            return
        from ono99tui.ui.present import (
            can_swap,
            card_slots,
            last_card_text,
            limit_text,
            must_draw,
            near_limit,
            obligation_line,
            prompt_forms,
        )

        seats = self._seats()
        self._show_seats()
        obligation, mine = obligation_line(view, seats)
        self.query_one(TotalPanel).show(
            total=view.total,
            limit_text=limit_text(view),
            last_card=last_card_text(view),
            near_limit=near_limit(view),
            direction=view.direction,
            obligation=obligation,
            obligation_mine=mine,
        )
        # (The last card played is beside the total, not up here.)
        title = _("Rules {preset}  Round {round}  Draw pile {cards}").format(
            preset=view.preset, round=view.round_no, cards=view.draw_pile_size)
        duplicate = self.app.session.options.duplicate_set
        if duplicate is not None and duplicate.deal:  # a duplicate set's deal (DUPLICATE.md)
            title += "  " + _("Deal {deal} of {of}").format(deal=duplicate.deal,
                                                            of=duplicate.of)
        update_if_changed(self.query_one("#table-title", Static), title)
        forms, act = prompt_forms(view, seats)
        prompt_line = self.query_one("#prompt", PromptLine)
        prompt_line.show(forms)
        prompt_line.set_class(act, "-act")
        prompt_line.set_class(mine, "-owes")
        self.set_class(mine, "-owes")
        hand = self.query_one(HandView)
        discarding = view.seat is not None and view.discarding == view.seat
        hand.show(card_slots(view), verb="discards" if discarding else "plays")
        self._follow_turn(view, act, hand)
        out = view.seat is None or view.eliminated[view.seat]
        session = self.app.session
        keys = (can_swap(view), must_draw(view), out, view.phase == "match_over",
                session.may_chat, session.may_take_seat, session.may_want_seat,
                session.is_host, self._may_add_bot(), session.hints_allowed,
                session.may_open_room)
        if keys != self._keys_shown:
            self._keys_shown = keys
            self._swap_open, self._draw_open = keys[:2]
            self.refresh_bindings()
        self._show_through_dialogs()

    def _show_through_dialogs(self) -> None:
        """Under a dialog (results, standings, rules, a bust) the table still shows around
        it; but Textual puts a covered screen's changed widgets on the terminal only when
        the screen on top repaints (played: a player's "away" mark stayed hidden until the
        dialog closed, where a move showed because the dialog's footer changed with it).
        So, covered, repaint the screen on top once this one has caught up."""
        if self.is_attached and not self.is_active:
            self.call_after_refresh(self.app.screen.refresh)

    def _show_seats(self) -> None:
        """The seat lines, with the seconds the turn clock has left; on the player's own
        turn, a warning once few are left."""
        view = self.current_view
        if view is None or not self._following or not self.is_attached:
            return
        from ono99tui.ui.present import clock_seconds_left, clock_warning, seat_infos

        deadline = self.app.session.clock_deadline
        clock = clock_seconds_left(deadline, self.app.clock())
        lobby = self.app.session.lobby
        if self.query_one(SeatList).show(seat_infos(view, self._seats(), clock),
                                         lobby.spectators if lobby else 0):
            self._show_through_dialogs()
        if clock is not None and clock_warning(view, clock) and deadline != self._warned_for:
            self._warned_for = deadline
            self.notify(ngettext("{seconds} second left: play, or a stand-in plays for you.",
                                 "{seconds} seconds left: play, or a stand-in plays for you.",
                                 clock[1]).format(seconds=clock[1]),
                        title=_("Your turn"), severity="warning", timeout=5)

    def _follow_turn(self, view: PlayerView, act: bool, hand: HandView) -> None:
        """When the viewer's turn starts, put the focus on the first card they may play."""
        if act and not self._was_my_turn:
            self._focus_a_playable_card()
        self._was_my_turn = act

    def _focus_a_playable_card(self) -> None:
        """Focus the first playable card, unless a card has the focus already."""
        cards = self.query_one(HandView).cards
        target = next((card for card in cards if card.slot and card.slot.playable), None)
        if target is not None and not any(card.has_focus for card in cards):
            target.focus()

    def on_screen_resume(self) -> None:
        # Back from a round-end or help screen: the turn may have come meanwhile.
        if self._following and self._was_my_turn:
            self._focus_a_playable_card()

    def _log_changed(self, change: LogSignal) -> None:
        """The session's story changed (`app.log_changed`): lines at the end, a new match's
        page, the match in progress dropped for the table's account, or a fresh log."""
        if not self._following or not self.is_attached:
            return  # `_follow_app` will show the whole story (or the screen is closed)
        log = self.query_one(EventLog)
        if isinstance(change, LogAppended):
            self.add_log_lines(log_entries(change.items))
        elif isinstance(change, MatchPageOpened):
            log.start_match(_("Match {number}").format(number=change.number))
        elif isinstance(change, LogForgotten):
            log.forget_match(len(log_entries(change.items)), change.page)
        elif isinstance(change, LogCleared):
            log.clear()

    def add_log_lines(self, lines: Sequence[str | LogEntry]) -> None:
        """Append lines to the event log."""
        if not self._following or not self.is_attached:
            return
        log = self.query_one(EventLog)
        for line in lines:
            log.add(line)

    def talk_in_sight(self) -> bool:
        """Talk shows in the log, which is hidden under 80 columns."""
        return not self.has_class("-narrow")

    def _show_glyphs(self, glyphs: Any) -> None:
        if self._following and self.is_attached:
            self.query_one(EventLog).show_ascii(glyphs.ascii)
            self.query_one("#prompt", PromptLine).refit()  # its ellipsis, if it is cut

    def action_scroll_log(self, rows: int) -> None:
        """Scroll the log by `rows` (negative: back towards older lines)."""
        self.query_one(EventLog).scroll_rows(rows)

    def action_page_log(self, pages: int) -> None:
        """Scroll the log by whole pages."""
        self.query_one(EventLog).page(pages)

    def action_log_top(self) -> None:
        """Show the oldest lines the log keeps (the previous match's, after a rematch)."""
        self.query_one(EventLog).to_top()

    def action_log_newest(self) -> None:
        """Back to the newest line; the log follows it again."""
        self.query_one(EventLog).to_newest()

    # --- messages up ----------------------------------------------------------------------

    def _awaiting_answer(self) -> bool:
        """Is a move of ours on its way to the table? Then the view shown is about to be
        outdated, and play keys and clicks are ignored (quietly) until the answer comes."""
        return self.app.session.move_in_flight

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.current_view
        if (
            action in ("choose", "move_focus", "swap", "draw")
            and view is not None
            and (view.seat is None or view.eliminated[view.seat])
        ):
            # A spectator, or a player out of the match, has nothing to play: no play,
            # swap or draw keys shown.
            return False
        if action in ("choose", "swap", "draw") and self._match_over():
            return False  # nothing to play any more: room in the Footer for the rematch
        if action == "swap":
            if view is None or not view.rules.four_ono99_swap:
                return False
            return True if self._swap_open else None
        if action == "draw":
            if view is None or not view.rules.late_draw_penalty:
                return False
            return True if self._draw_open else None
        if action == "rematch":
            return self._match_over() and view is not None and view.seat is not None
        if action == "add_bot":
            return self._match_over() and self._may_add_bot()
        session = self.app.session
        if action == "open_room":
            return self._match_over() and session.may_open_room
        if action == "take_seat":  # now, or (mid-match) as soon as the match ends
            if self._match_over():
                return session.may_take_seat
            return session.may_want_seat
        if action in ("chat", "emote"):
            return session.may_chat
        if action == "turn_clock":
            return (session.is_host and session.hosting != "solo" and view is not None
                    and not self._match_over() and session.connection_state == "connected")
        if action == "mute":
            return session.welcome is not None and session.hosting != "solo"
        if action in ("hint", "hint_refused"):
            # Nothing to advise a spectator or a player out of the match (no cards).
            playing = (view is not None and view.seat is not None
                       and not view.eliminated[view.seat] and not self._match_over())
            return playing and session.hints_allowed == (action == "hint")
        return True

    def _match_over(self) -> bool:
        view = self.current_view
        return view is not None and view.phase == "match_over"  # game.MATCH_OVER

    def on_card_widget_chosen(self, message: CardWidget.Chosen) -> None:
        self.action_choose(message.index)

    def action_choose(self, index: int) -> None:
        """Play (or, after a points-mode bust, discard) the card in position `index`."""
        view = self.current_view
        hand = self.query_one(HandView)
        cards = hand.cards
        if self._awaiting_answer():
            return
        if view is None or view.seat is None or not 0 <= index < len(cards):
            return
        card_widget = cards[index]
        if not card_widget.has_focus:
            card_widget.focus()  # `focus` repaints the card even when it has the focus already
        slot = card_widget.slot
        if slot is None:
            return
        if not slot.playable:
            self.app.bell()
            return
        from ono99tui.game import Discard, Play

        card = view.hand[index]
        move = Discard(view.seat, card) if view.discarding == view.seat else Play(view.seat, card)
        self.post_message(MoveChosen(move))

    def action_rematch(self) -> None:
        """Ask for the rematch from the table (the match-over dialog was closed): the
        dialog comes back, saying that the rematch was asked for."""
        if self._match_over():
            from ono99tui.ui.screens.results import MatchEndScreen

            self.app.push_screen(MatchEndScreen(rematch=True))

    def action_open_room(self) -> None:
        """The host, the match over (its dialog closed): back to the waiting room."""
        if self._match_over():
            self.post_message(OpenRoomRequested())

    def _may_add_bot(self) -> bool:
        """The host, connected, at a table with a seat empty (a player left after the
        match); not in solo, whose seats are all the host's own choice."""
        session = self.app.session
        lobby = session.lobby
        return (session.is_host and session.hosting != "solo" and lobby is not None
                and session.connection_state == "connected"
                and len(lobby.seats) < lobby.capacity)

    def action_add_bot(self) -> None:
        """Host, the match over: seat a bot (of the table's bot level) for the next match,
        in the seat a player left."""
        if not (self._match_over() and self._may_add_bot()):
            return
        level = self.app.session.options.bot_level
        self.post_message(AddBotRequested(level or "normal"))

    def action_take_seat(self) -> None:
        """A spectator, the match over (its dialog closed): join the table again asking
        for a seat for the next match. Mid-match: ask for one as soon as it ends."""
        session = self.app.session
        if self._match_over():
            if session.may_take_seat:
                self.post_message(TakeSeatRequested())
        elif session.may_want_seat:
            self.post_message(WantSeatToggled())

    def action_standings(self) -> None:
        """The match's results when it is over; otherwise the matches won at this table."""
        from ono99tui.ui.screens.results import MatchEndScreen, StandingsScreen

        self.app.push_screen(MatchEndScreen() if self._match_over() else StandingsScreen())

    def action_turn_clock(self) -> None:
        """The host sets the seconds per move for everyone, now (a player who walked away
        mid-turn would otherwise hold the table up until the match ends)."""
        from ono99tui.ui.requests import OptionsChangeRequested
        from ono99tui.ui.screens.turn_time_prompt import TurnTime, TurnTimePrompt

        current = self.app.session.options.turn_seconds

        def chosen(answer: TurnTime | None) -> None:
            if answer is not None:
                self.post_message(OptionsChangeRequested(
                    _("Could not change the turn time"),
                    table={"turn_seconds": answer.seconds}))

        self.app.push_screen(
            TurnTimePrompt(current), chosen)

    def _remind_of_the_clock(self) -> None:
        # The host is told once per move that has kept the table waiting a minute with no
        # clock (ono99tui/ui/turn_wait.py).
        view = self.current_view
        session = self.app.session
        if view is None or not session.is_host or session.hosting == "solo":
            return
        name = self._turn_wait.check(view, self._seats(), session.clock_deadline is not None,
                                     self.app.clock())
        if name is not None:
            self.notify(_("The table has waited a minute for {name}, with no turn clock: "
                          "k starts one.").format(name=name), title=_("Waiting"), timeout=20,
                        markup=False)


    def action_hint_refused(self) -> None:
        """h where the table does not allow hints (the key is not offered): say why."""
        self.notify(_("Hints are off at this table: the host decides."), severity="warning")

    def action_hint(self) -> None:
        """Work out a hint for this turn on a worker thread (the search takes a moment;
        the table stays live), then show it in the hint panel."""
        view = self.current_view
        if not self.app.session.hints_allowed:
            self.notify(_("Hints are off at this table: the host decides."), severity="warning")
            return
        if view is None or view.seat is None or view.turn != view.seat or not view.legal_moves:
            self.notify(_("A hint is for your own turn to play a card."))
            return
        from ono99tui.ui.hinting import work_out_hint

        events = tuple(self.app.session.story.seen.events)
        self._hint_view = view
        self.run_worker(partial(work_out_hint, view, events), name="hint", group="hint",
                        thread=True, exclusive=True, exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A hint worked out (or not): show it, unless the table moved on meanwhile."""
        worker = event.worker
        if worker.name != "hint":
            return
        from ono99tui.ui.hinting import Hint, NoHint

        if event.state == WorkerState.SUCCESS and isinstance(worker.result, Hint):
            view = self.current_view
            if view is not self._hint_view:  # the hint is about a position that is gone
                self.notify(_("The table moved on: press h again for a hint."))

                return
            from ono99tui.ui.screens.hint import HintScreen

            self.app.push_screen(HintScreen(worker.result, about=view))
        elif event.state == WorkerState.ERROR:
            error = worker.error
            words = (str(error) if isinstance(error, NoHint)
                     else _("No hint this time: {error}").format(error=error))
            self.notify(words, severity="warning", markup=False)  # an error's own words

    def action_move_focus(self, step: int) -> None:
        self.query_one(HandView).action_move(step)

    def action_swap(self) -> None:
        """Discard four ONO 99 cards at once and draw four new ones."""
        view = self.current_view
        if (
            view is not None
            and view.seat is not None
            and self._swap_open
            and not self._awaiting_answer()
        ):
            from ono99tui.game import SwapFour

            self.post_message(MoveChosen(SwapFour(view.seat)))

    def action_draw(self) -> None:
        """Late-draw rule: draw the card owed before the next player plays."""
        view = self.current_view
        if (
            view is not None
            and view.seat is not None
            and self._draw_open
            and not self._awaiting_answer()
        ):
            from ono99tui.game import Draw

            self.post_message(MoveChosen(Draw(view.seat)))
