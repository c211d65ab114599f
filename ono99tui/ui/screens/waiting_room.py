"""The waiting room: seats filling live, ready marks, bots, the table's rules, the start.

Everyone sees the seats and the rules; only the host may add or remove bots, change the
rules and start. The screen follows the app's `lobby` reactive (the latest `Lobby`
message) and turns the player's keys into requests on the app's `TableClient`; it never
reads from the client: the app's connection worker does, and passes lobbies down.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Checkbox, DataTable, Footer, Input, Label, Select, Static

from netproto.client import ClientError, TableClient
from netproto.messages import Lobby, SeatInfo
from ono99tui.bots import BOT_NAMES
from ono99tui.game import PRESET_NAMES, SCORING_MODES
from ono99tui.game.rules import ONO99_MODES
from ono99tui.ui.glyphs import Glyphs, current_glyphs
from ono99tui.ui.widgets.banner import ConnectionBanner

SCORING_LABELS: dict[str, str] = {
    "single": "single round",
    "tokens": "tokens",
    "points-elimination": "points, elimination",
    "points-lowest": "points, lowest wins",
}
ONO99_LABELS: dict[str, str] = {
    "dead": "dead, never played",
    "tens": "on 0, 10, 20...",
    "set99": "sets total to 99",
}
# Rule options shown as check boxes: (option, label).
RULE_SWITCHES: tuple[tuple[str, str], ...] = (
    ("four_ono99_swap", "Swap four ONO 99"),
    ("negative_totals", "Negative totals"),
    ("late_draw_penalty", "Late-draw penalty"),
)
DEFAULT_BOT = "greedy"
NARROW_WIDTH = 76
# Fixed, so the seat list fits beside the rules at 80 columns whatever the names.
PLAYER_COLUMN_WIDTH = 23


class RuleCheckbox(Checkbox):
    """A check box whose mark shows its state in characters, not only in colour."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802 (Textual's name)
        return "x" if self.value else " "

    @property
    def BUTTON_LEFT(self) -> str:  # type: ignore[override]  # noqa: N802
        return "[" if current_glyphs(self).ascii else "▐"

    @property
    def BUTTON_RIGHT(self) -> str:  # type: ignore[override]  # noqa: N802
        return "]" if current_glyphs(self).ascii else "▌"


def seat_rows(lobby: Lobby, you: int | None, bot_mark: str) -> list[tuple[Text, Text, Text]]:
    """One (seat, player, status) row per seat of the table, empty seats included."""
    by_index = {seat.seat: seat for seat in lobby.seats}
    capacity = max(lobby.capacity, len(lobby.seats))
    rows: list[tuple[Text, Text, Text]] = []
    for index in range(capacity):
        seat = by_index.get(index)
        number = Text(str(index + 1))
        if seat is None:
            rows.append((number, Text("(empty seat)", style="dim"), Text("")))
            continue
        rows.append((number, _player_label(seat, lobby, you, bot_mark), _status(seat)))
    return rows


def _player_label(seat: SeatInfo, lobby: Lobby, you: int | None, bot_mark: str) -> Text:
    label = Text(seat.name)  # plain Text: a name is never read as markup
    extras = []
    if seat.kind == "bot":
        extras.append(f"{bot_mark} bot")
    elif seat.kind == "resigned":
        extras.append("out of the match: watching")
    if seat.seat == you and seat.name.strip().casefold() != "you":
        extras.append("you")
    if seat.seat == lobby.host_seat:
        extras.append("host")
    if extras:
        label.append(f"  ({', '.join(extras)})", style="dim")
    return label


def _status(seat: SeatInfo) -> Text:
    if not seat.connected:
        return Text("away", style="bold")
    if seat.ready:
        return Text("ready", style="bold")
    return Text("not ready", style="dim")


def rules_summary(options: dict[str, Any]) -> str:
    """The table's rules in one line, for those who may not change them."""
    rules = options.get("rules", {})
    preset_name = options.get("preset", rules.get("name", "?"))
    scoring = rules.get("scoring", "single")
    parts = [f"preset {preset_name}", SCORING_LABELS.get(scoring, str(scoring))]
    if scoring.startswith("points"):
        parts.append(f"target {rules.get('target', '?')}")
    elif scoring == "tokens":
        parts.append(f"{rules.get('tokens', '?')} tokens each")
    return ", ".join(parts)


