"""The one-line chat prompt: `c` at the table or in the waiting room opens it.

Enter says the line (the app sends it; an empty line just closes), Escape closes. It
dismisses with the text, or None. The hint under it names the emote and mute keys of the
table, which the Footer has no room for at 80 columns.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from netproto.wire.messages import MAX_CHAT_TEXT
from ono99tui.client.talk import emote_hint
from ono99tui.i18n import _
from ono99tui.ui.screens.own_modal import OwnModal


class ChatPrompt(OwnModal[str | None]):
    """Say something to everyone at the table (see the module docstring)."""

    CSS_PATH = "chat_prompt.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", _("Close"))]

    def compose(self) -> ComposeResult:
        with Vertical(id="chat-box") as box:
            box.border_title = _("Say to the table")
            yield Input(placeholder=_("a message (Enter sends, Esc closes)"), id="chat-input",
                        max_length=MAX_CHAT_TEXT, compact=True)
            # One line at 80 columns: the keys that work once the prompt is closed.
            yield Static(_("Emotes: {emotes}  m: mute").format(emotes=emote_hint()), id="chat-hint",
                         markup=False)

    @on(Input.Submitted, "#chat-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        self.dismiss(text or None)

    def action_close(self) -> None:
        """Close without saying anything."""
        self.dismiss(None)
