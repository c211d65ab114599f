"""A modal screen that closes only itself.

Textual's `Screen.dismiss` pops whatever screen is on top. The table puts dialogs up by
itself (a round's results, a bust, the match's end), so a prompt answered in the same
moment (Enter pressed as the round ended) would close that dialog instead, and stay on
screen with its answer already acted on. A modal built on `OwnModal` ignores a dismiss
while another screen is over it: its answer waits, and the player gives it again once
the dialog above is closed.
"""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class OwnModal(ModalScreen[ResultType]):
    """A `ModalScreen` whose dismiss does nothing unless it is the screen on top."""

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        """Close this screen with `result`, if it is the one on top (else nothing)."""
        if not self.is_active:
            return AwaitComplete.nothing()
        return super().dismiss(result)
