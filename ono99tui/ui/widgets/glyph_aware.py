"""Widgets that draw with the app's glyph set redraw themselves when it changes.

A widget reads the set while rendering (`glyphs.current_glyphs`), so a switch (the palette's
"ASCII glyphs", `ctrl+g`) only needs it rendered again. The app says so once, on its
`glyphs_changed` signal (`ui/session_app.py`); each such widget listens for itself, so the
app never walks its screens looking for them.
"""

from __future__ import annotations

from textual.widget import Widget

from ono99tui.ui.glyphs import Glyphs
from ono99tui.ui.session_app import SessionApp


class RedrawnWithGlyphs(Widget):
    """A widget whose drawing depends on the glyph set: redrawn (and laid out again, as
    the widths may change) whenever the app's set changes."""

    def on_mount(self) -> None:
        app = self.app
        # A widget shown by an app that is not a session app (a test's) keeps its set.
        if isinstance(app, SessionApp):
            app.glyphs_changed.subscribe(self, self.glyphs_changed)

    def glyphs_changed(self, glyphs: Glyphs) -> None:
        """Draw again with `glyphs` (the new set, which `current_glyphs` now returns)."""
        self.refresh(layout=True)
