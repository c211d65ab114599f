"""The Textual app in a real pseudo-terminal: start-up time and bytes per opponent move.

Prints ONE JSON object with, measured in the same run:

- first paint: from process start to the first frame showing the table (`ono99 solo`),
  beside a minimal Textual app (one Static) started the same way; medians of N runs each,
  interleaved so both see the same machine load.
- bytes per opponent move: the app at 80x24 in a pty, seated at a table this process serves
  on 127.0.0.1 with three bots; every byte the app writes to the terminal is attributed to
  the move (opponent's or the player's own) it follows. The player's moves are key presses
  written to the pty, chosen from the table's own state.

    python bench/tui.py [--runs 5] [--moves 60] [--seed 3]

Targets (docs/UI.md): first paint within 2x the minimal app, at most 3 KB per opponent move.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import os
import platform
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from ono99tui.game import PlayerView

COLUMNS, ROWS = 80, 24
FIRST_PAINT_TARGET_RATIO = 2.0
BYTES_PER_MOVE_TARGET = 3 * 1024
# Bots wait this long before playing, so each move's repaint is over before the next one.
BOT_DELAY = 0.35
CHILD_ENV = {
    "TERM": "xterm-256color",
    "LANG": "C.UTF-8",
    "PYTHONPATH": str(ROOT),
    "PATH": os.environ.get("PATH", ""),
    "HOME": os.environ.get("HOME", "/tmp"),
    "ONO99_CONFIG_DIR": "/tmp/ono99-bench-config",
    "ONO99_DATA_DIR": "/tmp/ono99-bench-data",
}

MINIMAL_APP = """
from textual.app import App
from textual.widgets import Static

class Minimal(App):
    def compose(self):
        yield Static("MINIMAL-READY")

Minimal().run()
"""

# The real app, seated at the table this benchmark serves (what `ono99 join HOST:PORT` opens,
# without the lobby in between).
SEATED_APP = """
import sys
from netproto.client import TableClient
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.table import TableScreen

port = int(sys.argv[1])
Ono99App(lambda: TableClient.connect("127.0.0.1", port, name="bench"),
         start_screen=TableScreen, ascii_glyphs=False).run()
"""


class PtyChild:
    """A process on the slave side of a new pty sized COLUMNS x ROWS; we hold the master."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=CHILD_ENV, cwd=ROOT,
            start_new_session=True, close_fds=True,
        )
        os.close(slave)
        os.set_blocking(self.master, False)

    def read(self) -> bytes:
        """Whatever the child wrote since the last read (b"" if nothing)."""
        try:
            return os.read(self.master, 1 << 16)
        except (BlockingIOError, OSError):
            return b""

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def stop(self) -> None:
        """End the child and reap it, whatever state it is in; then close the master."""
        try:
            if self.process.poll() is None:
                try:
                    os.killpg(self.process.pid, signal.SIGTERM)
                    self.process.wait(5)
                except ProcessLookupError:
                    pass
                except subprocess.TimeoutExpired:
                    pass
        finally:
            # Whatever happened above (even KeyboardInterrupt), never leave the child behind.
            if self.process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            if self.master >= 0:
                os.close(self.master)
                self.master = -1


def time_to_marker(argv: list[str], marker: bytes, timeout: float = 30.0) -> float:
    """Seconds from spawning `argv` in a pty until `marker` appears in its output."""
    child = PtyChild(argv)
    seen = b""
    try:
        deadline = child.started + timeout
        while time.perf_counter() < deadline:
            chunk = child.read()
            if chunk:
                seen += chunk
                if marker in seen:
                    return time.perf_counter() - child.started
            else:
                time.sleep(0.001)
        raise RuntimeError(f"{argv[:3]} never showed {marker!r}")
    finally:
        child.stop()


def first_paint(runs: int) -> dict[str, float]:
    """Median first-paint times of `ono99 solo` and of the minimal app."""
    solo = [sys.executable, "-m", "ono99tui", "solo", "--bots", "3", "--bot-delay", "30"]
    minimal = [sys.executable, "-c", MINIMAL_APP]
    solo_times, minimal_times = [], []
    for _ in range(runs):
        minimal_times.append(time_to_marker(minimal, b"MINIMAL-READY"))
        solo_times.append(time_to_marker(solo, b" Seats "))
    solo_ms = statistics.median(solo_times) * 1000
    minimal_ms = statistics.median(minimal_times) * 1000
    return {
        "solo_first_paint_ms": round(solo_ms, 1),
        "minimal_app_first_paint_ms": round(minimal_ms, 1),
        "first_paint_ratio": round(solo_ms / minimal_ms, 2),
        "first_paint_target_ratio": FIRST_PAINT_TARGET_RATIO,
    }


