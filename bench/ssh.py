"""What playing through the SSH door costs, beside the same app on a plain pty.

Prints ONE JSON object. A table of four greedy bots runs in this process; the real app
(`python -m ono99tui join … --spectate`) watches it at 80×24, once on a plain pty (the
baseline: what the app itself writes) and once through the SSH door, read by an asyncssh
client through a byte-counting TCP relay. For each:

- bytes per opponent move: output while the bots play, divided by the moves they made
  (the channel payload through the door, and the encrypted bytes on the wire);
- keypress → updated screen: F1 written, until the help screen's title has arrived
  (median and p90 over several presses, table idle), and until the first byte of the answer;
- a keystroke's bare round trip: one byte echoed back by a raw-mode echo program, which
  isolates what the transport itself adds.

    python bench/ssh.py [--moves 40] [--presses 15] [--bot-delay 0.6] [--seed 7] [--echoes 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncssh

from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig
from ono99tui.ssh import DoorConfig, start_ssh_door
from ono99tui.ssh.pty_child import PtyChild, TerminalSize

COLUMNS, ROWS = 80, 24
TARGET_BYTES_PER_MOVE = 3 * 1024
F1 = b"\x1bOP"
HELP_TITLE = "How to play"
_ESCAPE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


class Recorder:
    """Everything the terminal received, when it arrived, and a way to wait on it."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.last_arrival = time.perf_counter()
        self.first_arrival_after: dict[int, float] = {}
        self._changed = asyncio.Event()

    def feed(self, data: bytes) -> None:
        self.last_arrival = time.perf_counter()
        self.data += data
        self._changed.set()

    def text_since(self, offset: int) -> str:
        return _ESCAPE.sub(b"", bytes(self.data[offset:])).decode("utf-8", "replace")

    async def wait(self, condition: Callable[[], bool], timeout: float = 30.0) -> None:
        async def until() -> None:
            while not condition():
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(until(), timeout)

    async def quiet(self, period: float = 0.4, timeout: float = 30.0) -> None:
        """Wait until nothing has arrived for *period* seconds."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() - self.last_arrival < period:
            if time.perf_counter() > deadline:
                raise TimeoutError("the app never went quiet")
            await asyncio.sleep(period / 4)


class Terminal:
    """One way of running the app: write keys to it, record what it draws."""

    recorder: Recorder
    wire_bytes: Callable[[], int] | None = None

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class PtyTerminal(Terminal):
    """The baseline: the app on a pty of its own, no SSH."""

    def __init__(self, child: PtyChild, recorder: Recorder) -> None:
        self.child, self.recorder = child, recorder

    @classmethod
    async def open(cls, argv: list[str], env: dict[str, str]) -> PtyTerminal:
        recorder = Recorder()
        child = await PtyChild.spawn(argv, env, TerminalSize(COLUMNS, ROWS))
        child.start_reading(recorder.feed)
        return cls(child, recorder)

    def write(self, data: bytes) -> None:
        self.child.write(data)

    async def close(self) -> None:
        await self.child.terminate()


class _ClientSession(asyncssh.SSHClientSession[bytes]):
    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.recorder.feed(data)


class CountingRelay:
    """A TCP relay that counts the bytes the server sends: the SSH traffic on the wire."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.downstream = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _relay(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)

        async def pump(
            reader: asyncio.StreamReader, writer: asyncio.StreamWriter, count: bool
        ) -> None:
            try:
                while data := await reader.read(65536):
                    if count:
                        self.downstream += len(data)
                    writer.write(data)
                    await writer.drain()
            except ConnectionError:
                pass
            finally:
                writer.close()

        await asyncio.gather(
            pump(client_reader, server_writer, False), pump(server_reader, client_writer, True)
        )

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()


