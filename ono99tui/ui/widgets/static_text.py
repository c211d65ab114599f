"""Helpers for updating text widgets without needless repaints."""

from __future__ import annotations

from textual.widgets import Static


def update_if_changed(static: Static, text: str) -> bool:
    """Update `static` only if its text differs; returns whether it changed.

    `Static.update` always repaints the widget, and every repaint is bytes on the wire for
    a player over SSH.
    """
    if str(static.content) == text:
        return False
    static.update(text)
    return True
