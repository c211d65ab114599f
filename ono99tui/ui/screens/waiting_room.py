"""The waiting room: seats filling live, ready marks, bots, the table's rules, the start.

Everyone sees the seats and the rules; only the host may add or remove bots, change the
rules and start. The screen follows the app's `lobby` reactive (the latest `Lobby`
message) and its `table_rules` (the lobby's rules, decoded by the app), and turns the
player's keys into request messages (`ReadyRequested`, `AddBotRequested`,
`StartRequested`...) that the app sends to the table: it never touches the connection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.errors import NoWidget
from textual.widgets import Checkbox, DataTable, Footer, Input, Label, Select, Static

from netproto.wire.messages import Lobby, SeatInfo, SeatKind
from ono99tui.bots import BOT_CHOICES
from ono99tui.client.dealing import may_deal, players_here, seats_left_empty
from ono99tui.client.free_seats import free_seats_text, seats_free
from ono99tui.client.names import is_named_you
from ono99tui.client.options import options_from_wire
from ono99tui.client.story import SaidItem
from ono99tui.game import ONO99_MODES, PRESET_NAMES, SCORING_MODES, Rules, Scoring
from ono99tui.i18n import N_, _, ngettext
from ono99tui.ui.glyphs import Glyphs, current_glyphs
from ono99tui.ui.requests import (
    AddBotRequested,
    LeaveRequested,
    OptionsChangeRequested,
    RatedRequested,
    ReadyRequested,
    RemoveBotRequested,
    StartRequested,
    TakeSeatRequested,
)
from ono99tui.ui.screens.join_qr import JoinQrScreen
from ono99tui.ui.screens.talk_screen import TALK_BINDINGS, TalkScreen
from ono99tui.ui.session_app import SessionApp, watch_session
from ono99tui.ui.widgets.banner import ConnectionBanner
from ono99tui.ui.widgets.check_box import RateMyPlayBox, RuleCheckbox
from ono99tui.ui.widgets.log import EventLog, chat_entry
from ono99tui.web.join_code import JoinLink
from ono99tui.words.duplicate import progress_text
from ono99tui.words.rule_labels import ONO99_WORDS, RULE_SWITCHES, SCORING_WORDS, scoring_label

if TYPE_CHECKING:
    from textual import getters


DEFAULT_BOT = "normal"
# The bot levels (and the random kind) as the drop-down names them; the value stays the
# level's own name, as `--level` takes it.
BOT_LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"),
                   "random": N_("random")}
NARROW_WIDTH = 76
# Fixed, so the seat list fits beside the rules at 80 columns whatever the names: a long
# name is cut (with an ellipsis) so that what follows it, "(you)", stays whole.
PLAYER_COLUMN_WIDTH = 21
STATUS_COLUMN_WIDTH = 9
# A rating is four digits (1000 for a new player); the column is as wide as its heading,
# and takes its room, with its cell padding, from the player's column.
RATING_COLUMN_WIDTH = 6
_RATING_ROOM = RATING_COLUMN_WIDTH + 2
# Stacked (narrow), the seats have the whole width: a name and its marks in full, up to
# this (the longest name, 24, and "(you, ⚙ bot)").
WIDEST_PLAYER_COLUMN = 37
# What a row takes besides the player's column when stacked: the screen's padding and the
# table's border (4), the number column and the status column, each with its cell padding.
_ROW_BESIDE_PLAYER = 4 + (1 + 2) + (STATUS_COLUMN_WIDTH + 2) + 2


def seat_rows(lobby: Lobby, you: int | None, bot_mark: str, *, ascii_glyphs: bool = False,
              width: int = PLAYER_COLUMN_WIDTH,
              compact: bool = False) -> list[tuple[Text, Text, Text]]:
    """One (seat, player, status) row per seat of the table, empty seats included; each
    player's label fits `width` cells (`compact`: a bot marked by its glyph alone, before
    its name, where the Rating column takes room from the names)."""
    by_index = {seat.seat: seat for seat in lobby.seats}
    capacity = max(lobby.capacity, len(lobby.seats))
    rows: list[tuple[Text, Text, Text]] = []
    for index in range(capacity):
        seat = by_index.get(index)
        number = Text(str(index + 1))
        if seat is None:
            empty = _("(empty seat)")
            if cell_len(empty) > width:  # a language's longer words beside the Rating column
                empty = _("(empty)")
            rows.append((number, Text(empty, style="dim"), Text("")))
            continue
        rows.append((number, _player_label(seat, you, bot_mark, width, ascii_glyphs,
                                           compact=compact),
                     _status(seat, lobby)))
    return rows


def _player_label(seat: SeatInfo, you: int | None, bot_mark: str, width: int,
                  ascii_glyphs: bool, *, compact: bool = False) -> Text:
    extras = []
    # Compact, a bot's mark goes before its name ("⚙ Normal bot"), in the fewest cells.
    prefix = f"{bot_mark} " if compact and seat.kind == SeatKind.BOT else ""
    if seat.kind == SeatKind.BOT and not compact:
        extras.append(_("{mark} bot").format(mark=bot_mark))
    elif seat.kind == SeatKind.RESIGNED:
        extras.append(_("out, watching"))
    if seat.seat == you and not is_named_you(seat.name):
        extras.append(_("you"))
    # Two spaces: the name ends visibly where the marks begin (and the room never reads
    # "ana (you)" as the table's seat list does).
    suffix = "  ({marks})".format(marks=_(", ").join(extras)) if extras else ""
    room = max(1, width - cell_len(suffix) - cell_len(prefix))
    name = seat.name
    if cell_len(name) > room:  # the name gives way: what follows it says who is who
        ellipsis = "..." if ascii_glyphs else "\u2026"
        name = set_cell_size(name, max(1, room - cell_len(ellipsis))).rstrip() + ellipsis
    label = Text()  # plain Text: a name is never read as markup
    if prefix:
        label.append(prefix, style="dim")
    label.append(name)
    if suffix:
        label.append(suffix, style="dim")
    return label


def _status(seat: SeatInfo, lobby: Lobby) -> Text:
    if not seat.connected:
        return Text(_("away"), style="bold")
    if seat.seat == lobby.host_seat:
        # The host deals (s) and has no ready key: "not ready" would say they hold it up.
        return Text(_("host"), style="bold")
    if seat.ready:
        return Text(_("ready"), style="bold")
    return Text(_("not ready"), style="dim")


def after_a_match(lobby: Lobby) -> bool:
    """Is this the waiting room its host opened again after a match (the table has
    counted a finished match), rather than the one before the first?"""
    return lobby.phase == "waiting" and bool(lobby.results.get("matches_played"))


def standings_line(lobby: Lobby) -> str:
    """The matches each player has won at this table, for the room opened after a match:
    the table keeps counting across a change of rules ("" before any match is over)."""
    from ono99tui.ui.present import matches_won

    won = matches_won(lobby.results, len(lobby.seats))
    if won is None or not after_a_match(lobby):
        return ""
    names = _(", ").join(_("{name} {count}").format(name=seat.name, count=won[seat.seat])
                         for seat in lobby.seats if 0 <= seat.seat < len(won))
    return _("Matches won here: {names}. The count goes on whatever the rules.").format(
        names=names)


def rules_summary(rules: Rules | None) -> str:
    """The table's rules in one line, for those who may not change them."""
    if rules is None:
        return _("rules not known yet")
    parts = [_("preset {name}").format(name=rules.name), scoring_label(rules.scoring)]
    if rules.scoring.counts_points:
        parts.append(_("target {target}").format(target=rules.target))
    elif rules.scoring == Scoring.TOKENS:
        parts.append(ngettext("{count} token each", "{count} tokens each",
                              rules.tokens).format(count=rules.tokens))
    return _(", ").join(parts)


