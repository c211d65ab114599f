"""The app's terminal driver: `HangupAwareDriver`, writing only the cells that change.

Every frame Textual writes goes through a `ScreenDiff` (see `ono99tui.ui.drivers.screen_diff`),
which keeps a model of the terminal's screen. Whatever may make the terminal lose what it
shows makes the model forget it, so the next frame goes out in full: a new size (SIGWINCH
or an in-band resize report) and (re)entering application mode (start, resume after a
suspend), and the player's Ctrl+L (`forget_screen`). An empty frame (nothing changed) is not
written at all, not even the synchronized-output brackets around it.

That filtering is `ScreenDiffing`, a mixin the browser's driver (`ono99tui.ui.drivers.web`)
shares: each driver only tells it when the screen's size is (re)learnt.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from textual import events
from textual.driver import Driver
from textual.message import Message

from ono99tui.ui.drivers.hangup import HangupAwareDriver
from ono99tui.ui.drivers.screen_diff import SYNC_END, SYNC_START, ScreenDiff


class ScreenDiffing(Driver):
    """A driver mixin (listed before the driver it completes) whose `write` passes on only
    what changes on screen."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._screen = ScreenDiff(80, 24)
        # Sizes learnt on other threads (input thread, signal handler), for the next write
        # (on the app's thread) to apply, forgetting the model. A deque: thread-safe.
        self._new_sizes: deque[tuple[int, int]] = deque()
        self._sync_held = False

    def screen_resized(self, width: int, height: int) -> None:
        """The screen is (or may have been made) `width` x `height`: the next frame goes out
        in full, at that size. Safe from any thread."""
        self._new_sizes.append((width, height))

    def forget_screen(self) -> None:
        """Forget what the terminal shows (something else may have written on it): the next
        frame goes out in full."""
        self._new_sizes.append((self._screen.width, self._screen.height))

    def write(self, data: str) -> None:
        """Write `data`, or less that shows the same (see the module docstring)."""
        while self._new_sizes:
            self._screen.forget(*self._new_sizes.popleft())
        if data == SYNC_START:
            self._sync_held = True  # written with the frame, if the frame changes anything
            return
        if data == SYNC_END and self._sync_held:
            self._sync_held = False  # nothing was written in between
            return
        data = self._screen.filter(data)
        if self._sync_held and data:
            self._sync_held = False
            data = SYNC_START + data
        if data:
            # A mixin: `super()` is the driver it completes, never `Driver` itself.
            super().write(data)  # type: ignore[safe-super]


class DiffingDriver(ScreenDiffing, HangupAwareDriver):
    """`HangupAwareDriver` whose output only carries what changes on screen."""

    def _get_terminal_size(self) -> tuple[int, int]:
        # Textual asks on start and on every SIGWINCH.
        size = super()._get_terminal_size()
        self.screen_resized(*size)
        return size

    def process_message(self, message: Message) -> None:
        if isinstance(message, events.Resize):  # in-band resize reports
            self.screen_resized(message.size.width, message.size.height)
        super().process_message(message)

    def start_application_mode(self) -> None:
        self._get_terminal_size()
        super().start_application_mode()
