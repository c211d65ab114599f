"""The app's driver in a browser tab: Textual's `WebDriver`, hang-up aware and diffing.

textual-serve (the web door) runs one app process per browser tab and speaks to it over the
child's stdin and stdout in packets: one type byte (b"D" terminal data, b"M" a JSON meta
map, b"P" a binary-encoded one), a 4-byte big-endian length, the payload. The door selects
this driver with `TEXTUAL_DRIVER=ono99tui.ui.drivers.web:WebTableDriver`; Textual's own
`App.get_driver_class` imports it from there.

Textual 8.2.8's `WebDriver` does not notice the door going away: at end of input its input
thread just ends and the app runs on, holding its seat forever (an orphan, when the door is
killed); a write to a closed pipe raises in the middle of a repaint; the door's "quit" (sent
when the browser's websocket closes) and SIGINT/SIGTERM make the app exit as if the player
had chosen to leave, giving the seat up. And it writes every frame as Textual renders it.

`WebTableDriver` changes exactly that, reusing the terminal driver's parts:

- hang-up (`HangupReporter`): end of input, a failed write, the door's "quit" (the browser
  tab is gone), SIGHUP, SIGINT and SIGTERM (the door or its machine shutting down) are a
  hang-up: the app says goodbye with code "hangup", so the table holds the seat for its
  grace period, as when a terminal or an SSH connection goes away;
- output (`ScreenDiffing`): only the cells that change go out; a resize from the browser
  and the player's Ctrl+L make the next frame go out in full;
- a resize that arrives while the app is starting is not undone by the start-up size:
  `WebDriver` posts the start-up size through a coroutine scheduled on the app's loop, and
  a resize read meanwhile went straight into the app's queue, ahead of it.
"""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

from textual import events, log
from textual.drivers.web_driver import WebDriver
from textual.geometry import Size

from ono99tui.ui.drivers.diffing import ScreenDiffing
from ono99tui.ui.drivers.hangup import HangupReporter

# Larger sizes than any screen shows are a broken resize packet, not a screen.
MAX_SIDE = 1000
DEFAULT_SIZE = (80, 24)


class WebTableDriver(ScreenDiffing, HangupReporter, WebDriver):
    """`WebDriver` that ends the session as a hang-up when the door goes away and writes only
    what changes on screen (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Every packet (and the start-up prelude) goes through `_write`: `WebDriver` makes it
        # a bare `os.write`, which may write part of a packet and raises on a closed pipe.
        self._write = self._write_all  # type: ignore[assignment]

    def _write_all(self, data: bytes) -> None:
        """Write all of `data` to standard output; a failed write is a hang-up."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.fileno, view) :]
        except OSError:  # EPIPE: the door is gone (or no longer reads this tab's output)
            self.output_failed()

    def start_application_mode(self) -> None:
        self.screen_resized(*(self._size or DEFAULT_SIZE))
        super().start_application_mode()
        # `WebDriver` starts the app unfocused (an AppBlur), counting on textual.js to say
        # "focus" when the page's terminal gets the keyboard; a page that never does
        # (opened in the background) left the Footer empty until the first key press, so
        # a newcomer saw no keys. The game is the same focused or not: it starts focused,
        # and "blur" is not passed on (`on_meta`).
        self._app.call_later(self._app.post_message, events.AppFocus())
        # `WebDriver` just installed SIGINT/SIGTERM handlers that exit the app as if the
        # player had chosen to: from outside, they mean the door is stopping.
        loop = asyncio.get_running_loop()
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(
                signal_number, self.hang_up, signal.Signals(signal_number).name
            )
        self.watch_sighup()

    def stop_application_mode(self) -> None:
        self.unwatch_sighup()
        super().stop_application_mode()

    def run_input_thread(self) -> None:
        """`WebDriver.run_input_thread`; its return before the app stopped the driver means
        the input ended (the door closed the pipe, or sent what cannot be read): a hang-up."""
        super().run_input_thread()
        if not self.exit_event.is_set():
            self.hang_up("end of input")

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        """A meta packet from the door: "quit" is the browser gone, a resize repaints in
        full; a resize that names no sensible size is logged and ignored; "blur" is not
        passed on (see below)."""
        if packet_type == "quit":
            self.hang_up("the browser went away")
            return
        if packet_type == "blur":
            # textual.js says "blur" whenever the terminal loses the keyboard (a tab opened
            # in the background, a click on the page around it), and Textual then stops
            # updating the Footer: a tab that started unfocused showed no keys at all until
            # the first key press. Nothing in the game differs while the page is not
            # focused, so the app is not told.
            return
        if packet_type == "resize":
            width, height = payload.get("width"), payload.get("height")
            if not (
                type(width) is int
                and type(height) is int
                and 0 < width <= MAX_SIDE
                and 0 < height <= MAX_SIDE
            ):
                log.error(f"resize packet without a usable size: {payload!r}")
                return
            self.screen_resized(width, height)
            self._size = (width, height)
            # As `WebDriver` posts the start-up size (not `post_message`), so that the two
            # reach the app in the order they came.
            size = Size(width, height)
            asyncio.run_coroutine_threadsafe(
                self._app._post_message(events.Resize(size, size)), self._loop
            )
            return
        super().on_meta(packet_type, payload)
