"""The end of a round and the end of a match: standings, per-round scores, rematch."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Footer, Static

from netproto.wire.messages import Lobby, SeatKind
from ono99tui.client.duplicate import DuplicateResults, results_from_wire
from ono99tui.client.free_seats import free_seats_text, seats_free
from ono99tui.client.names import seat_name
from ono99tui.client.options import options_from_wire
from ono99tui.client.places import place_numbers, standings
from ono99tui.client.plots import round_totals
from ono99tui.client.session import TableSession
from ono99tui.client.story import EventItem
from ono99tui.game import PlayerView, RoundEnded
from ono99tui.i18n import N_, _
from ono99tui.ui.present import bust_lines, bust_notice, matches_played, matches_won, winners_text
from ono99tui.ui.requests import (
    OpenRoomRequested,
    RatedRequested,
    RematchRequested,
    TakeSeatRequested,
)
from ono99tui.ui.screens.bust import held_line
from ono99tui.ui.screens.own_modal import OwnModal
from ono99tui.ui.session_app import SessionApp, watch_session
from ono99tui.ui.widgets.check_box import RateMyPlayBox
from ono99tui.words.duplicate import (
    best_lines,
    compared,
    not_yet_compared,
    results_title,
    score_rows,
)

if TYPE_CHECKING:
    from textual import getters


def _names(session: TableSession, view: PlayerView) -> list[str]:
    # The seats as the match was played (a seat freed after it renumbers later lobbies).
    lobby = session.match_lobby
    seats = lobby.seats if lobby is not None else ()
    return [seat_name(seat, seats) for seat in range(view.seats)]


def rematch_status(is_host: bool, lobby: Lobby | None) -> str:
    """What a player who asked for a rematch is told while it comes."""
    start_when = options_from_wire(lobby.options).start_when if lobby is not None else None
    if is_host:
        return _("Starting the rematch...")
    if lobby is not None and lobby.host_seat is None and start_when is not None:
        # A headless table: it deals once enough seats are taken and everyone is ready.
        return _("Ready: the rematch starts when {seats} seats are taken "
                 "and everyone is ready...").format(seats=start_when)
    return _("Ready: waiting for the host to start the rematch...")


def rematch_readiness(lobby: Lobby | None) -> str:
    """Who has said ready for the rematch, as the host who deals it is told ("" before the
    table says the match is over, or with nobody but bots to wait for)."""
    if lobby is None or lobby.phase != "finished":
        return ""
    people = [seat for seat in lobby.seats
              if seat.seat != lobby.host_seat and seat.kind == SeatKind.HUMAN]
    if not people:
        return ""
    ready = [seat.name for seat in people if seat.connected and seat.ready]
    waiting = [seat.name for seat in people if seat.connected and not seat.ready]
    gone = [seat.name for seat in people if not seat.connected]
    if not waiting and not gone:
        return _("Everyone is ready for the rematch: r deals it.")
    parts = [_("Ready for the rematch: {names}.").format(names=", ".join(ready)) if ready
             else _("Ready for the rematch: nobody yet.")]
    if waiting:
        parts.append(_("Not yet: {names}.").format(names=", ".join(waiting)))
    if gone:
        parts.append(_("Gone, not dealt in: {names}.").format(names=", ".join(gone)))
    return " ".join(parts)


def seat_offer_status(lobby: Lobby | None, *, may_take: bool) -> str:
    """What the match-over dialog tells a spectator about the seats for the next match
    ("" until the table says the match is over: its lobby comes just after the last view)."""
    if lobby is None or lobby.phase == "playing":
        return ""
    if not may_take and seats_free(lobby):
        return _("Watching.")  # no way to ask for it from here (the link is down)
    return _("Watching: {seats}.").format(seats=free_seats_text(lobby))


def _pad(text: str, width: int, *, left: bool) -> str:
    spaces = " " * max(0, width - cell_len(text))
    return text + spaces if left else spaces + text


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Plain-text columns: the first left-aligned, the others right-aligned."""
    # strict=False: the header (names) and the rows (round results) come from different
    # places; a row of another length shortens the table rather than failing the screen.
    # Widths in terminal cells, not code points: a Bengali or Kannada heading has more
    # code points than cells.
    widths = [
        max(cell_len(str(cell)) for cell in column)
        for column in zip(header, *rows, strict=False)
    ]
    lines = []
    for row in (header, *rows):
        cells = [_pad(str(row[0]), widths[0], left=True)]
        cells += [_pad(str(cell), width, left=False)
                  for cell, width in zip(row[1:], widths[1:], strict=False)]
        lines.append("  ".join(cells))
    return "\n".join(lines)