class SshTerminal(Terminal):
    """The app through the SSH door, read by an asyncssh client via a counting relay."""

    def __init__(self, conn: asyncssh.SSHClientConnection, chan: asyncssh.SSHClientChannel[bytes],
                 recorder: Recorder, relay: CountingRelay, door: object) -> None:
        self.conn, self.chan, self.recorder = conn, chan, recorder
        self.relay, self.door = relay, door
        self.wire_bytes = lambda: relay.downstream

    @classmethod
    async def open(cls, argv: list[str], env: dict[str, str], state_dir: Path) -> SshTerminal:
        door = await start_ssh_door(DoorConfig(
            table_address="unused", host_key_path=state_dir / "host_key",
            players_dir=state_dir / "players", bind_host="127.0.0.1", open_access=True,
            command=lambda player: argv, extra_env=env,
        ))
        relay = CountingRelay(door.port)
        relay_port = await relay.start()
        recorder = Recorder()
        conn = await asyncssh.connect("127.0.0.1", relay_port, username="watcher", known_hosts=None,
                                      client_keys=None, agent_path=None)
        chan, _ = await conn.create_session(
            lambda: _ClientSession(recorder), term_type=env["TERM"], term_size=(COLUMNS, ROWS),
            encoding=None, env={"LANG": env["LANG"]},
        )
        return cls(conn, chan, recorder, relay, door)

    def write(self, data: bytes) -> None:
        self.chan.write(data)

    async def close(self) -> None:
        self.chan.close()
        self.conn.close()
        await self.conn.wait_closed()
        await self.door.close()  # type: ignore[attr-defined]
        await self.relay.close()


async def measure(open_terminal: Callable[[list[str], dict[str, str]], Awaitable[Terminal]],
                  options: argparse.Namespace, state_dir: Path) -> dict[str, float]:
    """Keypress latency on an idle table, then bytes per opponent move while bots play."""
    server = await TableServer(TableConfig(capacity=4, bot_delay=options.bot_delay,
                                           seed=options.seed)).start("127.0.0.1", 0)
    for _ in range(4):
        server.table.add_bot("greedy")
    argv = [sys.executable, "-m", "ono99tui", "join", f"127.0.0.1:{server.port}",
            "--spectate", "--name", "watcher"]
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(state_dir), "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "ONO99_CONFIG_DIR": str(state_dir / "config"),
           "ONO99_DATA_DIR": str(state_dir / "data"),
           "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    terminal = await open_terminal(argv, env)
    recorder = terminal.recorder
    try:
        await recorder.wait(lambda: "Greedy bot" in recorder.text_since(0))
        await recorder.quiet()

        answer_ms: list[float] = []
        first_byte_ms: list[float] = []
        for _ in range(options.presses):
            offset = len(recorder.data)
            pressed = time.perf_counter()
            terminal.write(F1)
            await recorder.wait(lambda offset=offset: len(recorder.data) > offset)
            first_byte_ms.append((recorder.last_arrival - pressed) * 1000)
            await recorder.wait(lambda offset=offset: HELP_TITLE in recorder.text_since(offset))
            answer_ms.append((recorder.last_arrival - pressed) * 1000)
            await recorder.quiet(0.25)
            closed_at = len(recorder.data)
            terminal.write(F1)  # close the help screen: the table is drawn again
            await recorder.wait(
                lambda closed_at=closed_at: "Greedy bot" in recorder.text_since(closed_at)
            )
            await recorder.quiet(0.25)

        # Bytes while the bots play: counted from their first move to their N+1-th.
        server.table.start()
        moves = lambda: len(server.table.journal[-1].moves) if server.table.journal else 0  # noqa: E731
        await recorder.wait(lambda: moves() >= 1, timeout=60)
        start_bytes = len(recorder.data)
        start_wire = terminal.wire_bytes() if terminal.wire_bytes else 0
        start_moves = moves()
        deadline = time.perf_counter() + 120
        while moves() < start_moves + options.moves and server.table.phase == "playing":
            if time.perf_counter() > deadline:
                break
            await asyncio.sleep(0.005)
        # Let the last counted move reach the screen, then read bytes and moves together:
        # the same seed deals the same game to both runs, so both count the same moves.
        await asyncio.sleep(options.bot_delay / 2)
        played = moves() - start_moves
        end_bytes = len(recorder.data)
        end_wire = terminal.wire_bytes() if terminal.wire_bytes else 0
        result = {
            "opponent_moves": played,
            "bytes_per_opponent_move": round((end_bytes - start_bytes) / max(played, 1)),
            "keypress_to_screen_ms_p50": round(statistics.median(answer_ms), 2),
            "keypress_to_screen_ms_p90": round(statistics.quantiles(answer_ms, n=10)[-1], 2),
            "keypress_to_first_byte_ms_p50": round(statistics.median(first_byte_ms), 2),
        }
        if terminal.wire_bytes is not None:
            result["wire_bytes_per_opponent_move"] = round((end_wire - start_wire) / max(played, 1))
        return result
    finally:
        await terminal.close()
        await server.stop()


