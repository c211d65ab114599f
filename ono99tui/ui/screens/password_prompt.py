"""A modal asking for a table's password; dismissed with the password, or None if cancelled."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ono99tui.i18n import _


class PasswordPrompt(ModalScreen[str | None]):
    """Enter sends the password, Escape gives up."""

    DEFAULT_CSS = """
    PasswordPrompt {
        align: center middle;
    }
    PasswordPrompt > Vertical {
        width: 56;
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 1 2;
    }
    PasswordPrompt #password-wrong {
        color: $error;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", _("Cancel"))]

    def __init__(self, table_label: str, *, wrong: bool = False) -> None:
        super().__init__()
        self.table_label = table_label
        self.wrong = wrong

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(_("{table} needs a password.").format(table=self.table_label)))

            if self.wrong:
                yield Static(_("That password was not right; try again."), id="password-wrong")
            yield Input(password=True, placeholder=_("password"), id="password", max_length=512)
            yield Static(_("Enter to join, Escape to cancel."), classes="hint")

    @on(Input.Submitted, "#password")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        """Give up joining this table."""
        self.dismiss(None)
