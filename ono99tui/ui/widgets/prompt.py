"""The one-row prompt under the table: the longest of its forms that fits the width.

The prompt names the keys to press, and they come at the end of the line: a form cut at
the edge of a narrow terminal loses exactly what the player needs. So the screen hands
over every form (`ono99tui.ui.present.prompt_forms`, fullest first) and the line shows
the first that fits, choosing again when the terminal is resized; if none fits, the
shortest is cut with an ellipsis rather than wrapped out of sight.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size
from textual import events
from textual.widgets import Static

from ono99tui.ui.glyphs import Glyphs, current_glyphs
from ono99tui.ui.widgets.glyph_aware import RedrawnWithGlyphs


def fitting_form(forms: Sequence[str], width: int, *, ascii_glyphs: bool = False) -> str:
    """The first of `forms` (fullest first) no wider than `width` cells; if none is, the
    last cut to `width` with an ellipsis ("..." in ASCII mode). A width of 0 or less (not
    laid out yet) gives the first form."""
    if not forms:
        return ""
    if width <= 0:
        return forms[0]
    for form in forms:
        if cell_len(form) <= width:
            return form
    ellipsis = "..." if ascii_glyphs else "…"
    if width <= cell_len(ellipsis):
        return set_cell_size(forms[-1], width)
    return set_cell_size(forms[-1], width - cell_len(ellipsis)).rstrip() + ellipsis


class PromptLine(RedrawnWithGlyphs, Static):
    """The prompt: plain text (it holds players' names), one of its forms at a time
    (see the module docstring)."""

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        # markup=False: the prompt shows players' names, which come over the network and
        # may hold brackets.
        super().__init__(text, id=id, markup=False)
        self._forms: tuple[str, ...] = (text,)

    def show(self, forms: Sequence[str]) -> None:
        """Show the first of `forms` that fits (repainting only when the text changes:
        every repaint is bytes on the wire for a player over SSH)."""
        self._forms = tuple(forms)
        self.refit()

    def on_resize(self, event: events.Resize) -> None:
        self.refit()

    def glyphs_changed(self, glyphs: Glyphs) -> None:
        self.refit()

    def refit(self) -> None:
        """Choose the form again (the width or the glyph set changed)."""
        text = fitting_form(self._forms, self.content_size.width,
                            ascii_glyphs=current_glyphs(self).ascii)
        if str(self.content) != text:
            self.update(text)
