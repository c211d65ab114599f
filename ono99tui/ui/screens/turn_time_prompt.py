"""The host's turn-clock prompt: `k` at the table, during a match.

At a table with no clock, a player who walked away mid-turn holds everyone up; the host
sets the seconds per move here (the table gives the seat it waits for the whole time from
then). An empty line switches the clock off. It dismisses with `TurnTime(seconds)` (None
seconds: no clock), or None when closed with Escape; a number out of range is said in the
prompt, which stays open.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Input, Static

from netproto.wire.messages import MAX_TURN_SECONDS
from ono99tui.i18n import _
from ono99tui.ui.screens.own_modal import OwnModal

# The table's own bounds (ono99tui/host/table_config.py): the prompt says them before asking.
MIN_SECONDS = 1


@dataclass(frozen=True, slots=True)
class TurnTime:
    """The host's answer: seconds per move, or None for no clock."""

    seconds: float | None


class BadTurnTime(ValueError):
    """What was typed is not a turn time; the message says what is."""


def parse_turn_time(text: str) -> float | None:
    """Seconds per move from what the host typed ("" or "off": no clock). Raises
    BadTurnTime."""
    text = text.strip().lower().removesuffix("s").strip()
    if text in ("", "off", "none", "no"):
        return None
    try:
        seconds = float(text)
    except ValueError:
        raise BadTurnTime(_("type a number of seconds, or leave it empty for no clock")) from None
    if not MIN_SECONDS <= seconds <= MAX_TURN_SECONDS:  # also refuses nan and inf
        raise BadTurnTime(_("the turn time must be {lowest} to {highest} s").format(
            lowest=MIN_SECONDS, highest=f"{MAX_TURN_SECONDS:g}"))

    return seconds


class TurnTimePrompt(OwnModal[TurnTime | None]):
    """Seconds per move for every player at the table (see the module docstring)."""

    CSS_PATH = "turn_time_prompt.tcss"  # a bar at the bottom, as the chat line
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", _("Close"))]

    def __init__(self, current: float | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(id="turn-time-box") as box:
            box.border_title = _("Turn clock: seconds per move")
            value = "" if self.current is None else f"{self.current:g}"
            yield Input(value=value, placeholder=_("e.g. 60 (empty: no clock)"),
                        id="turn-time-input", max_length=12, compact=True)
            yield Static(_("Enter sets it for everyone, now; empty: no clock. Esc: no change."),
                         id="turn-time-hint", markup=False)

    @on(Input.Submitted, "#turn-time-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            seconds = parse_turn_time(event.value)
        except BadTurnTime as error:
            self.query_one("#turn-time-hint", Static).update(f"{error}.")
            return
        self.dismiss(TurnTime(seconds))

    def action_close(self) -> None:
        """Close without changing the clock."""
        self.dismiss(None)
