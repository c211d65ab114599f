"""Who this player hears: `m` at the table lists the people at it and the names heard.

Space or Enter mutes or unmutes the highlighted name; Escape closes and dismisses with the
set of names muted. Muting is this player's own (the table is never told), by name, for
the session: a muted player's lines are not shown, though everyone else still sees them.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection


class MuteScreen(ModalScreen[set[str]]):
    """Mute or unmute the people at the table (see the module docstring)."""

    CSS_PATH = "mute.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Done")]

    def __init__(self, names: list[str], muted: set[str]) -> None:
        """`names`: whom to offer, in order; `muted`: those muted now."""
        super().__init__()
        self.names = names
        self.muted = muted

    def compose(self) -> ComposeResult:
        with Vertical(id="mute-box") as box:
            box.border_title = "Mute"
            if self.names:
                # Names came over the network: Text, so that brackets are never markup.
                yield SelectionList[str](
                    *(Selection(Text(name), name, name in self.muted) for name in self.names),
                    id="mute-list")
                yield Static("Space or Enter: mute / unmute. Esc: done.", classes="hint",
                             markup=False)
            else:
                yield Static("Nobody else is at the table yet. Esc: back.", classes="hint",
                             markup=False)

    def action_close(self) -> None:
        """Done: the names ticked are the ones muted."""
        lists = self.query(SelectionList)
        self.dismiss(set(lists.first().selected) if lists else set(self.muted))
