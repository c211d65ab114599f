"""A child process on its own pseudo-terminal, driven from asyncio.

The SSH door runs one of these per session: the child (the Textual app) sees a real
terminal, while the door relays the terminal's master side to and from the SSH channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import termios
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

# Input held for a child that is not reading, before the relay stops reading the channel.
INPUT_HIGH_WATER = 64 * 1024
_READ_CHUNK = 65536


@dataclass(frozen=True)
class TerminalSize:
    """A terminal's size in character cells (and pixels, when the client reports them)."""

    columns: int
    rows: int
    pixel_width: int = 0
    pixel_height: int = 0

    def clamped(self) -> TerminalSize:
        """The same size with every field inside what TIOCSWINSZ's unsigned shorts hold."""

        def fit(value: int, least: int) -> int:
            return max(least, min(int(value), 0xFFFF))

        return TerminalSize(
            fit(self.columns, 1),
            fit(self.rows, 1),
            fit(self.pixel_width, 0),
            fit(self.pixel_height, 0),
        )


def set_window_size(fd: int, size: TerminalSize) -> None:
    """Set the window size of the terminal open on *fd* (TIOCSWINSZ)."""
    size = size.clamped()
    packed = struct.pack("HHHH", size.rows, size.columns, size.pixel_width, size.pixel_height)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, packed)


def _become_terminal_owner() -> None:
    # Runs in the child between fork and exec. The child is already a session leader
    # (start_new_session); making the pty its controlling terminal lets the kernel deliver
    # SIGWINCH on resize and SIGHUP when the door hangs up, as a real terminal would.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyChild:
    """A process started on a fresh pty, whose master side this object reads and writes."""

    def __init__(self, process: asyncio.subprocess.Process, master_fd: int) -> None:
        self._process = process
        self._master_fd = master_fd
        self._loop = asyncio.get_running_loop()
        self._on_output: Callable[[bytes], None] | None = None
        self._reading = False
        self._pending_input = bytearray()
        self._writer_armed = False
        self._output_ended = asyncio.Event()
        self._closed = False
        self.on_input_drained: Callable[[], None] | None = None

    @classmethod
    async def spawn(
        cls, argv: Sequence[str], env: Mapping[str, str], size: TerminalSize, cwd: str | None = None
    ) -> PtyChild:
        """Start *argv* with stdin, stdout and stderr on a new pty of *size*."""
        master_fd, slave_fd = os.openpty()
        try:
            set_window_size(slave_fd, size)
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=slave_fd,
                stdout=slave_fd,
                stderr=slave_fd,
                env=dict(env),
                cwd=cwd,
                start_new_session=True,
                preexec_fn=_become_terminal_owner,
            )
        except BaseException:
            os.close(master_fd)
            raise
        finally:
            # The parent keeps only the master; once the child's copies close, reads on the
            # master report EIO, which is how the end of its output is noticed.
            os.close(slave_fd)
        os.set_blocking(master_fd, False)
        return cls(process, master_fd)

    @property
    def pid(self) -> int:
        """The child's process id (also its process group and session id)."""
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        """The child's exit status, or None while it runs."""
        return self._process.returncode

    @property
    def pending_input(self) -> int:
        """Bytes written to the child that the pty has not accepted yet."""
        return len(self._pending_input)

    def start_reading(self, on_output: Callable[[bytes], None]) -> None:
        """Deliver everything the child writes to its terminal to *on_output*."""
        self._on_output = on_output
        self.resume_reading()

    def pause_reading(self) -> None:
        """Stop reading the child's output (the pty then blocks the child: backpressure)."""
        if self._reading:
            self._loop.remove_reader(self._master_fd)
            self._reading = False

    def resume_reading(self) -> None:
        """Read the child's output again after pause_reading."""
        if not self._reading and not self._output_ended.is_set() and not self._closed:
            self._loop.add_reader(self._master_fd, self._read_output)
            self._reading = True

    def _read_output(self) -> None:
        try:
            data = os.read(self._master_fd, _READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as error:
            if error.errno != errno.EIO:
                raise
            data = b""
        if not data:
            self.pause_reading()
            self._output_ended.set()
            return
        if self._on_output is not None:
            self._on_output(data)

    def write(self, data: bytes) -> None:
        """Send *data* to the child as if typed on its terminal."""
        if self._closed or not data:
            return
        self._pending_input += data
        self._flush_input()

    def _flush_input(self) -> None:
        while self._pending_input:
            try:
                written = os.write(self._master_fd, self._pending_input)
            except BlockingIOError:
                break
            except OSError:
                # The child has gone: its input no longer matters.
                self._pending_input.clear()
                break
            del self._pending_input[:written]
        if self._pending_input and not self._writer_armed:
            self._loop.add_writer(self._master_fd, self._flush_input)
            self._writer_armed = True
        elif not self._pending_input:
            if self._writer_armed:
                self._loop.remove_writer(self._master_fd)
                self._writer_armed = False
            if self.on_input_drained is not None:
                self.on_input_drained()

    def resize(self, size: TerminalSize) -> None:
        """Give the terminal a new size; the child is told by SIGWINCH."""
        if self._closed:
            return
        # The pty is the child's controlling terminal, so the kernel itself sends SIGWINCH to
        # its foreground process group (once per real change: a second, explicit signal
        # would make the app redraw twice and double the bytes sent to the player).
        set_window_size(self._master_fd, size)

    def _signal_group(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signum)

    async def wait(self, output_grace: float = 1.0) -> int:
        """Wait for the child to exit and its last output to be relayed; return its status.

        A grandchild may hold the terminal open after the child exits, so the end of output
        is awaited for at most *output_grace* seconds after the exit.
        """
        status = await self._process.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._output_ended.wait(), output_grace)
        return status

    async def terminate(self, grace: float = 2.0) -> int:
        """Hang up on the child (SIGHUP, then SIGTERM), kill it after *grace* seconds."""
        if self._process.returncode is None:
            for signum in (signal.SIGHUP, signal.SIGTERM):
                self._signal_group(signum)
            try:
                await asyncio.wait_for(self._process.wait(), grace)
            except TimeoutError:
                self._signal_group(signal.SIGKILL)
                await self._process.wait()
        self.close()
        return self._process.returncode if self._process.returncode is not None else -1

    def close(self) -> None:
        """Release the master side of the pty."""
        if self._closed:
            return
        self._closed = True
        self.pause_reading()
        if self._writer_armed:
            self._loop.remove_writer(self._master_fd)
            self._writer_armed = False
        os.close(self._master_fd)