def round_table(view: PlayerView, names: Sequence[str], result: RoundEnded) -> str:
    """This round's points, the scores after it, and the tokens left, per seat."""
    scoring = view.rules.scoring
    # Two columns per seat in tokens mode, three in points modes.
    header: tuple[str, ...]
    rows: list[tuple[str, ...]]
    if scoring == "tokens":
        header = (_("Player"), _("Tokens"))
        rows = [
            (names[s], token_cell(result.tokens[s], view.eliminated[s])) for s in range(len(names))
        ]
    else:
        header = (_("Player"), _("Round"), _("Score"))
        rows = [
            (names[s], str(result.points[s]), str(result.scores[s])) for s in range(len(names))
        ]
    return _table(header, rows)


def token_cell(tokens: int, eliminated: bool) -> str:
    """Tokens left as the results show them: 0 is not the same as out of the match (a seat
    with 0 tokens plays on, and is out at its next bust)."""
    if eliminated:
        return _("out")
    return _("0 (last life)") if tokens == 0 else str(tokens)


# Above the rounds of a tokens match: its numbers are what each player had left.
TOKENS_CAPTION = N_("Tokens left after each round")


def rounds_table(view: PlayerView, names: Sequence[str], results: Sequence[RoundEnded],
                 eliminated: Mapping[int, Sequence[bool]] | None = None) -> str:
    """One row per finished round: points scored (points modes) or tokens left (tokens, under
    a line that says so), "out" for a seat out of the match by the end of that round (from
    `eliminated`, the flags per round number)."""
    if not results:
        return ""
    tokens = view.rules.scoring == "tokens"
    header = (_("Round"), *names)
    if tokens:
        flags = eliminated or {}

        def cell(round_no: int, seat: int, left: int) -> str:
            out = flags.get(round_no, ())
            return _("out") if seat < len(out) and out[seat] else str(left)

        rows = [
            (
                str(result.round_no),
                *(cell(result.round_no, seat, left) for seat, left in enumerate(result.tokens)),
            )
            for result in results
        ]
    else:
        rows = [(str(result.round_no), *(str(v) for v in result.points)) for result in results]
    if not tokens:
        rows.append((_("Total"), *(str(score) for score in results[-1].scores)))
        return _table(header, rows)
    # Small numbers under names read as points scored: say what they are.
    return f"{_(TOKENS_CAPTION)}\n{_table(header, rows)}"


def rating_cells(results: Mapping[str, Any], seats: int) -> list[str] | None:
    """Each seat's new rating and its change ("1043 (+23)"; "" for a seat not rated), from
    the results of a table that rates its players; None from one that does not."""
    ratings = results.get("ratings")
    if not isinstance(ratings, list) or len(ratings) != seats:
        return None
    cells = []
    for entry in ratings:
        rating = entry.get("rating") if isinstance(entry, dict) else None
        change = entry.get("change") if isinstance(entry, dict) else None
        if type(rating) is int and type(change) is int:
            cells.append(f"{rating} ({change:+d})")
        else:
            cells.append("")
    return cells if any(cells) else None