class WaitingRoomScreen(Screen[None]):
    """Seats, ready marks, bots and rules before the deal (see the module docstring)."""

    CSS_PATH = "waiting_room.tcss"
    AUTO_FOCUS = "#seats"

    BINDINGS = [
        Binding("r", "toggle_ready", "Ready"),
        Binding("b", "add_bot", "Add bot"),
        Binding("x", "remove_bot", "Remove bot"),
        Binding("s", "start", "Start"),
        Binding("o", "focus_rules", "Rules"),
        Binding("escape", "focus_seats", "Seats", show=False),
        Binding("l", "leave", "Leave"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, invite: str = "") -> None:
        """`invite`: a line telling others how to join (the host's app shows it)."""
        super().__init__()
        self.invite = invite
        self.lobby: Lobby | None = None

    @property
    def client(self) -> TableClient | None:
        """The app's connection to the table (None while there is none)."""
        return getattr(self.app, "client", None)

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
                    yield Static("", id="spectators")
                with VerticalScroll(id="rules-panel"):
                    yield Static("", id="rules-summary")
                    yield from self._option_fields()
            yield Static("", id="room-status")
        yield Footer()

    def _option_fields(self) -> ComposeResult:
        with Horizontal(classes="option-row"):
            yield Label("Preset", classes="option-label")
            yield Select([(name, name) for name in PRESET_NAMES], allow_blank=False,
                         id="opt-preset", compact=True)
        with Horizontal(classes="option-row"):
            yield Label("Scoring", classes="option-label")
            yield Select([(SCORING_LABELS[mode], mode) for mode in SCORING_MODES],
                         allow_blank=False, id="opt-scoring", compact=True)
        with Horizontal(classes="option-row"):
            yield Label("Target", classes="option-label")
            yield Input(type="integer", id="opt-target", compact=True, max_length=6)
        with Horizontal(classes="option-row"):
            yield Label("Tokens", classes="option-label")
            yield Input(type="integer", id="opt-tokens", compact=True, max_length=3)
        with Horizontal(classes="option-row"):
            yield Label("ONO 99 card", classes="option-label")
            yield Select([(ONO99_LABELS[mode], mode) for mode in ONO99_MODES],
                         allow_blank=False, id="opt-ono99_card", compact=True)
        for option, label in RULE_SWITCHES:
            yield RuleCheckbox(label, id=f"opt-{option}", compact=True)
        with Horizontal(classes="option-row"):
            yield Label("Bot to add", classes="option-label")
            yield Select([(name, name) for name in BOT_NAMES], allow_blank=False,
                         value=DEFAULT_BOT if DEFAULT_BOT in BOT_NAMES else BOT_NAMES[0],
                         id="bot-kind", compact=True)

    def on_mount(self) -> None:
        seats = self.query_one("#seats", DataTable)
        seats.add_column("#", key="number", width=2)
        seats.add_column("Player", key="player", width=PLAYER_COLUMN_WIDTH)
        seats.add_column("Status", key="status", width=9)
        if hasattr(self.app, "glyphs"):
            self.watch(self.app, "glyphs", self._glyphs_changed, init=True)
        # The app's connection worker keeps `app.lobby` current; follow it.
        self.watch(self.app, "lobby", self._lobby_changed, init=True)

    def _glyphs_changed(self, glyphs: Glyphs) -> None:
        # ASCII mode: no box drawing in borders, no triangles on the drop-downs.
        self.set_class(glyphs.ascii, "-ascii")
        for arrow in self.query("SelectCurrent .down-arrow").results(Static):
            arrow.update("v" if glyphs.ascii else "▼")
        for arrow in self.query("SelectCurrent .up-arrow").results(Static):
            arrow.update("^" if glyphs.ascii else "▲")
        if self.lobby is not None:
            self.show_lobby(self.lobby)

    def on_resize(self, event: events.Resize) -> None:
        """Below 76 columns the seats and the rules stack instead of sitting side by side."""
        self.set_class(event.size.width < NARROW_WIDTH, "-narrow")

    def _lobby_changed(self, lobby: Lobby | None) -> None:
        if lobby is None:
            self._set_editable(False)
            self.set_status("Waiting for the table...")
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
        return self.client.seat if self.client is not None else None

    @property
    def my_seat(self) -> SeatInfo | None:
        """This player's seat in the latest lobby (None for a spectator)."""
        number = self.my_seat_number
        if self.lobby is None or number is None:
            return None
        return next((s for s in self.lobby.seats if s.seat == number), None)

    def _table_name(self) -> str:
        welcome = getattr(self.app, "welcome", None)
        name = welcome.table.get("name") if welcome is not None else None
        return name if isinstance(name, str) else ""

    def show_lobby(self, lobby: Lobby) -> None:
        """Show a new state of the waiting room (called for every `lobby` message)."""
        self.lobby = lobby
        glyphs = current_glyphs(self)
        name = self._table_name()
        role = "host" if self.is_host else ("watching" if self.my_seat_number is None else "player")
        self.query_one("#room-title", Static).update(
            Text(f"Waiting room{': ' + name if name else ''}  ({role})")
        )
        self._show_seats(lobby, glyphs.bot)
        self.query_one("#spectators", Static).update(
            f"{lobby.spectators} watching" if lobby.spectators else ""
        )
        self.query_one("#rules-summary", Static).update(Text(rules_summary(lobby.options)))
        self._show_options(lobby.options.get("rules", {}), lobby.options.get("preset"))
        self._set_editable(self.is_host)
        self.set_status(self._status_line(lobby))
        self.refresh_bindings()

    def _show_seats(self, lobby: Lobby, bot_mark: str) -> None:
        table = self.query_one("#seats", DataTable)
        rows = seat_rows(lobby, self.my_seat_number, bot_mark)
        cursor = table.cursor_row
        table.clear()
        for index, row in enumerate(rows):
            table.add_row(*row, key=str(index))
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1), animate=False)

    def _show_options(self, rules: dict[str, Any], preset_name: object) -> None:
        # Values set from the table's word must not echo back as the host's own changes.
        values: dict[str, Any] = {
            "opt-preset": preset_name,
            "opt-scoring": rules.get("scoring"),
            "opt-ono99_card": rules.get("ono99_card"),
        }
        for widget_id, value in values.items():
            select = self.query_one(f"#{widget_id}", Select)
            if value is not None and select.value != value:
                with select.prevent(Select.Changed):
                    select.value = value
        for option in ("target", "tokens"):
            field = self.query_one(f"#opt-{option}", Input)
            value = rules.get(option)
            if value is not None and not field.has_focus and field.value != str(value):
                with field.prevent(Input.Changed):
                    field.value = str(value)
        for option, _label in RULE_SWITCHES:
            box = self.query_one(f"#opt-{option}", Checkbox)
            value = bool(rules.get(option, False))
            if box.value != value:
                with box.prevent(Checkbox.Changed):
                    box.value = value

    def _set_editable(self, editable: bool) -> None:
        for widget in self.query("#rules-panel Select, #rules-panel Input, #rules-panel Checkbox"):
            widget.disabled = not editable

    def _status_line(self, lobby: Lobby) -> str:
        taken = len(lobby.seats)
        # The host starts the game: only the others' readiness matters.
        waiting_for = [seat.name for seat in lobby.seats
                       if not seat.ready and seat.seat != lobby.host_seat]
        if self.my_seat_number is None:
            return f"Watching: {taken} of {lobby.capacity} seats taken. The game starts when the host says."
        if self.is_host:
            if taken < 2:
                return "Add a bot (b) or wait for players; s starts with two or more."
            return "s starts the game" + (
                f" (not ready yet: {', '.join(waiting_for)})." if waiting_for
                else "; everyone is ready."
            )
        mine = self.my_seat
        you = "You are ready" if mine and mine.ready else "Press r when you are ready"
        return f"{you}. The host starts the game."

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
        if action == "leave":
            return self._lobby_below() is not None
        return True

    def _lobby_below(self) -> Screen[Any] | None:
        """The lobby this room was joined from (None for the host's own table)."""
        from ono99tui.ui.screens.lobby import LobbyScreen  # the lobby imports this module

        stack = self.app.screen_stack
        if self not in stack or stack.index(self) == 0:
            return None
        below = stack[stack.index(self) - 1]
        return below if isinstance(below, LobbyScreen) else None

    # --- requests to the table ------------------------------------------------------------

    @work(group="requests", exit_on_error=False)
    async def _request(self, what: str, call: Callable[[TableClient], Awaitable[None]]) -> None:
        client = self.client
        if client is None:
            self.notify("Not connected to the table.", title=f"Could not {what}", severity="error")
            return
        try:
            await call(client)
        except ClientError as error:
            self.notify(error.reason or error.code, title=f"Could not {what}", severity="error")

    def action_toggle_ready(self) -> None:
        """Say you are (or are no longer) ready."""
        mine = self.my_seat
        ready = not (mine is not None and mine.ready)
        self._request("change ready", lambda client: client.ready(ready))

    def action_add_bot(self) -> None:
        """Host: seat a bot of the chosen kind."""
        kind = self.query_one("#bot-kind", Select).value
        bot = kind if isinstance(kind, str) else DEFAULT_BOT
        self._request("add a bot", lambda client: client.add_bot(bot))

    def action_remove_bot(self) -> None:
        """Host: remove the bot in the highlighted seat."""
        seat = self._highlighted_seat()
        if seat is None or seat.kind != "bot":
            self.set_status("Highlight a bot's seat to remove it.")
            return
        self._request("remove the bot", lambda client: client.remove_bot(seat.seat))

    def action_start(self) -> None:
        """Host: deal the first hand."""
        self._request("start", lambda client: client.start())

    def action_focus_rules(self) -> None:
        """Move to the rules (to read them, or for the host to change them)."""
        self.query_one("#rules-panel").focus()
        fields = [w for w in self.query("#rules-panel Select, #rules-panel Input, #rules-panel Checkbox")
                  if w.focusable]
        if fields:
            fields[0].focus()

    async def action_leave(self) -> None:
        """Give up the seat (or stop watching) and go back to the lobby to pick another table.

        Asks nothing: only a player who came from the lobby has `l`, and the table goes on
        without them (if they held its host rights, the next person seated gets them). The
        host of `ono99 host`, whose leaving would close the table, has no lobby to go to:
        they close it with `q`, which asks first.
        """
        lobby = self._lobby_below()
        if lobby is None:
            return
        client = self.client
        if client is not None:
            await client.close("left the table")
        # This table's state must not show in the next table's waiting room.
        self.app.lobby = None  # type: ignore[attr-defined]
        self.app.pop_screen()
        lobby.set_status("You left the table. Pick another, or type an address.")

    def action_focus_seats(self) -> None:
        """Back to the seats."""
        self.query_one("#seats", DataTable).focus()

    def _highlighted_seat(self) -> SeatInfo | None:
        if self.lobby is None:
            return None
        row = self.query_one("#seats", DataTable).cursor_row
        return next((seat for seat in self.lobby.seats if seat.seat == row), None)

    # --- the host changes the rules -------------------------------------------------------

    @on(Select.Changed, "#opt-preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        if self.is_host and isinstance(event.value, str):
            preset_name = event.value
            self._request("change the preset", lambda client: client.set_options(preset=preset_name))

    @on(Select.Changed, "#opt-scoring, #opt-ono99_card")
    def _choice_changed(self, event: Select.Changed) -> None:
        if self.is_host and isinstance(event.value, str) and event.select.id:
            self._set_rule(event.select.id.removeprefix("opt-"), event.value)

    @on(Checkbox.Changed)
    def _switch_changed(self, event: Checkbox.Changed) -> None:
        if self.is_host and event.checkbox.id and event.checkbox.id.startswith("opt-"):
            self._set_rule(event.checkbox.id.removeprefix("opt-"), event.value)

    @on(Input.Submitted, "#opt-target, #opt-tokens")
    @on(Input.Blurred, "#opt-target, #opt-tokens")
    def _number_entered(self, event: Input.Submitted | Input.Blurred) -> None:
        field = event.input
        if not self.is_host or not field.id or not field.value.strip():
            return
        option = field.id.removeprefix("opt-")
        current = (self.lobby.options.get("rules", {}) if self.lobby else {}).get(option)
        try:
            value = int(field.value)
        except ValueError:
            self.set_status(f"{option}: type a whole number")
            return
        if value != current:
            self._set_rule(option, value)

    def _set_rule(self, option: str, value: object) -> None:
        self._request(f"change {option}", lambda client: client.set_options(rules={option: value}))
