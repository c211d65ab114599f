"""One player's SSH session through the door: the app on a pty, relayed to the channel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import asyncssh

from ono99tui import i18n
from ono99tui.access import PLAIN_COMMAND, PLAIN_ENV
from ono99tui.i18n import N_
from ono99tui.ssh.pty_child import INPUT_HIGH_WATER, PtyChild, TerminalSize

if TYPE_CHECKING:
    from collections.abc import Callable

log = logging.getLogger("ono99tui.ssh")

# Undo what a full-screen app may have left on the player's terminal when it is stopped
# rather than allowed to quit: reset colours, leave mouse tracking, bracketed paste and
# the alternate screen, show the cursor.
TERMINAL_RESET = (
    b"\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    b"\x1b[?2004l\x1b[?1004l\x1b[?1049l\x1b[?25h\r\n"
)

DEFAULT_TERM = "xterm-256color"
# How long a session being ended waits for the client to take its last words.
CLOSE_FLUSH_SECONDS = 2.0


class SessionHost(Protocol):
    """What a session needs from the door that owns it."""

    idle_timeout: float

    async def claim_player(self, session: DoorSession, player: str) -> str | None:
        """Reserve *player* for *session*; return why not, or None when granted."""

    def child_argv(self, player: str, *, plain: bool = False) -> Sequence[str]:
        """The command line of the app for *player* (line mode when `plain`)."""

    def child_env(self, player: str, term: str, client_env: Mapping[str, str]) -> dict[str, str]:
        """The environment of the app for *player* on a terminal of type *term*."""

    def session_ended(self, session: DoorSession) -> None:
        """Forget *session*: it has closed."""


class DoorSession(asyncssh.SSHServerSession[bytes]):
    """Runs the app for one SSH user on its own pty and relays bytes and resizes.

    Only an interactive shell request is served, and one command: `plain` (`ssh -t -p PORT
    NAME@HOST plain`), the same app in line mode, for screen readers and braille; every
    other exec request and every subsystem (sftp, scp, remote commands) is refused, so the
    app is the only thing reachable. Line mode may also be asked for by environment
    (`ONO99_PLAIN=1`, sent with OpenSSH's SendEnv).
    """

    def __init__(self, host: SessionHost, player: str) -> None:
        self._host = host
        self.player = player
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._term: str | None = None
        self._size = TerminalSize(80, 24)
        self._child: PtyChild | None = None
        self._early_input = bytearray()
        self._task: asyncio.Task[None] | None = None
        # Tasks started from callbacks (ending the child, the idle goodbye): the event loop
        # keeps only weak references to tasks, so an unreferenced one may vanish mid-way.
        self._chores: set[asyncio.Future[object]] = set()
        self._idle_timer: asyncio.TimerHandle | None = None
        self._last_activity = time.monotonic()
        self._closed = False
        # Line mode was asked for with the one command the door accepts (`plain`).
        self._plain = False
        self.bytes_to_client = 0
        self.on_output: Callable[[bytes], None] | None = None

    # -- asyncssh callbacks -------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self._term = term_type or DEFAULT_TERM
        columns, rows, pixel_width, pixel_height = term_size
        if columns and rows:
            self._size = TerminalSize(columns, rows, pixel_width, pixel_height)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        if command.strip() == PLAIN_COMMAND:
            self._plain = True
            return True
        log.info("refused exec request from %s: %r", self.player, command[:80])
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("refused subsystem request from %s: %r", self.player, subsystem[:80])
        return False

    def session_started(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._last_activity = time.monotonic()
        if self._child is None:
            self._early_input += data
            return
        self._child.write(data)
        if self._child.pending_input > INPUT_HIGH_WATER and self._chan is not None:
            # The app is not keeping up (a huge paste): stop reading the client until it does.
            self._chan.pause_reading()
            self._child.on_input_drained = self._resume_input

    def _resume_input(self) -> None:
        if self._child is not None:
            self._child.on_input_drained = None
        if self._chan is not None:
            self._chan.resume_reading()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._last_activity = time.monotonic()
        if width and height:
            self._size = TerminalSize(width, height, pixwidth, pixheight)
            if self._child is not None:
                self._child.resize(self._size)

    def eof_received(self) -> bool:
        # The client will send nothing more; the app cannot be played without input.
        return False

    def pause_writing(self) -> None:
        if self._child is not None:
            self._child.pause_reading()

    def resume_writing(self) -> None:
        if self._child is not None:
            self._child.resume_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._cancel_idle_timer()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        elif self._child is not None and self._child.returncode is None:
            self._chore(self._child.terminate())
        self._host.session_ended(self)

    # -- the session itself -------------------------------------------------------------

    async def _run(self) -> None:
        chan = self._chan
        assert chan is not None
        try:
            if self._term is None:
                self._say(N_("this door needs a terminal; connect with `ssh -t`."), 1)
                return
            refusal = await self._host.claim_player(self, self.player)
            if refusal is not None:
                self._finish(f"ono99: {refusal}\r\n".encode(), 1)
                return
            client_env = chan.get_environment()
            plain = self._plain or client_env.get(PLAIN_ENV, "") not in ("", "0")
            argv = self._host.child_argv(self.player, plain=plain)
            env = self._host.child_env(self.player, self._term, client_env)
            try:
                self._child = await PtyChild.spawn(argv, env, self._size)
            except OSError as error:
                log.error("could not start the app for %s: %s", self.player, error)
                self._say(N_("the game could not be started on this host."), 1)
                return
            log.info("session for %s started (pid %d)", self.player, self._child.pid)
            self._child.start_reading(self._send)
            if self._early_input:
                self._child.write(bytes(self._early_input))
                self._early_input.clear()
            self._arm_idle_timer()
            status = await self._child.wait()
            self._child.close()
            log.info("session for %s ended: the app exited with %d", self.player, status)
            self._finish(b"", status if status >= 0 else 128 - status)
        except asyncio.CancelledError:
            # The client went away: hang up on the app, as a closed terminal does.
            if self._child is not None:
                await self._child.terminate()
            raise

    def _send(self, data: bytes) -> None:
        if self._chan is None or self._closed:
            return
        self.bytes_to_client += len(data)
        if self.on_output is not None:
            self.on_output(data)
        # A broken pipe: the channel is closing (the client sent EOF, or hung up) and
        # `connection_lost` is on its way: the app's last words have nobody to read them.
        with contextlib.suppress(BrokenPipeError):
            self._chan.write(data)

    @property
    def language(self) -> str:
        """The language the player's client sent (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as
        gettext reads them): the door's own words to this session are in it, as the game's
        are (`child_env` passes the same variables on); English when none was sent."""
        env = self._chan.get_environment() if self._chan is not None else {}
        return i18n.language_from_environment(env) or "en"

    def words(self, message: str) -> str:
        """`message` (an English msgid) in this session's language."""
        return i18n.translator(self.language).gettext(message)

    def _say(self, message: str, status: int, **fields: object) -> None:
        """End the session with `message` (a msgid, with its `fields`), in its language."""
        self._finish(f"ono99: {self.words(message).format(**fields)}\r\n".encode(), status)

    def _finish(self, message: bytes, status: int) -> None:
        self._cancel_idle_timer()
        if self._chan is None or self._closed:
            return
        try:
            if message:
                self._chan.write(message)
            self._chan.exit(status)
        except BrokenPipeError:
            pass  # the client closed the channel first (see `_send`)

    async def end(self, reason: str, **fields: object) -> None:
        """Stop the app, put the player's terminal back in order, say why (`reason`, an
        English msgid with its `fields`, said in the session's language), and close."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self._child is not None and self._child.returncode is None:
            await self._child.terminate()
        said = self.words(reason).format(**fields)
        self._finish(TERMINAL_RESET + f"ono99: {said}\r\n".encode(), 1)

    async def wait_closed(self, timeout: float = CLOSE_FLUSH_SECONDS) -> None:
        """Wait (at most `timeout` s) until the client has closed the channel, i.e. has taken
        everything sent on it: the door waits so before closing connections under them."""
        if self._chan is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._chan.wait_closed(), timeout)

    # -- idle timeout -------------------------------------------------------------------

    def _arm_idle_timer(self, delay: float | None = None) -> None:
        if self._host.idle_timeout <= 0 or self._closed:
            return
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(
            self._host.idle_timeout if delay is None else delay, self._check_idle
        )

    def _cancel_idle_timer(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    def _check_idle(self) -> None:
        # One timer re-armed for the remaining time, instead of a new timer per keypress.
        remaining = self._last_activity + self._host.idle_timeout - time.monotonic()
        if remaining > 0:
            self._arm_idle_timer(remaining)
            return
        minutes = self._host.idle_timeout / 60
        self._chore(self.end(N_("no input for {minutes} min; the session was closed."),
                             minutes=f"{minutes:g}"))

    def _chore(self, work: Coroutine[Any, Any, object]) -> None:
        """Run `work` in the background, keeping the task alive until it is done."""
        chore = asyncio.ensure_future(work)
        self._chores.add(chore)
        chore.add_done_callback(self._chores.discard)