def places_table(names: Sequence[str], order: Sequence[int], won: Sequence[int] | None,
                 played: Sequence[int] | None = None,
                 ratings: Sequence[str] | None = None,
                 numbers: Sequence[int] | None = None) -> str:
    """This match's places, first to last, with the evening's standings at this table when
    the table has said: the matches each player has won there, and (from tables that count
    them) the matches they have played there; and, from a table that rates its players,
    each one's new rating and its change (`ratings`, cells per seat). `numbers`: the
    place of each row (`client.places.place_numbers`: equals share one), else 1, 2, 3..."""
    numbers = numbers if numbers is not None else range(1, len(order) + 1)
    places = [f"{place}. {names[seat]}" for place, seat in zip(numbers, order, strict=True)]
    if ratings is not None:
        header = [_("This match")]
        columns: list[Sequence[str]] = []
        if won is not None:
            header.append(_("Won here") if played is not None else _("Matches won"))
            columns.append([str(won[seat]) for seat in order])
        if won is not None and played is not None:
            header.append(_("Played"))
            columns.append([str(played[seat]) for seat in order])
        header.append(_("Rating"))
        columns.append([ratings[seat] for seat in order])
        return _table(header, [(line, *(column[row] for column in columns))
                               for row, line in enumerate(places)])
    if won is None:
        return "\n".join(places)
    if played is None:
        return _table((_("This match"), _("Matches won")),
                      [(line, str(won[seat])) for line, seat in zip(places, order, strict=True)])
    return _table((_("This match"), _("Won here"), _("Played")),
                  [(line, str(won[seat]), str(played[seat]))
                   for line, seat in zip(places, order, strict=True)])


def wins_table(names: Sequence[str], won: Sequence[int],
               played: Sequence[int] | None = None) -> str:
    """Matches won per player at this table, most first (seat order among equals), and
    the matches each has played there when the table counts them."""
    order = sorted(range(len(names)), key=lambda seat: -won[seat])
    if played is None:
        return _table((_("Player"), _("Matches won")),
                      [(names[seat], str(won[seat])) for seat in order])
    return _table((_("Player"), _("Won"), _("Played")),
                  [(names[seat], str(won[seat]), str(played[seat])) for seat in order])


def duplicate_text(results: DuplicateResults) -> str:
    """A duplicate set's comparison (docs/DUPLICATE.md): its heading, the players best
    first with their edges, and who played each seat's cards best."""
    if not compared(results):
        return "\n".join([results_title(results), not_yet_compared()])
    header, rows = score_rows(results)
    return "\n".join([results_title(results), _table(header, rows), *best_lines(results)])


def _duplicate(session: TableSession) -> DuplicateResults | None:
    lobby = session.match_lobby
    return results_from_wire(lobby.results) if lobby is not None else None


def _matches_won(session: TableSession, seats: int) -> list[int] | None:
    lobby = session.match_lobby
    return matches_won(lobby.results, seats) if lobby is not None else None


def _matches_played(session: TableSession, seats: int) -> list[int] | None:
    lobby = session.match_lobby
    return matches_played(lobby.results, seats) if lobby is not None else None


def open_plots(screen: RoundEndScreen | MatchEndScreen, *, evening: bool = False) -> None:
    """Open the plots over `screen`: the last finished round's total (and, from the
    match's dialog, the evening's ratings)."""
    from ono99tui.ui.screens.plots import PlotsScreen

    session = screen.app.session
    view = session.view
    events = [item.event for item in session.story.items if isinstance(item, EventItem)]
    totals = round_totals(events, finished=True)
    names = _names(session, view) if view is not None else []
    limit = view.bust_at if view is not None else 99
    screen.app.push_screen(PlotsScreen(totals, names, limit,
                                       session.evening.series() if evening else None))


class _Dialog(OwnModal[None]):
    """A results dialog that closes only itself: a key pressed on a round's dialog just as
    the table closed it for the match's (or the next deal) must not close that one."""


