"""A banner that appears while the connection to the table is down."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from ono99tui.i18n import N_, _
from ono99tui.ui.session_app import SessionApp, watch_session

_TEXT = {
    "connecting": N_("Connecting to the table..."),
    "reconnecting": N_("Connection lost - reconnecting with your seat's resume token..."),
    "closed": N_("Disconnected from the table. Press Ctrl+Q to quit."),
}
# A spectator has no seat: it says hello again and goes on watching.
_WATCHING_TEXT = {"reconnecting": N_("Connection lost - reconnecting to go on watching...")}


class ConnectionBanner(Static):
    """Shown docked at the top while `app.connection_state` is anything but "connected"."""

    DEFAULT_CSS = """
    ConnectionBanner {
        dock: top;
        height: 1;
        width: 1fr;
        text-align: center;
        text-style: bold;
        background: $warning;
        color: $background;
        display: none;
    }
    ConnectionBanner.-closed { background: $error; }
    ConnectionBanner.-shown { display: block; }
    """

    state: reactive[str] = reactive("offline")
    _gone_headline: str | None = None

    def on_mount(self) -> None:
        if isinstance(self.app, SessionApp):
            # The headline too: a link that drops for good is "closed" before the table's
            # goodbye says why.
            watch_session(self, lambda session: (session.connection_state,
                                                 session.gone_headline), self._follow)

    def _follow(self, state_and_headline: tuple[str, str | None]) -> None:
        state, self._gone_headline = state_and_headline
        if state == self.state:
            self.watch_state(state)
        self.state = state

    def watch_state(self, state: str) -> None:
        app = self.app
        watching = isinstance(app, SessionApp) and app.session.spectating
        text = _((_WATCHING_TEXT.get(state) if watching else None) or _TEXT.get(state, ""))

        if state == "closed" and self._gone_headline:
            # The table is gone (its dialog says so and offers the way on): say why, not
            # "disconnected", and not a key the dialog does not offer.
            text = self._gone_headline
        self.update(text)
        self.set_class(bool(text), "-shown")
        self.set_class(state == "closed", "-closed")