# A raw-mode echo: isolates what the transport adds to a keystroke's round trip.
ECHO_PROGRAM = (
    "import os, tty\n"
    "tty.setraw(0)\n"
    "while data := os.read(0, 1024):\n"
    "    os.write(1, data)\n"
)


async def echo_round_trip(terminal: Terminal, count: int) -> dict[str, float]:
    """Milliseconds from writing one byte to reading it back, through *terminal*."""
    recorder = terminal.recorder
    await asyncio.sleep(0.3)  # let the echo program start and set raw mode
    times: list[float] = []
    for index in range(count):
        offset = len(recorder.data)
        byte = bytes([ord("a") + index % 26])
        sent = time.perf_counter()
        terminal.write(byte)
        await recorder.wait(lambda byte=byte, offset=offset: byte in recorder.data[offset:])
        times.append((recorder.last_arrival - sent) * 1000)
    return {
        "echo_round_trip_ms_p50": round(statistics.median(times), 3),
        "echo_round_trip_ms_p90": round(statistics.quantiles(times, n=10)[-1], 3),
    }


async def measure_echo(open_terminal: Callable[[list[str], dict[str, str]], Awaitable[Terminal]],
                       state_dir: Path, count: int) -> dict[str, float]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(state_dir), "TERM": "xterm-256color",
           "LANG": "C.UTF-8"}
    terminal = await open_terminal([sys.executable, "-c", ECHO_PROGRAM], env)
    try:
        return await echo_round_trip(terminal, count)
    finally:
        await terminal.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="opponent moves to measure")
    parser.add_argument("--presses", type=int, default=15, help="F1 presses to time")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds between bot moves (default: the host's own)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the table's deals")
    parser.add_argument("--echoes", type=int, default=200, help="bytes echoed for the round trip")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        state = Path(temporary)
        pty = await measure(PtyTerminal.open, options, state / "pty")
        ssh = await measure(
            lambda argv, env: SshTerminal.open(argv, env, state / "ssh"), options, state / "ssh"
        )
        pty.update(await measure_echo(PtyTerminal.open, state / "pty", options.echoes))
        ssh.update(await measure_echo(
            lambda argv, env: SshTerminal.open(argv, env, state / "ssh-echo"),
            state / "ssh",
            options.echoes,
        ))
    print(json.dumps({
        "terminal": f"{COLUMNS}x{ROWS} xterm-256color",
        "app": "ono99 join --spectate, 4 greedy bots",
        "bot_delay_s": options.bot_delay,
        "ssh_door": ssh,
        "plain_pty_baseline": pty,
        "target_bytes_per_opponent_move": TARGET_BYTES_PER_MOVE,
        "within_target": ssh["bytes_per_opponent_move"] <= TARGET_BYTES_PER_MOVE,
        "ssh_keypress_overhead_ms_p50": round(
            ssh["keypress_to_screen_ms_p50"] - pty["keypress_to_screen_ms_p50"], 2),
        "ssh_echo_overhead_ms_p50": round(
            ssh["echo_round_trip_ms_p50"] - pty["echo_round_trip_ms_p50"], 3),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }, indent=2))


def _exit_on_signal(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    # Killed or hung up: unwind through the `finally` blocks, which end and reap the children.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    asyncio.run(main())
