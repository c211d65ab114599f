"""What every screen with table talk offers (the table and the waiting room): the chat
key, the quick emotes and the mute list, as bindings and the actions behind them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.screen import Screen

from ono99tui.client.talk import EMOTE_KEYS
from ono99tui.i18n import _
from ono99tui.table_protocol import EMOTES
from ono99tui.ui.requests import ChatRequested
from ono99tui.ui.session_app import SessionApp

if TYPE_CHECKING:
    from textual import getters

# c the one-line prompt, 5-9 the quick emotes (beside the card keys), m the mute list. The
# Footer shows only c (room at 80 columns); the prompt's hint names the others.
TALK_BINDINGS = (
    Binding("c", "chat", _("Chat")),
    *(Binding(key, f"emote({name!r})", _("Emote: {emote}").format(emote=_(EMOTES[name])),
              show=False)
      for key, name in EMOTE_KEYS),
    Binding("m", "mute", _("Mute"), show=False),
)


class TalkScreen(Screen[None]):
    """A screen whose player may talk to the table (its BINDINGS splice `TALK_BINDINGS`)."""

    if TYPE_CHECKING:  # `self.app` is this app (Textual's typed getter, for type checkers)
        app = getters.app(SessionApp)

    def talk_in_sight(self) -> bool:
        """Does this screen show table talk where the player can read it now? (A line of
        talk that no screen shows comes as a toast too.)"""
        return False

    async def action_chat(self) -> None:
        """Open the one-line chat prompt (the app's)."""
        await self.app.run_action("chat")

    def action_emote(self, emote: str) -> None:
        """Send a quick emote to everyone at the table."""
        self.post_message(ChatRequested(emote=emote))

    async def action_mute(self) -> None:
        """Mute or unmute people at the table, for this player only (the app's list)."""
        await self.app.run_action("mute")
