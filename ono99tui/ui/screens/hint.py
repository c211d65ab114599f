"""The hint panel: for each card the player may play, the chance to win and the chance the
next player busts, the suggested card and one line on why. Readable at 80×24.

It shows a `Hint` (`ono99tui.ui.hinting`), worked out beforehand on a worker thread from the
player's own view; it computes nothing itself. Esc, h or q close it, and so does any new
view after the one it is about (a card played, a stand-in's move): it never advises on a
position that is gone. The keys in its Key column play that card, as at the table: the
panel closes and the table takes the key (a key with no playable card only rings).
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ono99tui.game import PlayerView
from ono99tui.i18n import _
from ono99tui.ui.glyphs import current_glyphs
from ono99tui.ui.hinting import MEASURES, Hint
from ono99tui.ui.session_app import SessionApp, watch_session

CARD_WIDTH = 18


def _pad(text: str, width: int, *, right: bool = False) -> str:
    spaces = " " * max(0, width - cell_len(text))
    return spaces + text if right else text + spaces


def hint_table(hint: Hint, *, ascii_glyphs: bool) -> Text:
    """The rows of the panel: a header, then one line per playable card, the suggestion
    marked."""
    mark = ">" if ascii_glyphs else "▶"
    # Padded by terminal cells, not code points (the headings may be Bengali or Kannada).
    key, card, win, busts = _("Key"), _("Card"), _("Win"), _("Next player busts")
    key_width = max(3, cell_len(key))
    busts_width = max(17, cell_len(busts))
    text = Text(f"  {_pad(key, key_width)} {_pad(card, CARD_WIDTH)} {_pad(win, 5, right=True)}"
                f"   {_pad(busts, busts_width, right=True)}", style="bold")
    for row in hint.rows:
        line = (f"\n{mark if row.suggested else ' '} {row.key:^{key_width}} "
                f"{_pad(row.card, CARD_WIDTH)} "
                f"{row.win:>5.0%}   {row.next_bust:>{busts_width}.0%}")
        text.append(line, style="bold" if row.suggested else "")
    return text


class HintScreen(ModalScreen[None]):
    """One hint, shown over the table (see the module docstring)."""

    CSS_PATH = "hint.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,h,q", "dismiss", _("Close")),
        Binding("1", "play('1')", _("Play"), key_display="1-4"),
        Binding("2", "play('2')", _("Play 2nd"), show=False),
        Binding("3", "play('3')", _("Play 3rd"), show=False),
        Binding("4", "play('4')", _("Play 4th"), show=False),
        Binding("s", "play('s')", _("Swap"), show=False),
    ]

    def __init__(self, hint: Hint, about: PlayerView | None = None) -> None:
        """`about`: the view the hint was worked out from (None: whatever is shown)."""
        super().__init__()
        self.hint = hint
        self.about = about

    def compose(self) -> ComposeResult:
        hint = self.hint
        with Vertical(id="hint"):
            yield Static(hint_table(hint, ascii_glyphs=current_glyphs(self).ascii),
                         id="hint-cards")
            yield Static(Text(_("Suggested: {card}. {reason}").format(
                card=hint.suggested, reason=hint.reason)), id="hint-reason")
            measure = MEASURES.get(hint.measures)
            yield Static(Text(_("Win: {measure}. {deals} deals tried per card, from your own "
                                "cards and what was played.").format(
                measure=_(measure) if measure else hint.measures, deals=hint.deals)),
                id="hint-note")
        yield Footer()

    def action_play(self, key: str) -> None:
        """Play the card the Key column names `key`: close, then the table takes the key
        (its own binding plays it, with every check it makes)."""
        if key not in {row.key for row in self.hint.rows}:
            self.app.bell()  # no playable card there: nothing to pass on
            return
        table = self.app.screen_stack[-2] if len(self.app.screen_stack) > 1 else None
        self.dismiss()
        if table is not None:
            action = "swap" if key == "s" else f"choose({int(key) - 1})"
            self.app.call_later(table.run_action, action)

    def on_mount(self) -> None:
        self.set_class(current_glyphs(self).ascii, "-ascii")
        self.query_one("#hint").border_title = _("Hint (Esc to close)")
        if self.about is not None and isinstance(self.app, SessionApp):  # follow the views
            # init: a view may have come between the push and this mount.
            watch_session(self, lambda session: session.view, self._view_changed)

    def _view_changed(self, view: PlayerView | None) -> None:
        if view is not self.about:
            self.dismiss()
