"""One browser tab's game: the app as a child process speaking Textual's web driver protocol.

textual-serve's `AppService` frames the browser's keys and resizes for the child and the
child's output for the browser; this subclass keeps that and changes how the child is run:
an argument list (no shell) with a fixed, minimal environment instead of the server's own,
the terminal size capped, a start that fails is noticed and told, and the child is hung up
on (not asked to quit) when its tab goes away, so its seat is held as for a dropped player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Awaitable, Callable, Mapping, Sequence
from importlib.metadata import version

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from ono99tui.user_settings import CONFIG_DIR_ENV
from ono99tui.web.config import MAX_COLUMNS, MAX_ROWS, TEXTUAL_DRIVER

log = logging.getLogger("ono99tui.web")

# Variables of the host's environment the game needs to start; nothing else leaks through
# (not the door's password, not the host's locale or terminal).
INHERITED_ENV = ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV", "ONO99_MDNS_INTERFACES", "TZ")
# The prelude a Textual web driver prints before its first packet.
_READY_LINE = b"__GANGLION__\n"
# Lines of output before the prelude that are tolerated (a warning printed at start).
_PRELUDE_LINES = 10
# The end of the child's stderr kept to say why it failed.
_STDERR_KEEP = 4096
HANGUP_GRACE = 3.0


def capped_size(width: object, height: object) -> tuple[int, int]:
    """A terminal size the door allows: whole numbers within 1..MAX_COLUMNS, 1..MAX_ROWS
    (80×24 for anything that is not a number)."""

    def fit(value: object, default: int, most: int) -> int:
        try:
            number = int(value)  # type: ignore[call-overload]
        except (TypeError, ValueError, OverflowError):
            return default
        return max(1, min(number, most))

    return fit(width, 80, MAX_COLUMNS), fit(height, 24, MAX_ROWS)


def game_environment(
    config_dir: str, width: int, height: int, extra: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The game's whole environment: a fixed one, with the player's own config folder."""
    env = {name: os.environ[name] for name in INHERITED_ENV if name in os.environ}
    env.update({
        # Without a UTF-8 locale the app draws its cards in ASCII.
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
        "TEXTUAL_DRIVER": TEXTUAL_DRIVER,
        "TEXTUAL_FPS": "60",
        "TEXTUAL_COLOR_SYSTEM": "truecolor",
        "TERM_PROGRAM": "textual",
        "TERM_PROGRAM_VERSION": version("textual-serve"),
        "COLUMNS": str(width),
        "ROWS": str(height),
        CONFIG_DIR_ENV: config_dir,
        "ONO99_WEB_DOOR": "1",
    })
    env.update(extra or {})
    return env


class GameProcess(AppService):
    """The game of one tab (see the module doc); `run` returns when the child's output ends."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
    ) -> None:
        super().__init__(
            " ".join(argv), write_bytes=write_bytes, write_str=write_str, close=close,
            download_manager=DownloadManager(),
        )
        self._argv = list(argv)
        self._env = dict(env)
        self.ready = False
        self.stderr_tail = b""

    @property
    def pid(self) -> int | None:
        """The child's process id (its process group too), once started."""
        return self._process.pid if self._process is not None else None

    @property
    def relay(self) -> asyncio.Task[None] | None:
        """The task relaying the child's output (`run`), once started."""
        return self._task

    @property
    def returncode(self) -> int | None:
        """The child's exit status, or None while it runs (or before it starts)."""
        return self._process.returncode if self._process is not None else None

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = dict(self._env)
        env["COLUMNS"], env["ROWS"] = str(width), str(height)
        return env

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        width, height = capped_size(width, height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self._argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width, height),
            # Its own process group: a hang-up reaches whatever it started, too.
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def set_terminal_size(self, width: int, height: int) -> None:
        """Tell the game its new size, capped (see `capped_size`)."""
        width, height = capped_size(width, height)
        await super().set_terminal_size(width, height)

    async def on_meta(self, data: bytes) -> None:
        # The app's "exit" is followed by the end of its output, which the session acts on;
        # closing the websocket here (as textual-serve does) would lose the reason.
        if b'"exit"' in data:
            return
        await super().on_meta(data)

    async def run(self) -> None:
        """Relay the child's packets until its output ends (textual-serve's loop, but the
        child's stderr is kept for the failure page rather than printed on the host's
        stdout, and whether the app started at all is recorded in `ready`)."""
        process = self._process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout, process.stderr

        async def keep_stderr() -> None:
            while chunk := await stderr.read(4096):
                self.stderr_tail = (self.stderr_tail + chunk)[-_STDERR_KEEP:]

        stderr_task = asyncio.create_task(keep_stderr())
        try:
            for _ in range(_PRELUDE_LINES):
                line = await stdout.readline()
                if not line:
                    break
                if line == _READY_LINE:
                    self.ready = True
                    break
            if not self.ready:
                return
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    await self.on_packed(payload)
        except (asyncio.IncompleteReadError, ConnectionResetError):
            pass
        finally:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(stderr_task, 1.0)

    async def wait_exit(self, timeout: float) -> int | None:
        """Wait at most *timeout* s for the child to exit; its status, or None."""
        if self._process is None:
            return None
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(self._process.wait(), timeout)
        return None

    async def hang_up(self, grace: float = HANGUP_GRACE) -> None:
        """Hang up on the game as a closed terminal does: its input ends and its process
        group gets SIGHUP; whatever is still running after *grace* seconds is killed. The
        app then leaves the table without a goodbye, so its seat is held for the grace
        period (a tab closed by mistake can come back to it)."""
        process = self._process
        if process is None:
            return
        if self._stdin is not None:
            with contextlib.suppress(Exception):
                self._stdin.close()
        if process.returncode is None:
            self._signal_group(signal.SIGHUP)
            if await self.wait_exit(grace) is None:
                log.warning("the game (pid %d) ignored the hang-up; killing it", process.pid)
                self._signal_group(signal.SIGKILL)
                await process.wait()
        # Anything left in its group (a grandchild) goes too.
        self._signal_group(signal.SIGKILL)
        if self._task is not None:
            # The child's last output has nobody to read it; the relay may be stuck sending
            # to a page that is gone, so it is stopped rather than waited for.
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _signal_group(self, signum: int) -> None:
        if self._process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signum)
