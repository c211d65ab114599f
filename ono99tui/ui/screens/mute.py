"""Who this player hears: `m` at the table lists the people at it and the names heard.

Enter (or Space) mutes or unmutes the highlighted name, and its mark says which in
characters (`[x]` muted), not only in colour; Escape closes and dismisses with the set of
names muted. Muting is this player's own (the table is never told), by name, for the
session: a muted player's lines are not shown, though everyone else still sees them.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ono99tui.i18n import _
from ono99tui.ui.screens.own_modal import OwnModal


def mute_line(name: str, muted: bool) -> Text:
    """One name's line: its mark and the name, as plain text (names came over the
    network: brackets in them are never markup)."""
    if muted:
        return Text(_("[x] {name}  muted").format(name=name))
    return Text(f"[ ] {name}")



class MuteScreen(OwnModal[set[str]]):
    """Mute or unmute the people at the table (see the module docstring)."""

    CSS_PATH = "mute.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", _("Done")),
        Binding("space", "toggle_mute", _("Mute / unmute"), show=False),
    ]

    def __init__(self, names: list[str], muted: set[str]) -> None:
        """`names`: whom to offer, in order; `muted`: those muted now."""
        super().__init__()
        self.names = names
        self.muted = set(muted)

    def compose(self) -> ComposeResult:
        with Vertical(id="mute-box") as box:
            box.border_title = _("Mute")
            if self.names:
                yield OptionList(*(Option(mute_line(name, name in self.muted), id=str(index))
                                   for index, name in enumerate(self.names)), id="mute-list")
                yield Static(_("Enter: mute / unmute  Esc: done"), classes="hint", markup=False)
            else:
                yield Static(_("Nobody else is at the table yet. Esc: back."), classes="hint",
                             markup=False)

    @on(OptionList.OptionSelected, "#mute-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self._toggle(event.option_index)

    def action_toggle_mute(self) -> None:
        """Mute or unmute the highlighted name."""
        lists = self.query(OptionList)
        highlighted = lists.first().highlighted if lists else None
        if highlighted is not None:
            self._toggle(highlighted)

    def _toggle(self, index: int) -> None:
        name = self.names[index]
        self.muted ^= {name}
        self.query_one(OptionList).replace_option_prompt_at_index(
            index, mute_line(name, name in self.muted))

    def action_close(self) -> None:
        """Done: dismiss with the names muted."""
        self.dismiss(set(self.muted))
