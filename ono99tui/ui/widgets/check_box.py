"""Check boxes whose mark shows their state in characters, and the player's own "Rate my
play (u)" box, which the waiting room and the match-over dialog both show."""

from __future__ import annotations

from textual.widgets import Checkbox

from ono99tui.i18n import _
from ono99tui.ui.glyphs import current_glyphs


class RuleCheckbox(Checkbox):
    """A check box whose mark shows its state in characters, not only in colour."""

    # The upper-case property names are Textual's own (Checkbox's class attributes).
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        return "x" if self.value else " "

    @property
    def BUTTON_LEFT(self) -> str:  # type: ignore[override]
        return "[" if current_glyphs(self).ascii else "▐"

    @property
    def BUTTON_RIGHT(self) -> str:  # type: ignore[override]
        return "]" if current_glyphs(self).ascii else "▌"


class RateMyPlayBox(RuleCheckbox):
    """The player's own switch: rated or not from the next match on. It shows the table's
    word (`show`), never the click before the table answered; the screen holding it sends
    the wish (`RatedRequested`) on its `Checkbox.Changed`."""

    def __init__(self) -> None:
        super().__init__(_("Rate my play (u)"), id="rate-me", compact=True, value=True)

    def show(self, rated: bool | None) -> None:
        """The table's word (`TableSession.rated`): None hides the box (a spectator, a
        table that rates nobody); the value set here is not echoed back as a wish."""
        self.display = rated is not None
        if rated is not None and self.value != rated:
            with self.prevent(Checkbox.Changed):
                self.value = rated
        self.tooltip = (None if rated is None
                        else _("Your play is rated here from the next match on.") if rated
                        else _("Your play is not rated: your rating stays as it is."))

    @staticmethod
    def wish(event: Checkbox.Changed, rated: bool | None) -> bool | None:
        """What a click (or space) on the box asks for, given the table's word `rated`:
        the new value, or None when there is nothing to ask (no choice offered, or the
        table has it so already)."""
        if event.value != event.checkbox.value or rated in (None, event.value):
            return None
        return event.value
