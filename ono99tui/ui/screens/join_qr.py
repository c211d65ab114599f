"""The join QR code: `j` in the host's waiting room shows the web door's one-step join
address and its QR code, drawn in half blocks (`ono99tui.web.join_code.qr_rows`).

A phone's camera reads it off the terminal; opening it logs the phone in without the
password (docs/WEB.md "Joining in one step"). `n` replaces the join code (the old address
stops working, logins already given stay); Escape closes.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from ono99tui.i18n import _
from ono99tui.ui.glyphs import current_glyphs
from ono99tui.ui.screens.own_modal import OwnModal
from ono99tui.web.join_code import JoinLink, qr_rows


def qr_text(url: str) -> Text:
    """The QR code of `url` as text, light blocks on black whatever the terminal's
    colours (a camera needs dark modules on a light ground)."""
    return Text("\n".join(qr_rows(url)), style="#ffffff on #000000", no_wrap=True)


class JoinQrScreen(OwnModal[None]):
    """The join address and its QR code (see the module docstring)."""

    CSS_PATH = "join_qr.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", _("Close")),
        Binding("n", "new_code", _("New code")),
    ]

    def __init__(self, link: JoinLink) -> None:
        super().__init__()
        self.link = link
        self.url = link.url()

    def compose(self) -> ComposeResult:
        with Vertical(id="join-box") as box:
            box.border_title = _("Join with a phone")
            if current_glyphs(self).ascii:  # no blocks to draw it with: the page has it
                yield Static(Text(_("This terminal cannot draw the QR code: open {page} in a "
                                    "browser on this machine to show or print it.").format(
                                        page=self.link.page)),
                             id="join-qr")
            else:
                yield Static(qr_text(self.url), id="join-qr")
            yield Static(Text(self.url), id="join-url")
            hint = (_("Scan to join, no password.  n: new code  Esc: close")
                    if self.link.replace is not None else _("Scan to join.  Esc: close"))
            yield Static(hint, classes="hint", markup=False, id="join-hint")

    def action_new_code(self) -> None:
        """Replace the join code: the address shown so far stops working."""
        if self.link.replace is None:
            return
        self.url = self.link.replace()
        if not current_glyphs(self).ascii:
            self.query_one("#join-qr", Static).update(qr_text(self.url))
        self.query_one("#join-url", Static).update(Text(self.url))
        self.notify(_("A new join code: the old one no longer lets anyone in."))

    def action_close(self) -> None:
        """Close the QR code."""
        self.dismiss(None)
