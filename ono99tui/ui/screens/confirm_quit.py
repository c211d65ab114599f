"""Asks before leaving a match that is still going."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmQuitScreen(ModalScreen[bool]):
    """Leave the match? Dismisses with True to quit, False to stay."""

    CSS_PATH = "confirm_quit.tcss"
    BINDINGS = [
        Binding("y", "answer(True)", "Leave"),
        Binding("n,escape", "answer(False)", "Stay"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Leave the match?", id="question")
            yield Static(
                "The match goes on without you: your seat is held for a while, "
                "then a bot plays it.",
                id="explanation",
            )
            with Horizontal(id="buttons"):
                yield Button("Leave (y)", variant="error", id="leave")
                yield Button("Stay (n)", variant="primary", id="stay")

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
