"""The end of a round and the end of a match: standings, per-round scores, rematch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static

from netproto.messages import Lobby
from ono99tui.game import PlayerView, RoundEnded
from ono99tui.ui.messages import RematchRequested
from ono99tui.ui.present import seat_name, winners_text

if TYPE_CHECKING:
    from textual import getters

    from ono99tui.ui.app import Ono99App


def _names(app: Any, view: PlayerView) -> list[str]:
    lobby = getattr(app, "lobby", None)
    seats = lobby.seats if lobby is not None else ()
    return [seat_name(seat, seats) for seat in range(view.seats)]


def rematch_status(is_host: bool, lobby: Lobby | None) -> str:
    """What a player who asked for a rematch is told while it comes."""
    start_when = lobby.options.get("start_when") if lobby is not None else None
    if is_host:
        return "Starting the rematch..."
    if lobby is not None and lobby.host_seat is None and type(start_when) is int:
        # A headless table: it deals once enough seats are taken and everyone is ready.
        return (f"Ready: the rematch starts when {start_when} seats are taken "
                "and everyone is ready...")
    return "Ready: waiting for the host to start the rematch..."


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Plain-text columns: the first left-aligned, the others right-aligned."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    lines = []
    for row in (header, *rows):
        cells = [str(row[0]).ljust(widths[0])]
        cells += [str(cell).rjust(width) for cell, width in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def round_table(view: PlayerView, names: Sequence[str], result: RoundEnded) -> str:
    """This round's points, the scores after it, and the tokens left, per seat."""
    scoring = view.rules.scoring
    if scoring == "tokens":
        header = ("Player", "Tokens")
        rows = [(names[s], str(result.tokens[s])) for s in range(len(names))]
    else:
        header = ("Player", "Round", "Score")
        rows = [(names[s], str(result.points[s]), str(result.scores[s])) for s in range(len(names))]
    return _table(header, rows)


def rounds_table(view: PlayerView, names: Sequence[str], results: Sequence[RoundEnded]) -> str:
    """One row per finished round: points scored (points modes) or tokens left (tokens)."""
    if not results:
        return ""
    tokens = view.rules.scoring == "tokens"
    header = ("Round", *names)
    rows = [
        (str(result.round_no), *(str(v) for v in (result.tokens if tokens else result.points)))
        for result in results
    ]
    if not tokens:
        rows.append(("Total", *(str(score) for score in results[-1].scores)))
    return _table(header, rows)


def standings(view: PlayerView, out_order: Sequence[int]) -> list[int]:
    """Seats from first to last place."""
    scoring = view.rules.scoring
    seats = range(view.seats)
    if scoring == "points-lowest":
        return sorted(seats, key=lambda seat: (seat not in view.winners, view.scores[seat]))
    last_out_first = list(reversed(out_order))
    rest = [seat for seat in seats if seat not in view.winners and seat not in last_out_first]
    return [*view.winners, *rest, *(s for s in last_out_first if s not in view.winners)]


class RoundEndScreen(ModalScreen[None]):
    """A round of a tokens or points match is over; Enter goes back to the table."""

    CSS_PATH = "results.tcss"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(Ono99App)
    BINDINGS = [Binding("enter,escape,space", "dismiss", "Continue")]

    def __init__(self, result: RoundEnded) -> None:
        super().__init__()
        self.result = result

    def compose(self) -> ComposeResult:
        view: PlayerView | None = getattr(self.app, "view", None)
        with Vertical(classes="results"):
            yield Static(f"Round {self.result.round_no} is over", classes="results-title")
            if view is not None:
                yield Static(round_table(view, _names(self.app, view), self.result), classes="results-table")
            yield Button("Continue (Enter)", variant="primary", id="continue")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()


class MatchEndScreen(ModalScreen[None]):
    """The match is over: who won, the standings, the rounds, and a rematch."""

    CSS_PATH = "results.tcss"
    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(Ono99App)
    BINDINGS = [
        Binding("r", "rematch", "Rematch"),
        Binding("escape", "dismiss", "Back to the table"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        view: PlayerView | None = getattr(self.app, "view", None)
        with Vertical(classes="results"):
            if view is None:
                yield Static("The match is over", classes="results-title")
            else:
                lobby = getattr(self.app, "lobby", None)
                seats = lobby.seats if lobby is not None else ()
                names = _names(self.app, view)
                yield Static(f"Match over: {winners_text(view, seats)}!", classes="results-title")
                order = standings(view, getattr(self.app, "out_order", ()))
                lines = [f"{place}. {names[seat]}" for place, seat in enumerate(order, start=1)]
                yield Static("\n".join(lines), id="standings", classes="results-table")
                rounds = rounds_table(view, names, getattr(self.app, "round_results", ()))
                if rounds:
                    with VerticalScroll(id="rounds"):
                        yield Static(rounds, classes="results-table")
            yield Static("", id="rematch-status")
            with Horizontal(classes="results-buttons"):
                yield Button("Rematch (r)", variant="primary", id="rematch")
                yield Button("Quit (q)", id="quit")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "rematch":
            self.action_rematch()
        else:
            self.app.exit()

    def action_rematch(self) -> None:
        """Ask for another match with the same table."""
        waiting = rematch_status(self.app.is_host, getattr(self.app, "lobby", None))
        self.query_one("#rematch-status", Static).update(waiting)
        self.post_message(RematchRequested())
