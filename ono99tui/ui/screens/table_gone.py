"""Says the table is gone for good (its host closed it, or it fell silent) and offers the
way on: back to the lobby to pick another table, or quit.

Shown over whatever the player was looking at (the table, the waiting room, a results
dialog), which stays visible, dimmed, behind it: a frozen table with only Ctrl+Q left
was all a joined player got before.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ono99tui.i18n import _

TableGoneChoice = Literal["lobby", "quit"]


class TableGoneScreen(ModalScreen[TableGoneChoice]):
    """Dismisses with "lobby" (`l`; only offered when there is a lobby to go back to) or
    "quit" (`q`). There is no staying: nothing more will come from this table."""

    CSS_PATH = "table_gone.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("l", "choose('lobby')", _("Back to the lobby")),
        Binding("q", "choose('quit')", _("Quit")),
    ]

    def __init__(self, headline: str, explanation: str, *, lobby: bool) -> None:
        """`lobby`: whether the player came from a lobby and can go back to it."""
        super().__init__()
        self.headline = headline
        self.explanation = explanation
        self.lobby = lobby

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.headline, id="headline", markup=False)
            yield Static(self.explanation, id="explanation", markup=False)
            with Horizontal(id="buttons"):
                if self.lobby:
                    yield Button(_("Back to the lobby (l)"), variant="primary", id="lobby")
                yield Button(_("Quit (q)"), id="quit")

    def on_mount(self) -> None:
        self.query_one("#lobby" if self.lobby else "#quit", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`l` exists only where there is a lobby to go back to."""
        if action == "choose" and parameters == ("lobby",):
            return self.lobby
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss("lobby" if event.button.id == "lobby" else "quit")

    def action_choose(self, choice: TableGoneChoice) -> None:
        self.dismiss(choice)
