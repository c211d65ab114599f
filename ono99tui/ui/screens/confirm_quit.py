"""Asks before leaving a match that is still going, saying what quitting does here."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ono99tui.i18n import _
from ono99tui.ui.screens.own_modal import OwnModal


class ConfirmQuitScreen(OwnModal[bool]):
    """Leave the match? Dismisses with True to quit, False to stay.

    `question` and `explanation` say what quitting does where the player is (the app's
    `quit_warning` picks them: a solo game ends, a hosted table closes for everyone, a
    joined table's seat is held and then played by a bot or resigned).
    """

    CSS_PATH = "confirm_quit.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", _("Leave")),
        Binding("n,escape", "answer(False)", _("Stay")),
    ]

    def __init__(self, question: str, explanation: str) -> None:
        super().__init__()
        self.question = question
        self.explanation = explanation

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question, id="question", markup=False)
            yield Static(self.explanation, id="explanation", markup=False)
            with Horizontal(id="buttons"):
                yield Button(_("Leave (y)"), variant="error", id="leave")
                yield Button(_("Stay (n)"), variant="primary", id="stay")

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
