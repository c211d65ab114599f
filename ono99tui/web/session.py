"""One browser tab at the table: its websocket pumped to and from its game.

The session ends when the tab goes away (the game is hung up on, so its seat is held),
when the game exits (the page is told why: left the table, or could not start), when the
player is idle too long, or when the door closes. Each end closes the websocket with one
of the codes below, which the page (static/door.js) turns into words.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from aiohttp import WSMsgType, web

from ono99tui.web.game_process import GameProcess, capped_size

log = logging.getLogger("ono99tui.web")

# Websocket close codes (4000-4999 are the application's own), shared with static/door.js.
CLOSE_PAGE_GONE = 1000  # only logged: the page's side of the socket is already closed
CLOSE_GAME_ENDED = 4000
CLOSE_IDLE = 4008
CLOSE_REPLACED = 4009
CLOSE_DOOR_CLOSED = 4010
CLOSE_DOOR_FULL = 4029
CLOSE_START_FAILED = 4500
# A close reason must fit in 123 bytes of UTF-8.
_MAX_REASON = 120


def close_reason(text: str) -> bytes:
    """*text* as a websocket close reason: one line, cut to what the frame holds."""
    data = " ".join(text.split()).encode()
    if len(data) <= _MAX_REASON:
        return data
    return data[: _MAX_REASON - 3].decode(errors="ignore").encode() + b"..."


def failure_reason(stderr_tail: bytes, status: int | None) -> str:
    """Why the game did not start, for the page: the last line it wrote, or its status."""
    lines = [line for line in stderr_tail.decode(errors="replace").splitlines() if line.strip()]
    if lines:
        return lines[-1].strip()
    return f"it exited with status {status}" if status is not None else "it did not start"


class WebSession:
    """Runs the game for one websocket until either side ends (see the module doc)."""

    def __init__(
        self,
        websocket: web.WebSocketResponse,
        argv: Sequence[str],
        env: Mapping[str, str],
        size: tuple[int, int],
        idle_timeout: float,
        player: str,
    ) -> None:
        self.websocket = websocket
        self.player = player
        self._size = capped_size(*size)
        self._idle_timeout = idle_timeout
        self._last_activity = time.monotonic()
        self._ending: tuple[int, str] | None = None
        self._ended = asyncio.Event()
        # Set once the game is gone and the websocket closed.
        self.finished = asyncio.Event()
        self.game = GameProcess(
            argv, env, write_bytes=self._send_bytes, write_str=self._send_str,
            close=self._close_from_game)

    async def _send_bytes(self, data: bytes) -> None:
        if not self.websocket.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.websocket.send_bytes(data)

    async def _send_str(self, text: str) -> None:
        if not self.websocket.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.websocket.send_str(text)

    async def _close_from_game(self) -> None:
        self.end(CLOSE_GAME_ENDED, "the game has ended")

    def end(self, code: int, reason: str) -> None:
        """Ask the session to end, telling the page *reason* (the first reason wins)."""
        if self._ending is None:
            self._ending = (code, reason)
        self._ended.set()

    async def run(self) -> None:
        """Start the game and relay until the session ends; the game is gone afterwards."""
        try:
            await self._run()
        finally:
            self.finished.set()

    async def _run(self) -> None:
        try:
            await self.game.start(*self._size)
        except OSError as error:
            log.error("could not start the game for %s: %s", self.player, error)
            await self._close(CLOSE_START_FAILED, f"the game could not be started: {error}")
            return
        log.info("web session for %s started (pid %s)", self.player, self.game.pid)
        reader = asyncio.create_task(self._read_browser())
        game_task = self.game.relay
        idle = asyncio.create_task(self._watch_idle())
        ended = asyncio.create_task(self._ended.wait())
        waits: set[asyncio.Future[Any]] = {reader, ended, idle}
        if game_task is not None:
            waits.add(game_task)
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if game_task is not None and game_task.done() and self._ending is None:
                await self._game_finished()
            elif reader.done() and self._ending is None:
                self.end(CLOSE_PAGE_GONE, "the page was closed")
        finally:
            for task in (reader, idle, ended):
                task.cancel()
            # The tab went away, the player idled out or the door is closing: hang up.
            await self.game.hang_up()
            code, reason = self._ending or (CLOSE_GAME_ENDED, "the game has ended")
            await self._close(code, reason)
            log.info("web session for %s ended: %s", self.player, reason)

    async def _game_finished(self) -> None:
        status = await self.game.wait_exit(2.0)
        if self.game.ready:
            self.end(CLOSE_GAME_ENDED, "you have left the table")
        else:
            reason = failure_reason(self.game.stderr_tail, status)
            log.error("the game for %s failed to start: %s", self.player, reason)
            self.end(CLOSE_START_FAILED, reason)

    async def _close(self, code: int, reason: str) -> None:
        if not self.websocket.closed:
            with contextlib.suppress(ConnectionError, RuntimeError, asyncio.TimeoutError):
                await asyncio.wait_for(
                    self.websocket.close(code=code, message=close_reason(reason)), 5.0)

    async def _read_browser(self) -> None:
        """Forward what the page sends (keys, resizes, focus) until its websocket closes."""
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            await self._on_envelope(envelope)

    async def _on_envelope(self, envelope: list[object]) -> None:
        kind = envelope[0]
        data = envelope[1] if len(envelope) > 1 else None
        if kind == "stdin" and isinstance(data, str):
            self._last_activity = time.monotonic()
            await self.game.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            self._last_activity = time.monotonic()
            await self.game.set_terminal_size(*capped_size(data.get("width"), data.get("height")))
        elif kind == "ping" and isinstance(data, str):
            await self._send_str(json.dumps(["pong", data[:32]]))
        elif kind == "focus":
            await self.game.focus()
        elif kind == "blur":
            await self.game.blur()

    async def _watch_idle(self) -> None:
        if self._idle_timeout <= 0:
            await asyncio.Event().wait()  # never idle out
        while True:
            remaining = self._last_activity + self._idle_timeout - time.monotonic()
            if remaining <= 0:
                minutes = self._idle_timeout / 60
                self.end(CLOSE_IDLE, f"no input for {minutes:g} min; the session was closed")
                return
            await asyncio.sleep(remaining)
