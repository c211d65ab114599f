"""Textual's Linux driver, made to notice that its terminal has gone away.

Textual 8.2.8's `LinuxDriver` reads the terminal in a thread that, once the terminal is gone,
either spins forever (`os.read` returns b"" and the loop just selects again, at full speed)
or dies on EIO; its writer thread dies on the first EIO and every later write then blocks
once its queue is full. Closing a terminal window or losing an SSH connection thus left a
process burning a core and a seat the table never saw drop.

`HangupAwareDriver` changes three things and nothing else:

- input: end of input (b"" or an OSError such as EIO) is a hang-up, not something to retry;
- output: a write that fails sends all further output (stdout and stderr included, so the
  last frames and anything printed at exit cannot fail again) to /dev/null;
- SIGHUP is a hang-up too.

A hang-up posts `TerminalHungUp` to the app, which closes its connection and exits.

What any driver whose far end can go away needs for that (reporting the hang-up once, output
sent to /dev/null after a failed write, SIGHUP) is `HangupReporter`, which the browser's
driver (`ono99tui.ui.drivers.web`) shares; the app asks `HangupReporter.hung_up`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import signal
import sys
import threading
from codecs import getincrementaldecoder
from typing import IO, Any

from textual._loop import loop_last
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message


class TerminalHungUp(Message):
    """The app's terminal is gone (end of input, a failed write, or SIGHUP)."""

    def __init__(self, cause: str) -> None:
        super().__init__()
        self.cause = cause


class HangupReporter(Driver):
    """A driver mixin (listed before the driver it completes): tells the app, once, that
    whoever reads and writes this app's screen is gone (`TerminalHungUp`), and sends all
    output after a failed write to /dev/null."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._hung_up = threading.Event()
        self._output_discarded = False
        self._sighup_loop: asyncio.AbstractEventLoop | None = None

    @property
    def hung_up(self) -> bool:
        """Whether the terminal is gone (set before the app is told, from any thread)."""
        return self._hung_up.is_set()

    def hang_up(self, cause: str) -> None:
        """Tell the app (once) that the terminal is gone."""
        if self._hung_up.is_set():
            return
        self._hung_up.set()
        self._app.post_message(TerminalHungUp(cause))

    def output_failed(self) -> None:
        """A write to the terminal failed: send everything from now on to /dev/null."""
        if not self._output_discarded:
            self._output_discarded = True
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                for stream in (sys.__stdout__, sys.__stderr__):
                    if stream is not None:
                        with contextlib.suppress(OSError, ValueError):
                            os.dup2(devnull, stream.fileno())
            finally:
                os.close(devnull)
        self.hang_up("output failed")

    def watch_sighup(self) -> None:
        """Take SIGHUP as a hang-up from now on (call from the app's event loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        try:
            loop.add_signal_handler(signal.SIGHUP, self.hang_up, "SIGHUP")
        except (RuntimeError, ValueError):  # not the main thread: leave SIGHUP alone
            return
        self._sighup_loop = loop

    def unwatch_sighup(self) -> None:
        """Give SIGHUP back to its default handling."""
        if self._sighup_loop is not None:
            self._sighup_loop.remove_signal_handler(signal.SIGHUP)
            self._sighup_loop = None


class _TerminalOutput:
    """The driver's output stream; the first failed write reports a hang-up."""

    def __init__(self, stream: IO[str], driver: HangupReporter) -> None:
        self._stream = stream
        self._driver = driver

    def write(self, text: str) -> None:
        try:
            self._stream.write(text)
        except OSError:
            self._driver.output_failed()

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError:
            self._driver.output_failed()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream.isatty()


class HangupAwareDriver(HangupReporter, LinuxDriver):
    """`LinuxDriver` that turns a lost terminal into `TerminalHungUp` (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Textual never declares `_file`'s type: mypy infers `sys.__stderr__`'s (TextIOWrapper
        # or None), though the driver only writes, flushes and asks fileno/isatty of it, which
        # this wrapper does.
        self._file = _TerminalOutput(self._file, self)  # type: ignore[arg-type,assignment]

    # --- SIGHUP -----------------------------------------------------------------------------

    def start_application_mode(self) -> None:
        super().start_application_mode()
        self.watch_sighup()

    def stop_application_mode(self) -> None:
        self.unwatch_sighup()
        super().stop_application_mode()

    # --- input ------------------------------------------------------------------------------

    def run_input_thread(self) -> None:
        """`LinuxDriver.run_input_thread`, except that end of input ends the thread."""
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode

        def process(events: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> bool:
            """Feed what can be read to the parser; False once the input has ended."""
            for last, (_key, mask) in loop_last(events):
                if mask & selectors.EVENT_READ:
                    try:
                        data = os.read(self.fileno, 1024 * 4)
                    except OSError:  # EIO: the other side of the pty has closed
                        return False
                    if not data:
                        return False
                    for event in parser.feed(decode(data, final=final and last)):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)
            return True

        try:
            while not self.exit_event.is_set():
                if not process(selector.select(0.1)):
                    self.hang_up("end of input")
                    return
            selector.unregister(self.fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
