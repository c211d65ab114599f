"""The viewer's own bust, held on screen: with no legal card the table busts a player by
itself (often when a Play 2 comes back round without them pressing anything), so the
moment must not pass as one log line. The banner stays until a key is pressed (that key
does nothing else) or the next round is dealt (the app closes it then)."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from ono99tui.i18n import _
from ono99tui.ui.present import BustNotice
from ono99tui.ui.screens.own_modal import OwnModal


def held_line(notice: BustNotice) -> str:
    """ "You held: ONO 99, 7, 9, 10"."""
    if not notice.held:
        return (_("You held: no cards and the card you had just drawn") if notice.drew_unseen
                else _("You held: no cards"))
    held = ", ".join(notice.held)
    if notice.drew_unseen:
        return _("You held: {cards} and the card you had just drawn").format(cards=held)
    return _("You held: {cards}").format(cards=held)



class BustScreen(OwnModal[None]):
    """"You busted at 97 — no card fits under 99", the hand held and what it cost."""

    CSS_PATH = "bust.tcss"

    def __init__(self, notice: BustNotice) -> None:
        super().__init__()
        self.notice = notice

    def compose(self) -> ComposeResult:
        notice = self.notice
        with Vertical(id="bust"):
            yield Static(notice.headline, id="bust-headline", markup=False)
            yield Static(held_line(notice), id="bust-hand", markup=False)
            if notice.outcome:
                yield Static(notice.outcome, id="bust-outcome", markup=False)
            yield Static(_("Press any key to go on"), id="bust-hint")

    def on_key(self, event: events.Key) -> None:
        # Any key only closes the banner: a number pressed to play on would otherwise
        # discard a card the player has not looked at yet.
        event.stop()
        event.prevent_default()
        self.dismiss()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss()