def table_deals_when(lobby: Lobby, *, ask_ready: bool = False) -> str | None:
    """How a table with no host seated deals by itself (a headless table's
    `--start-when`, in `lobby.options`), in words; None when a host starts the game.
    `ask_ready`: the reader has yet to say ready for the next game."""
    start_when = options_from_wire(lobby.options).start_when
    if lobby.host_seat is not None or start_when is None:
        return None
    taken = len(lobby.seats)
    if lobby.phase == "finished" or after_a_match(lobby):
        # A rematch (or a newcomer's first game here, or the room its operator opened
        # again after a match) also waits for everyone's ready.
        if ask_ready:
            return _("Press r when ready: the next game starts with {seats} seats, all ready "
                     "({taken} now).").format(seats=start_when, taken=taken)
        return _("The next game starts with {seats} seats, all ready ({taken} now).").format(
            seats=start_when, taken=taken)
    return _("The game starts by itself when {seats} seats are taken ({taken} now).").format(
        seats=start_when, taken=taken)


class WaitingRoomScreen(TalkScreen):
    """Seats, ready marks, bots and rules before the deal (see the module docstring)."""

    CSS_PATH = "waiting_room.tcss"
    AUTO_FOCUS = "#seats"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "toggle_ready", _("Ready")),
        # The player's own: rated or not from the next match on (the box says which, and
        # names the key: the footer has no room for one more at 80 columns).
        Binding("u", "toggle_rated", _("Rate my play"), show=False),
        # A spectator's: join again asking for a seat, where one may be free.
        Binding("t", "take_seat", _("Take a seat")),
        Binding("b", "add_bot", _("Add bot")),
        Binding("x", "remove_bot", _("Remove bot")),
        Binding("s", "start", _("Start")),
        Binding("o", "focus_rules", _("Rules")),
        # The host's, with a web door: the one-step join address as a QR code.
        Binding("j", "show_join", _("Phone QR")),
        Binding("escape", "focus_seats", _("Seats"), show=False),
        Binding("l", "leave", _("Leave")),
        *TALK_BINDINGS,  # table talk
        Binding("q", "app.quit", _("Quit")),
    ]

    def __init__(self, invite: str = "", join: JoinLink | None = None) -> None:
        """`invite`: a line telling others how to join (the host's app shows it); `join`:
        the web door's join address, which `j` shows as a QR code (the host's app, with a
        web door)."""
        super().__init__()
        self.invite = invite
        self.join = join
        self.lobby: Lobby | None = None
        # Whether the bot level select has been set from the table's (see _show_bot_level).
        self._bot_level_shown = False
        # The player column's width, as the seat table was last laid out.
        self._player_width = PLAYER_COLUMN_WIDTH
        # Whether the seats have their Rating column (a table that rates its players).
        self._rating_column = False

    # --- layout -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ConnectionBanner()
        with Vertical(id="waiting-room"):
            yield Static("", id="room-title")
            if self.invite:
                yield Static(Text(self.invite), id="invite")
            with Horizontal(id="room-body"):
                with Vertical(id="seats-panel"):
                    yield DataTable(id="seats", cursor_type="row", show_header=False)
                    # Shown at a table that rates its players, to a seated player.
                    yield RateMyPlayBox()
                    # After a match: the evening's standings, which a change of rules keeps.
                    yield Static("", id="standings")
                    yield Static("", id="spectators")
                    # Table talk before the deal (c opens the prompt).
                    chat = EventLog(id="room-chat")
                    chat.border_title = _("Chat")
                    yield chat
                with VerticalScroll(id="rules-panel"):
                    yield Static("", id="rules-summary")
                    yield from self._option_fields()
            yield Static("", id="room-status")
        yield Footer()

    def _option_fields(self) -> ComposeResult:
        with Horizontal(classes="option-row"):
            yield Label(_("Preset"), classes="option-label")
            yield Select([(name, name) for name in PRESET_NAMES], allow_blank=False,
                         id="opt-preset", compact=True)
        with Horizontal(classes="option-row"):
            yield Label(_("Scoring"), classes="option-label")
            yield Select([(_(SCORING_WORDS[mode].label), mode) for mode in SCORING_MODES],
                         allow_blank=False, id="opt-scoring", compact=True)
        # Each shown only under the scoring that uses it (`_show_options`, RULES.md §3):
        # the target with points scoring, the tokens with tokens scoring.
        with Horizontal(classes="option-row", id="row-target"):
            yield Label(_("Target"), classes="option-label")
            yield Input(type="integer", id="opt-target", compact=True, max_length=6)
        with Horizontal(classes="option-row", id="row-tokens"):
            yield Label(_("Tokens"), classes="option-label")
            yield Input(type="integer", id="opt-tokens", compact=True, max_length=3)
        with Horizontal(classes="option-row"):
            # Seconds for each move before a stand-in plays the turn; empty: no clock.
            yield Label(_("Turn secs"), classes="option-label")
            # valid_empty: empty is "off", not an error (it was tinted red as one).
            yield Input(type="integer", id="opt-turn_seconds", compact=True, max_length=5,
                        placeholder=_("off"), valid_empty=True)
        with Horizontal(classes="option-row"):
            yield Label(_("ONO 99 card"), classes="option-label")
            yield Select([(_(ONO99_WORDS[mode].label), mode) for mode in ONO99_MODES],
                         allow_blank=False, id="opt-ono99_card", compact=True)
        for switch in RULE_SWITCHES:
            yield RuleCheckbox(_(switch.label), id=f"opt-{switch.option}", compact=True)
        # A table setting, not a rule: may spectators talk?
        yield RuleCheckbox(_("Spectators chat"), id="spectator-chat", compact=True, value=True)
        # Not a rule: may players' apps show hints (lobby.options.hints)?
        yield RuleCheckbox(_("Hints allowed (h)"), id="table-hints", compact=True)
        # Not a rule: deal duplicate sets (lobby.options.duplicate, docs/DUPLICATE.md)?
        yield RuleCheckbox(_("Duplicate sets"), id="table-duplicate", compact=True)
        with Horizontal(classes="option-row"):
            yield Label(_("Bot level"), classes="option-label")
            yield Select([(_(BOT_LEVEL_WORDS.get(name, name)), name) for name in BOT_CHOICES],
                         allow_blank=False,
                         value=DEFAULT_BOT if DEFAULT_BOT in BOT_CHOICES else BOT_CHOICES[0],
                         id="bot-kind", compact=True)

    def on_mount(self) -> None:
        if self not in self.app.screen_stack:
            # Closed before it was built (the next match dealt just as the room opened
            # again after a match): its widgets may never come, nor be needed.
            return
        if not self.query("#seats"):
            # Mounted before its widgets (pushed while the app was busy with another
            # screen): follow the table once they are there.
            self.call_after_refresh(self.on_mount)
            return
        self._add_seat_columns(PLAYER_COLUMN_WIDTH)
        self.watch(self.app, "glyphs", self._glyphs_changed, init=True)
        # The session keeps the table's lobby current; follow it, and the talk heard.
        watch_session(self, lambda session: session.lobby, self._lobby_changed)
        self.app.talk_heard.subscribe(self, self._heard, immediate=True)

    def _glyphs_changed(self, glyphs: Glyphs) -> None:
        # ASCII mode: no box drawing in borders, no triangles on the drop-downs.
        self.set_class(glyphs.ascii, "-ascii")
        for arrow in self.query("SelectCurrent .down-arrow").results(Static):
            arrow.update("v" if glyphs.ascii else "▼")
        for arrow in self.query("SelectCurrent .up-arrow").results(Static):
            arrow.update("^" if glyphs.ascii else "▲")
        if self.lobby is not None:
            self.show_lobby(self.lobby)

    def _add_seat_columns(self, player_width: int, *, rating: bool = False) -> None:
        seats = self.query_one("#seats", DataTable)
        seats.add_column("#", key="number", width=1)
        seats.add_column(_("Player"), key="player", width=player_width)
        seats.add_column(_("Status"), key="status", width=STATUS_COLUMN_WIDTH)
        if rating:
            # TRANSLATORS: the waiting room's column of each player's rating (a number).
            seats.add_column(_("Rating"), key="rating", width=RATING_COLUMN_WIDTH)
        self._player_width = player_width
        self._rating_column = rating

    def _player_column_width(self, rated: bool = False) -> int:
        """Side by side with the rules the seats have a fixed width; stacked, the width of
        the screen (so a name is cut only where it must be). `rated`: the Rating column
        takes its room from the player's."""
        room = _RATING_ROOM if rated else 0
        width = self.size.width
        if width >= NARROW_WIDTH or width <= 0:
            return PLAYER_COLUMN_WIDTH - room
        return max(PLAYER_COLUMN_WIDTH - room,
                   min(WIDEST_PLAYER_COLUMN, width - _ROW_BESIDE_PLAYER - room))

    def on_resize(self, event: events.Resize) -> None:
        """Below 76 columns the seats and the rules stack instead of sitting side by side."""
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")
        if (self.lobby is not None
                and self._player_column_width(self._rating_column) != self._player_width):
            self._show_seats(self.lobby, current_glyphs(self).bot)

    def _lobby_changed(self, lobby: Lobby | None) -> None:
        if lobby is None:
            self._set_editable(False)
            self.set_status(_("Waiting for the table..."))
        else:
            self.show_lobby(lobby)

    # --- showing the table ------------------------------------------------------------------

    @property
    def is_host(self) -> bool:
        """Whether this player may change the table (the lobby says who the host is)."""
        lobby = self.lobby
        return lobby is not None and lobby.you is not None and lobby.you == lobby.host_seat

    @property
    def my_seat_number(self) -> int | None:
        """This player's seat (None for a spectator or before the table answered)."""
        if self.lobby is not None and self.lobby.you is not None:
            return self.lobby.you
        welcome = self.app.session.welcome
        return welcome.seat if welcome is not None else None

    @property
    def my_seat(self) -> SeatInfo | None:
        """This player's seat in the latest lobby (None for a spectator)."""
        number = self.my_seat_number
        if self.lobby is None or number is None:
            return None
        return next((s for s in self.lobby.seats if s.seat == number), None)

    def _table_name(self) -> str:
        welcome = self.app.session.welcome
        name = welcome.table.get("name") if welcome is not None else None
        return name if isinstance(name, str) else ""

    def show_lobby(self, lobby: Lobby) -> None:
        """Show a new state of the waiting room (called for every `lobby` message)."""
        self.lobby = lobby
        glyphs = current_glyphs(self)
        name = self._table_name()
        role = (_("host") if self.is_host
                else _("watching") if self.my_seat_number is None else _("player"))
        title = (_("Waiting room: {table}  ({role})").format(table=name, role=role) if name
                 else _("Waiting room  ({role})").format(role=role))
        self.query_one("#room-title", Static).update(Text(title))
        self._show_seats(lobby, glyphs.bot)
        standings = standings_line(lobby)
        found = self.query_one("#standings", Static)
        found.display = bool(standings)
        found.update(Text(standings))  # plain Text: it holds players' names
        self.query_one("#spectators", Static).update(
            ngettext("{count} watching", "{count} watching", lobby.spectators).format(
                count=lobby.spectators) if lobby.spectators else ""
        )
        options = self.app.session.options
        rules = options.rules
        summary = rules_summary(rules)
        if options.duplicate_set is not None:  # the set's progress: "deal 2 of 4 played"
            summary += "\n" + progress_text(options.duplicate_set, playing=False)
        elif options.duplicate:
            summary += "\n" + _("Duplicate sets: each deal once per seat rotation.")
        self.query_one("#rules-summary", Static).update(Text(summary))
        if rules is not None:
            self._show_options(rules)
        self._show_turn_time(options.turn_seconds)
        self._show_spectator_chat(options.spectator_chat)
        self._show_hints(options.hints)
        self._show_box("#table-duplicate", options.duplicate)
        self._show_bot_level(options.bot_level)
        self._show_rated()
        self._set_editable(self.is_host)
        self.set_status(self._status_line(lobby))
        self.refresh_bindings()

    def _show_rated(self) -> None:
        # The player's own switch: only where the table rates, for a seat of one's own.
        self.query_one(RateMyPlayBox).show(self.app.session.rated)

    def _show_bot_level(self, level: object) -> None:
        # The bots added here start at the table's own level (`ono99 host --level hard`),
        # once: after that the select is the host's to change.
        if self._bot_level_shown or not isinstance(level, str) or level not in BOT_CHOICES:
            return
        self._bot_level_shown = True
        self.query_one("#bot-kind", Select).value = level

    def _show_seats(self, lobby: Lobby, bot_mark: str) -> None:
        table = self.query_one("#seats", DataTable)
        rated = any(seat.rating is not None for seat in lobby.seats)
        dash = "-" if current_glyphs(self).ascii else "\u2013"
        width = self._player_column_width(rated)
        rows = seat_rows(lobby, self.my_seat_number, bot_mark,
                         ascii_glyphs=current_glyphs(self).ascii, width=width, compact=rated)
        cursor = table.cursor_row
        if width != self._player_width or rated != self._rating_column:
            # The terminal's width changed the layout, or the table's ratings came (or went).
            table.clear(columns=True)
            self._add_seat_columns(width, rating=rated)
        table.clear()
        by_index = {seat.seat: seat for seat in lobby.seats}
        for index, row in enumerate(rows):
            cells: list[Text] = list(row)
            if rated:
                seat = by_index.get(index)
                rating = seat.rating if seat is not None else None
                if seat is not None and seat.unrated:  # asked not to be rated
                    cells.append(Text(dash, style="dim"))
                else:
                    cells.append(Text("" if rating is None else str(rating)))
            table.add_row(*cells, key=str(index))
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1), animate=False)

    def _show_options(self, rules: Rules) -> None:
        # Values set from the table's word must not echo back as the host's own changes.
        choices: dict[str, str] = {
            "opt-scoring": rules.scoring,
            "opt-ono99_card": rules.ono99_card,
        }
        if rules.name in PRESET_NAMES:  # a table's own name for its rules has no entry
            choices["opt-preset"] = rules.name
        for widget_id, choice in choices.items():
            select = self.query_one(f"#{widget_id}", Select)
            if select.value != choice:
                with select.prevent(Select.Changed):
                    select.value = choice
        # A single round has neither a target nor tokens: only what the scoring uses shows.
        self.query_one("#row-target").display = rules.scoring.counts_points
        self.query_one("#row-tokens").display = rules.scoring == Scoring.TOKENS
        for option in ("target", "tokens"):
            field = self.query_one(f"#opt-{option}", Input)
            number = getattr(rules, option)
            if not field.has_focus and field.value != str(number):
                with field.prevent(Input.Changed):
                    field.value = str(number)
        for switch in RULE_SWITCHES:
            box = self.query_one(f"#opt-{switch.option}", Checkbox)
            value = bool(getattr(rules, switch.option))
            if box.value != value:
                with box.prevent(Checkbox.Changed):
                    box.value = value

    def _show_turn_time(self, seconds: object) -> None:
        field = self.query_one("#opt-turn_seconds", Input)
        shown = f"{seconds:g}" if isinstance(seconds, int | float) and seconds else ""
        if not field.has_focus and field.value != shown:
            with field.prevent(Input.Changed):
                field.value = shown

    def _show_spectator_chat(self, allowed: bool) -> None:
        self._show_box("#spectator-chat", allowed)

    def _show_hints(self, allowed: bool) -> None:
        self._show_box("#table-hints", allowed)

    def _show_box(self, selector: str, allowed: bool) -> None:
        box = self.query_one(selector, Checkbox)
        if box.value != allowed:
            with box.prevent(Checkbox.Changed):
                box.value = allowed

    def _heard(self, said: SaidItem) -> None:
        """A line of talk (`app.talk_heard`): into the talk pane."""
        if self.is_attached:
            self.query_one("#room-chat", EventLog).add(chat_entry(said.name, said.text))

    def talk_in_sight(self) -> bool:
        """False when the talk pane has no room on this terminal, so nobody sees it there."""
        log = self.query_one("#room-chat", EventLog)
        # On a short terminal the pane is laid out below the seats and clipped away:
        # only the part inside its clip is in sight.
        try:
            clip = self.find_widget(log).clip
        except NoWidget:
            return False
        return log.scrollable_content_region.intersection(clip).height > 0

    def _set_editable(self, editable: bool) -> None:
        for widget in self.query("#rules-panel Select, #rules-panel Input, #rules-panel Checkbox"):
            widget.disabled = not editable

    def _status_line(self, lobby: Lobby) -> str:
        # The host starts the game: only the others' readiness matters (of those here: a
        # seat whose player has gone is freed at the deal).
        waiting_for = [seat.name for seat in lobby.seats
                       if not seat.ready and seat.seat != lobby.host_seat and seat.connected]
        mine = self.my_seat
        dealing = table_deals_when(lobby, ask_ready=mine is not None and not mine.ready)
        if self.my_seat_number is None:
            free = free_seats_text(lobby)
            if seats_free(lobby) and self.app.session.may_take_seat:
                free = (_("{free} (t takes one)") if seats_free(lobby) > 1
                        else _("{free} (t takes it)")).format(free=free)
            return _("Watching: {free}. {dealing}").format(
                free=free, dealing=dealing or _("The game starts when the host says."))
        if dealing is not None and not self.is_host:
            # A headless table: nobody seated runs it; it deals by itself.
            return dealing
        next_match = after_a_match(lobby)
        if self.is_host:
            return self._host_status(lobby, waiting_for, next_match=next_match)
        if mine and mine.ready:
            return (_("You are ready. The host starts the next match.") if next_match
                    else _("You are ready. The host starts the game."))
        return (_("Press r when you are ready. The host starts the next match.") if next_match
                else _("Press r when you are ready. The host starts the game."))

    @staticmethod
    def _host_status(lobby: Lobby, waiting_for: list[str], *, next_match: bool) -> str:
        """The host's line: whether s deals now, and to whom (`client/dealing.py`)."""
        if not may_deal(lobby):
            # Alone (or with players who have gone): the table would refuse the deal.
            return _("Waiting for someone to play against: b adds a bot, then s starts.")
        if waiting_for:
            names = _(", ").join(waiting_for)
            return (_("s starts the next match (not ready yet: {names}).") if next_match
                    else _("s starts the game (not ready yet: {names}).")).format(names=names)
        empty = seats_left_empty(lobby)
        if empty:
            # "Everyone is ready" said over empty seats read as if the table were full.
            count = players_here(lobby)
            return (ngettext("s starts the next match for the {count} here, all ready; "
                             "{empty} seat stays empty.",
                             "s starts the next match for the {count} here, all ready; "
                             "{empty} seats stay empty.", empty) if next_match
                    else ngettext("s starts the game for the {count} here, all ready; "
                                  "{empty} seat stays empty.",
                                  "s starts the game for the {count} here, all ready; "
                                  "{empty} seats stay empty.", empty)).format(
                count=count, empty=empty)
        return (_("s starts the next match; everyone is ready.") if next_match
                else _("s starts the game; everyone is ready."))

    def set_status(self, text: str) -> None:
        """The one-line status under the panels."""
        self.query_one("#room-status", Static).update(Text(text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Host-only keys are hidden from others; ready is for the other seated players."""
        if action in {"add_bot", "remove_bot", "start"}:
            return self.is_host
        if action == "toggle_ready":
            # The host says "go" with s; being "ready" means nothing for them.
            return self.my_seat_number is not None and not self.is_host
        if action == "toggle_rated":
            return self.app.session.rated is not None
        if action == "show_join":
            return self.join is not None
        if action == "take_seat":
            return self.my_seat_number is None and self.app.session.may_take_seat
        if action == "leave":
            # Only a player who came from the lobby has somewhere to go back to.
            return self.app.can_leave_table(self)
        if action in ("chat", "emote"):
            return self.app.session.may_chat
        return True

    # --- requests to the table (the app sends them) ---------------------------------------

    def action_toggle_ready(self) -> None:
        """Say you are (or are no longer) ready."""
        mine = self.my_seat
        self.post_message(ReadyRequested(not (mine is not None and mine.ready)))

    def action_toggle_rated(self) -> None:
        """Ask to be rated from the next match on, or not (the box shows the table's word)."""
        rated = self.app.session.rated
        if rated is not None:
            self.post_message(RatedRequested(not rated))

    @on(Checkbox.Changed, "#rate-me")
    def _rated_changed(self, event: Checkbox.Changed) -> None:
        # A click or space on the box; the table's own word (set in `_show_rated`) is
        # prevented from echoing back.
        wish = RateMyPlayBox.wish(event, self.app.session.rated)
        if wish is not None:
            self.post_message(RatedRequested(wish))

    def action_take_seat(self) -> None:
        """A spectator: join the table again asking for a seat (the app does it: see
        `TableSession.take_seat`); this room makes way for the new connection's."""
        if self.my_seat_number is None and self.app.session.may_take_seat:
            self.set_status(_("Taking a seat..."))
            self.post_message(TakeSeatRequested())

    def action_add_bot(self) -> None:
        """Host: seat a bot of the chosen kind."""
        kind = self.query_one("#bot-kind", Select).value
        self.post_message(AddBotRequested(kind if isinstance(kind, str) else DEFAULT_BOT))

    def action_remove_bot(self) -> None:
        """Host: remove the bot in the highlighted seat."""
        seat = self._highlighted_seat()
        if seat is None or seat.kind != SeatKind.BOT:
            self.set_status(_("Highlight a bot's seat to remove it."))
            return
        self.post_message(RemoveBotRequested(seat.seat))

    def action_start(self) -> None:
        """Host: deal the first hand."""
        self.post_message(StartRequested())

    def action_focus_rules(self) -> None:
        """Move to the rules (to read them, or for the host to change them)."""
        self.query_one("#rules-panel").focus()
        fields = [
            w
            for w in self.query("#rules-panel Select, #rules-panel Input, #rules-panel Checkbox")
            if w.focusable
        ]
        if fields:
            fields[0].focus()

    def action_show_join(self) -> None:
        """Show the web door's join address and its QR code."""
        if self.join is not None:
            self.app.push_screen(JoinQrScreen(self.join))

    def action_leave(self) -> None:
        """Give up the seat (or stop watching) and go back to the lobby to pick another table
        (the app does it, on `LeaveRequested`)."""
        self.post_message(LeaveRequested())

    def action_focus_seats(self) -> None:
        """Back to the seats."""
        self.query_one("#seats", DataTable).focus()

    def _highlighted_seat(self) -> SeatInfo | None:
        if self.lobby is None:
            return None
        row = self.query_one("#seats", DataTable).cursor_row
        return next((seat for seat in self.lobby.seats if seat.seat == row), None)

    # --- the host changes the rules -------------------------------------------------------
    #
    # Only a change the host made counts. A drop-down or box reports its first value once
    # it is mounted, after `show_lobby` may already have set it to the table's: a room
    # opened again after a match (where the host's rights are known at once) sent the
    # defaults back to the table, and a 1980 table was dealt the 2022 rules. So an event
    # whose value the widget no longer holds, or that the table has already, sends nothing.

    def _table_has(self, option: str, value: object) -> bool:
        """Does the table already have `value` for the rule `option` (or "name": preset)?"""
        rules = self.app.session.options.rules
        return rules is not None and getattr(rules, option, None) == value

    @on(Select.Changed, "#opt-preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        if (self.is_host and isinstance(event.value, str) and event.value == event.select.value
                and not self._table_has("name", event.value)):
            self.post_message(OptionsChangeRequested(_("Could not change the preset"),
                                                     preset=event.value))

    @on(Select.Changed, "#opt-scoring, #opt-ono99_card")
    def _choice_changed(self, event: Select.Changed) -> None:
        if (self.is_host and isinstance(event.value, str) and event.select.id
                and event.value == event.select.value):
            option = event.select.id.removeprefix("opt-")
            # str(): the mode's plain string (the Select holds the StrEnum member).
            if not self._table_has(option, str(event.value)):
                self._set_rule(option, str(event.value))

    @on(Checkbox.Changed, "#table-hints")
    def _hints_changed(self, event: Checkbox.Changed) -> None:
        lobby = self.lobby
        if (self.is_host and lobby is not None and event.value == event.checkbox.value
                and (lobby.options.get("hints") is True) != event.value):
            self.post_message(OptionsChangeRequested(_("Could not change hints"),
                                                     table={"hints": event.value}))

    @on(Checkbox.Changed, "#table-duplicate")
    def _duplicate_changed(self, event: Checkbox.Changed) -> None:
        lobby = self.lobby
        if (self.is_host and lobby is not None and event.value == event.checkbox.value
                and (lobby.options.get("duplicate") is True) != event.value):
            self.post_message(OptionsChangeRequested(_("Could not change duplicate sets"),
                                                     table={"duplicate": event.value}))

    @on(Checkbox.Changed)
    def _switch_changed(self, event: Checkbox.Changed) -> None:
        box = event.checkbox
        if (self.is_host and box.id and box.id.startswith("opt-")
                and event.value == box.value):
            option = box.id.removeprefix("opt-")
            if not self._table_has(option, event.value):
                self._set_rule(option, event.value)

    @on(Checkbox.Changed, "#spectator-chat")
    def _spectator_chat_changed(self, event: Checkbox.Changed) -> None:
        lobby = self.lobby
        if (self.is_host and lobby is not None and event.value == event.checkbox.value
                and (lobby.options.get("spectator_chat", True) is not False) != event.value):
            self.post_message(OptionsChangeRequested(
                _("Could not change spectators' chat"), table={"spectator_chat": event.value}))

    @on(Input.Submitted, "#opt-target, #opt-tokens")
    @on(Input.Blurred, "#opt-target, #opt-tokens")
    def _number_entered(self, event: Input.Submitted | Input.Blurred) -> None:
        field = event.input
        if not self.is_host or not field.id or not field.value.strip():
            return
        option = field.id.removeprefix("opt-")
        rules = self.app.session.options.rules
        current = getattr(rules, option) if rules is not None else None
        try:
            value = int(field.value)
        except ValueError:
            self.set_status(_("{option}: type a whole number").format(
                option=_("Target") if option == "target" else _("Tokens")))
            return
        if value != current:
            self._set_rule(option, value)

    @on(Input.Submitted, "#opt-turn_seconds")
    @on(Input.Blurred, "#opt-turn_seconds")
    def _turn_time_entered(self, event: Input.Submitted | Input.Blurred) -> None:
        if not self.is_host or self.lobby is None:
            return
        text = event.input.value.strip()
        try:
            seconds = int(text) if text else 0
        except ValueError:
            self.set_status(_("turn time: type whole seconds, or leave it empty for no clock"))
            return
        wanted = float(seconds) if seconds > 0 else None  # 0 or empty: no clock
        if wanted != self.app.session.options.turn_seconds:
            self.post_message(OptionsChangeRequested(
                _("Could not change the turn time"), table={"turn_seconds": wanted}))

    def _set_rule(self, option: str, value: object) -> None:
        self.post_message(OptionsChangeRequested(_("Could not change the rules"),
                                                 rules={option: value}))