class RoundEndScreen(_Dialog):
    """A round of a tokens or points match is over; Enter goes back to the table."""

    CSS_PATH = "results.tcss"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,space", "dismiss", _("Continue"), key_display="Enter"),
        Binding("g", "plots", _("Plot")),
    ]

    def action_plots(self) -> None:
        """The round's total after each play, as a plot."""
        open_plots(self)

    def __init__(self, result: RoundEnded) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        session = self.app.session
        view = session.view
        with Vertical(classes="results"):
            yield Static(_("Round {round} is over").format(round=self.result.round_no),
                         classes="results-title",
                         markup=False)
            recorded = session.story.busts
            busts = [line for chunk in recorded.chunks.get(self.result.round_no, ())
                     for line in bust_lines(chunk.events, chunk.names, chunk.viewer)]
            yours = recorded.yours.get(self.result.round_no)
            notice = (None if yours is None
                      else bust_notice(yours.events, yours.before, yours.after, self.app.glyphs))
            if notice is not None:  # the bust that ended the round was the player's own
                busts = [*busts, held_line(notice)]
            if busts:
                yield Static(
                    "\n".join(busts), id="round-busts", classes="results-table", markup=False
                )
            if view is not None:
                # markup=False on every table of names: players' names may hold brackets.
                yield Static(
                    round_table(view, _names(session, view), self.result),
                    classes="results-table", markup=False,
                )
            yield Button(_("Continue (Enter)"), variant="primary", id="continue")
        yield Footer()  # "enter Continue" stays in sight where the dialog is cut (40x12)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        await self.action_dismiss()