async def bytes_per_move(moves_wanted: int, seed: int, timeout: float) -> dict[str, object]:
    """Serve a table, seat the app in a pty, play until `moves_wanted` opponent moves."""
    from ono99tui.game import MATCH_OVER, view
    from ono99tui.host.server import TableServer
    from ono99tui.host.table_config import TableConfig

    config = TableConfig(name="bench", capacity=4, seed=seed, bot_delay=BOT_DELAY)
    async with TableServer(config) as server:
        table = server.table
        child = PtyChild([sys.executable, "-c", SEATED_APP, str(server.port)])
        # (time, bytes) of every read, and (time, seat) of every move the table applied.
        output: list[tuple[float, int]] = []
        moves: list[tuple[float, int]] = []
        keys: list[float] = []
        rematches: list[float] = []
        unusual_moves: set[int] = set()
        loop = asyncio.get_running_loop()

        def drain() -> None:
            chunk = child.read()
            if chunk:
                output.append((time.perf_counter(), len(chunk)))

        try:
            loop.add_reader(child.master, drain)
            deadline = time.perf_counter() + timeout
            while not table.seats:
                await asyncio.sleep(0.01)
            for _ in range(3):
                table.add_bot("greedy")
            table.start()
            seen = 0
            opponent_moves = 0
            while opponent_moves < moves_wanted and time.perf_counter() < deadline:
                await asyncio.sleep(0.01)
                record = table.journal[-1]
                for move in record.moves[seen:]:
                    if seen == 0 and rematches:
                        # The first move of a rematch also repaints the screen for the deal.
                        unusual_moves.add(len(moves))
                    moves.append((time.perf_counter(), move["seat"]))
                    opponent_moves += move["seat"] != 0
                    seen += 1
                state = table.state
                if table.phase != "playing" or state is None or state.phase == MATCH_OVER:
                    # The last move also painted the match-end screen: not a typical move either.
                    if moves:
                        unusual_moves.add(len(moves) - 1)
                    await asyncio.sleep(0.5)
                    rematches.append(time.perf_counter())
                    table.start()  # a rematch, dealt from the table's next seed
                    seen = 0
                    continue
                player = view(state, 0)
                if player.legal_moves and time.perf_counter() - max(
                    [t for t, _ in moves[-1:]] + [t for t in keys[-1:]] + [0.0]
                ) > 0.3:
                    key = _key_for(player)
                    keys.append(time.perf_counter())
                    child.write(key)
            await asyncio.sleep(0.5)
        finally:
            loop.remove_reader(child.master)
            child.stop()

    # Each window runs from one move (or key press, or rematch deal) to the next one.
    boundaries = sorted(
        [(t, seat if i not in unusual_moves else -2) for i, (t, seat) in enumerate(moves)]
        + [(t, -1) for t in keys]
        + [(t, -3) for t in rematches]
    )
    # Windows before the first key press hold the first paint of the whole screen.
    first_key = keys[0] if keys else float("inf")
    per_opponent, per_own = [], []
    for index, (start, seat) in enumerate(boundaries):
        if seat < 0 or start < first_key:
            continue
        end = boundaries[index + 1][0] if index + 1 < len(boundaries) else float("inf")
        written = sum(n for t, n in output if start <= t < end)
        (per_opponent if seat != 0 else per_own).append(written)
    return {
        "terminal": f"{COLUMNS}x{ROWS}",
        "opponent_moves": len(per_opponent),
        "bytes_per_opponent_move_mean": round(statistics.mean(per_opponent)),
        "bytes_per_opponent_move_median": round(statistics.median(per_opponent)),
        "bytes_per_opponent_move_max": max(per_opponent),
        "bytes_per_own_move_mean": round(statistics.mean(per_own)) if per_own else None,
        "matches_ended": len(rematches),
        "bytes_per_opponent_move_target": BYTES_PER_MOVE_TARGET,
    }


def _key_for(player: PlayerView) -> bytes:
    """The key that makes the player's first legal move (a number key, or s for the swap)."""
    from ono99tui.game import Play, SwapFour

    for index, card in enumerate(player.hand):
        if any(isinstance(m, Play) and m.card == card for m in player.legal_moves):
            return str(index + 1).encode()
    if any(isinstance(m, SwapFour) for m in player.legal_moves):
        return b"s"
    return b"d"


def _exit_on_signal(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="start-ups of each app (default 5)")
    parser.add_argument(
        "--moves", type=int, default=60, help="opponent moves to measure (default 60)"
    )
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    # Killed or hung up: unwind through the `finally` blocks, which reap the pty children.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    result: dict[str, object] = {
        "benchmark": "tui",
        "python": platform.python_version(),
        "command": "python bench/tui.py " + " ".join(sys.argv[1:]),
    }
    result.update(first_paint(args.runs))
    result.update(asyncio.run(bytes_per_move(args.moves, args.seed, args.timeout)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
