"""A banner that appears while the connection to the table is down."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

_TEXT = {
    "connecting": "Connecting to the table...",
    "reconnecting": "Connection lost - reconnecting with your seat's resume token...",
    "closed": "Disconnected from the table. Press Ctrl+Q to quit.",
}


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

    def on_mount(self) -> None:
        if hasattr(self.app, "connection_state"):
            self.watch(self.app, "connection_state", self._follow)

    def _follow(self, state: str) -> None:
        self.state = state

    def watch_state(self, state: str) -> None:
        text = _TEXT.get(state, "")
        self.update(text)
        self.set_class(bool(text), "-shown")
        self.set_class(state == "closed", "-closed")