class MatchEndScreen(_Dialog):
    """The match is over: who won, the standings, the rounds, and a rematch."""

    CSS_PATH = "results.tcss"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)
    # Under 50 columns the dialog fills the width, and the scrollbar it has where it is
    # also short would leave the buttons too little: it keeps less padding there.
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-narrow"), (50, "-wide"),
    ]
    # Under 24 rows the whole dialog scrolls: the table of rounds needs no scrollbar of its own.
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-short"), (24, "-tall"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        # A player asks for the rematch; a spectator (who may not say ready) takes a seat.
        Binding("r", "rematch", _("Rematch")),
        Binding("t", "take_seat", _("Take a seat")),
        # The host: back to the waiting room, to change the rules before the next match.
        Binding("o", "open_room", _("Waiting room")),
        # A player who had a seat: a coach's review of their plays (ui/screens/review.py).
        Binding("v", "review", _("Review")),
        # The last round's total and the evening's ratings, as plots (ui/screens/plots.py).
        Binding("g", "plots", _("Plots")),
        # The player's own, as in the waiting room: rated or not from the next match on
        # (the box names the key: the Footer has no room for one more at 80 columns).
        Binding("u", "toggle_rated", _("Rate my play"), show=False),
        Binding("escape", "dismiss", _("Back to the table")),
        Binding("q", "app.quit", _("Quit")),
    ]

    AUTO_FOCUS = ""  # see `on_mount`

    def __init__(self, *, rematch: bool = False) -> None:
        super().__init__()
        # Opened by the table's rematch key: ask for the rematch at once.
        self._rematch_at_once = rematch
        # The rematch was asked for: its status line says so from then on.
        self._rematch_asked = False

    def compose(self) -> ComposeResult:
        session = self.app.session
        view = session.view
        with Vertical(classes="results"):
            if view is None:
                yield Static(_("The match is over"), classes="results-title", markup=False)
            else:
                lobby = session.match_lobby
                seats = lobby.seats if lobby is not None else ()
                names = _names(session, view)
                yield Static(_("Match over: {winners}!").format(winners=winners_text(view, seats)),
                             classes="results-title",
                             markup=False)
                yield Static(
                    self._places(view), id="standings", classes="results-table", markup=False
                )
                # A duplicate set's comparison, once the table's lobby has brought it.
                duplicate = Static("", id="duplicate", classes="results-table", markup=False)
                duplicate.display = False
                yield duplicate
                rounds = rounds_table(view, names, session.story.round_results,
                                      session.story.busts.eliminated)
                if rounds:
                    with VerticalScroll(id="rounds"):
                        yield Static(rounds, classes="results-table", markup=False)
            # Docked to the dialog's foot: where the terminal is too short for the whole
            # dialog (61x19 after a long match), what is above scrolls and these stay in
            # sight rather than being cut off below.
            with Vertical(id="match-actions"):
                yield Static("", id="rematch-status", markup=False)
                # Shown to a seated player at a table that rates (`_show_rated`).
                yield RateMyPlayBox()
                with Horizontal(classes="results-buttons"):
                    if self._spectating():
                        # Shown when the table may have a seat free (`_show_seat_offer`).
                        yield Button(_("Take a seat (t)"), variant="primary", id="take-seat")
                    else:
                        yield Button(_("Rematch (r)"), variant="primary", id="rematch")
                        # Shown to the host once the table says the match is over.
                        yield Button(self._room_label(), id="open-room")
                    yield Button(_("Quit (q)"), id="quit")
        yield Footer()

    def _spectating(self) -> bool:
        return self.app.session.spectating

    def _room_label(self) -> str:
        # Under 50 columns two buttons fill the row: the short word.
        return _("Room (o)") if self.app.size.width < 50 else _("Waiting room (o)")

    def on_resize(self) -> None:
        found = self.query("#open-room")
        if found:
            found.first(Button).label = self._room_label()

    def _may_take_seat(self) -> bool:
        return self.app.session.may_take_seat

    def _places(self, view: PlayerView) -> str:
        session = self.app.session
        order = standings(view, session.story.out_order)
        lobby = session.match_lobby
        ratings = rating_cells(lobby.results, view.seats) if lobby is not None else None
        return places_table(_names(session, view), order, _matches_won(session, view.seats),
                            _matches_played(session, view.seats), ratings,
                            place_numbers(view, order))

    def on_mount(self) -> None:
        # The table sends the match's last view first and the lobby with the matches won
        # just after: show them when they come.
        watch_session(self, lambda session: session.lobby, self._show_matches_won, init=False)
        watch_session(self, lambda session: session.lobby, self._show_host_actions)
        watch_session(self, lambda session: session.lobby, self._show_rated)
        self._show_duplicate()
        self.set_class(self._spectating(), "-spectating")
        if self._spectating():
            # Whether a seat may be free comes with the lobby that says the match is over.
            watch_session(self, lambda session: session.lobby, self._show_seat_offer)
        # The first focusable widget takes the focus, as Textual's own auto-focus would give
        # it, but without scrolling to it: that scrolled a short dialog past who won.
        # (A spectator offered no seat gets no focus: Enter must not land on Quit.)
        # (Nor the rating box: Enter must press Rematch, not switch the rating.)
        first = next((widget for widget in self.query("*")
                      if widget.focusable and widget.display
                      and widget.id not in ("quit", "rate-me")), None)
        if first is not None:
            self.set_focus(first, scroll_visible=False)
        if self._rematch_at_once:
            self.action_rematch()

    def _show_matches_won(self, _event: object) -> None:
        view = self.app.session.view
        found = self.query("#standings")
        if view is not None and found:
            found.first(Static).update(self._places(view))
        self._show_duplicate()

    def _show_duplicate(self) -> None:
        found = self.query("#duplicate")
        results = _duplicate(self.app.session)
        if found:
            box = found.first(Static)
            box.display = results is not None
            if results is not None:
                box.update(duplicate_text(results))
        rematch = self.query("#rematch")
        if rematch:
            # In a set, the rematch deals its next rotation (the same cards, other seats).
            going_on = results is not None and not results.complete
            rematch.first(Button).label = _("Next deal (r)") if going_on else _("Rematch (r)")

    def _show_host_actions(self, lobby: Lobby | None) -> None:
        """The host's dialog: who is ready for the rematch (the host deals it, and only the
        players were told that they wait for the host), and the way to the waiting room."""
        may_open = self.app.session.may_open_room
        self.set_class(may_open, "-may-open-room")
        found = self.query("#open-room")
        if found:
            button = found.first(Button)
            button.display = may_open
            if not may_open and button.has_focus:
                self.set_focus(None)
        status = self.query("#rematch-status")  # (none while the dialog is closing)
        if (status and self.app.session.is_host and not self._spectating()
                and not self._rematch_asked):
            status.first(Static).update(rematch_readiness(lobby))
        self.refresh_bindings()

    def _show_rated(self, _lobby: Lobby | None) -> None:
        """The player's own "Rate my play (u)" box: only where the table rates, for a seat
        of one's own (a spectator's session has no rating to switch)."""
        found = self.query(RateMyPlayBox)
        if found:  # (none while the dialog is closing)
            found.first().show(self.app.session.rated)
        self.refresh_bindings()

    def _show_seat_offer(self, lobby: Lobby | None) -> None:
        """A spectator's dialog: the _("Take a seat") button where a seat may be free, and
        what the seats are, in words."""
        if self.app.session.taking_seat:
            return  # "Taking a seat..." stays until the table's screens make way
        may_take = self._may_take_seat()
        found = self.query("#take-seat")
        if found:
            button = found.first(Button)
            button.display = may_take
            if not may_take and button.has_focus:  # Enter must not press a hidden button
                self.set_focus(None)
            elif may_take and self.focused is None:
                self.set_focus(button, scroll_visible=False)
        self.query_one("#rematch-status", Static).update(
            seat_offer_status(lobby, may_take=may_take))
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A spectator's connection may not say ready: no rematch for them, but a seat
        for the next match where one may be free."""
        if action == "rematch":
            return not self._spectating()
        if action == "take_seat":
            return self._spectating() and self._may_take_seat()
        if action == "open_room":
            return self.app.session.may_open_room
        if action == "review":
            return self.app.session.may_review
        if action == "toggle_rated":
            return self.app.session.rated is not None
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "rematch":
            self.action_rematch()
        elif event.button.id == "take-seat":
            self.action_take_seat()
        elif event.button.id == "open-room":
            self.action_open_room()
        else:
            self.app.exit()

    def action_toggle_rated(self) -> None:
        """Ask to be rated from the next match on, or not (the box shows the table's word),
        as the waiting room's u does."""
        rated = self.app.session.rated
        if rated is not None:
            self.post_message(RatedRequested(not rated))

    @on(Checkbox.Changed, "#rate-me")
    def _rated_changed(self, event: Checkbox.Changed) -> None:
        # A click or space on the box (the table's own word is not echoed back).
        event.stop()
        wish = RateMyPlayBox.wish(event, self.app.session.rated)
        if wish is not None:
            self.post_message(RatedRequested(wish))

    def action_rematch(self) -> None:
        """Ask for another match with the same table."""
        if self._spectating():
            return  # opened by the table's key as the table made this app a spectator
        waiting = rematch_status(self.app.session.is_host, self.app.session.lobby)
        self._rematch_asked = True
        self.query_one("#rematch-status", Static).update(waiting)
        self.post_message(RematchRequested())

    def action_open_room(self) -> None:
        """The host: back to the waiting room, to change the rules or the seats first."""
        self.post_message(OpenRoomRequested())

    def action_review(self) -> None:
        """A coach's review of this player's plays: only once the match is over, and only
        of the seat this app played (`TableSession.may_review`)."""
        from ono99tui.ui.screens.review import ReviewScreen

        session = self.app.session
        view = session.view
        if not session.may_review or view is None or view.seat is None:
            return
        name = _names(session, view)[view.seat]
        self.app.push_screen(ReviewScreen(session.story.plays.decisions(), name,
                                          closing_with=self.dismiss))

    def action_plots(self) -> None:
        """The last round's total after each play and the evening's ratings, as plots."""
        open_plots(self, evening=True)

    def action_take_seat(self) -> None:
        """A spectator: join the table again asking for a seat for the next match."""
        if not self._may_take_seat():
            return
        self.query_one("#rematch-status", Static).update(_("Taking a seat..."))
        found = self.query("#take-seat")
        if found:
            found.first(Button).disabled = True
        self.post_message(TakeSeatRequested())


class StandingsScreen(_Dialog):
    """Matches won per player at this table, across rematches (the table keeps the count)."""

    CSS_PATH = "results.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,space,w", "dismiss", _("Close"))]

    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)

    def compose(self) -> ComposeResult:
        session = self.app.session
        view = session.view
        won = _matches_won(session, view.seats) if view is not None else None
        with Vertical(classes="results"):
            yield Static(_("Matches won at this table"), classes="results-title", markup=False)
            if view is None or won is None:
                text = _("No match has ended at this table yet.")
            else:
                text = wins_table(_names(session, view), won,
                                  _matches_played(session, view.seats))
            yield Static(text, id="wins", classes="results-table", markup=False)
            yield Button(_("Close (Esc)"), variant="primary", id="close")

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        await self.action_dismiss()
