"""What playing in a browser costs: the app through the real web door, beside same-run baselines.

Prints ONE JSON object. Tables of four greedy bots run in this process, each with the web
door that `ono99 host --web-port P --web-password X` opens (`WebDoorOptions.open`, in this
process, on loopback): the page logs in with the password and asks for a seat under a name,
as a player does; the table is full (four bots), so the game it starts (`ono99 join`, with
the door's driver `WebTableDriver`) watches. Headless Chromium (Playwright, the system's
/usr/bin/chromium; every request that is not for loopback is aborted) shows the pages. Each
page's window fits the wanted size and its websocket is passed on at exactly that size.
Measured:

- navigation → table screen: from `page.goto` until the websocket has brought the table
  screen's title, the name form filled as soon as it shows (the login is the browser
  context's, done once), on a dealt table whose bots wait (median of N navigations), beside
  textual-serve serving a minimal Textual app (one Static, Textual's stock driver) until its
  text arrives, interleaved;
- key press → drawn: F1 pressed in the page until the help screen's title has arrived over
  the websocket (p50 / p99 of N presses, on that still table), beside the minimal app's F1
  pushing a one-Static screen;
- bytes per opponent move at 80×24 and 120×40: the websocket's terminal data (binary frames,
  `framereceived`) while the bots of another table play, divided by their moves (the views
  a spectator gets); beside, watching the same moves at the same time, the app on a plain
  pty (the terminal's figure: `DiffingDriver`, 256 colours as bench/tui.py runs it, and
  truecolor as the door asks) and the app through a plain textual-serve `Server` with
  Textual's stock `WebDriver`. Target: within 1.5× of the terminal's figure;
- RSS per session: the game processes the door runs for one page, beside the processes
  textual-serve runs for one page of the minimal app (its shell and the app).

    python bench/web.py [--navigations 5] [--presses 20] [--moves 40] [--bot-delay 0.5]
                        [--seed 3] [--port 23500]
                        [--door URL --door-table HOST:PORT [--door-password X]]

The web door is one place, `serve_the_app`: by default the real door in this process;
`--door URL` uses a running door (`ono99 host --headless --web-port …`) instead, whose
table (--door-table) must be full of bots in a match, so that a page watches; its password,
if it asks one, is --door-password or ONO99_WEB_PASSWORD (its sessions' RSS is then not
measured).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.async_api import Page, Route, WebSocket, WebSocketRoute, async_playwright  # noqa: E402

from netproto.client import TableClient  # noqa: E402
from netproto.wire.messages import View  # noqa: E402
from ono99tui.host.server import TableServer  # noqa: E402
from ono99tui.host.table_config import TableConfig  # noqa: E402
from ono99tui.ssh.pty_child import PtyChild, TerminalSize  # noqa: E402
from ono99tui.web.config import TEXTUAL_DRIVER  # noqa: E402
from ono99tui.web.host_door import OpenWebDoor, WebDoorOptions  # noqa: E402

STOCK_DRIVER = "textual.drivers.web_driver:WebDriver"
SIZES = ((80, 24), (120, 40))
TARGET_RATIO_TO_TERMINAL = 1.5
TABLE_MARKER = "Greedy bot"
TABLE_SCREEN = "Draw pile"  # the table screen's title bar (not the waiting room's)
HELP_TITLE = "How to play"
MINIMAL_MARKER = "MINIMAL-READY"
MINIMAL_HELP = "MINIMAL-HELP"
# The in-process doors' web password, and the name each page sits down under.
DOOR_PASSWORD = "bench web door"
PLAYER_NAME = "watcher"
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
_ESCAPE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")

# The baseline app: what textual-serve's own examples are, one Static; F1 pushes a screen.
MINIMAL_APP = f"""
from textual.app import App
from textual.screen import Screen
from textual.widgets import Static

class Help(Screen):
    BINDINGS = [("f1", "app.pop_screen", "Close")]
    def compose(self):
        yield Static("{MINIMAL_HELP}")

class Minimal(App):
    BINDINGS = [("f1", "help", "Help")]
    def compose(self):
        yield Static("{MINIMAL_MARKER}")
    def action_help(self):
        self.push_screen(Help())

Minimal().run()
"""
SERVE = """
import sys
from textual_serve.server import Server
Server(sys.argv[2], host="127.0.0.1", port=int(sys.argv[1])).serve()
"""


# --- serving ----------------------------------------------------------------------------------


class ServedCommand:
    """A textual-serve `Server` in a child process, serving `command` (a shell command)."""

    def __init__(self, command: str, port: int, log_path: Path) -> None:
        with socket.socket() as probe:  # a server already there would answer in its place
            # As aiohttp binds: connections of an earlier run in TIME_WAIT do not count.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError as error:
                raise SystemExit(f"bench/web.py: port {port} is taken ({error}): "
                                 "give another with --port") from None
        self.port = port
        self.url = f"http://127.0.0.1:{port}/"
        self._log = log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, str(port), command], stdout=self._log,
            stderr=subprocess.STDOUT, start_new_session=True, env=app_env(log_path.parent))

    async def ready(self, timeout: float = 30.0) -> None:
        deadline = time.perf_counter() + timeout
        while True:
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                if time.perf_counter() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"textual-serve never listened on {self.port}") from None
                await asyncio.sleep(0.05)
            else:
                writer.close()
                return

    def sessions_rss_kb(self) -> list[int]:
        """RSS of each session's processes (everything the server started, by child)."""
        return [sum(rss_kb(pid) for pid in [child, *descendants(child)])
                for child in children(self.process.pid)]

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, 15)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)
                self.process.wait()
        self._log.close()


def app_env(state_dir: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "HOME": str(state_dir), "LANG": "C.UTF-8",
            "TERM": "xterm-256color", "PYTHONPATH": str(ROOT),
            "ONO99_CONFIG_DIR": str(state_dir / "config"),
            "ONO99_DATA_DIR": str(state_dir / "data"), "ONO99_MDNS_INTERFACES": "127.0.0.1"}


def join_command(table_port: int, driver: str) -> str:
    """The shell command textual-serve runs per page: `ono99 join` of the table, with
    `driver` (the stock-driver baseline; the door builds its own argument list)."""
    argv = [sys.executable, "-m", "ono99tui", "join", f"127.0.0.1:{table_port}", "--spectate",
            "--name", PLAYER_NAME]
    return f"TEXTUAL_DRIVER={driver} exec {shlex.join(argv)}"


class DoorPage:
    """The address of a web door's page, its password, and (for a door this script opened)
    the door, whose sessions' game processes it can see."""

    def __init__(self, url: str, password: str | None, door: OpenWebDoor | None) -> None:
        self.url = url
        self.password = password
        self.door = door

    def sessions_rss_kb(self) -> list[int]:
        """RSS of each session's game (with anything it started)."""
        if self.door is None:
            return []
        pids = [session.game.pid for session in self.door.door.sessions.values()]
        return [sum(rss_kb(p) for p in [pid, *descendants(pid)]) for pid in pids if pid]


@contextlib.asynccontextmanager
async def serve_the_app(options: argparse.Namespace, table_port: int, port: int,
                        state_dir: Path) -> AsyncIterator[DoorPage]:
    """The web door's page onto the table at `table_port`.

    THE place that picks the web door: a running door given by --door (it serves its own
    table, --door-table), else the real door opened in this process as `ono99 host
    --web-port PORT --web-password X` opens it once its table listens (`WebDoorOptions`).
    """
    if options.door:
        yield DoorPage(options.door, options.door_password, None)
        return
    door_options = WebDoorOptions(port=port, bind_host="127.0.0.1", password=DOOR_PASSWORD,
                                  table_name="bench", players_dir=state_dir / f"door-{port}")
    problem = door_options.problem()
    if problem is not None:
        raise SystemExit(f"bench/web.py: {problem}")
    try:
        door = await door_options.open(table_port)
    except OSError as error:
        raise SystemExit(f"bench/web.py: cannot open the web door on port {port} ({error}): "
                         "give another with --port") from None
    try:
        yield DoorPage(f"http://127.0.0.1:{door.port}/", DOOR_PASSWORD, door)
    finally:
        await door.close()


def door_environment() -> None:
    """What the door's games inherit from this process (as from a host's): this checkout on
    PYTHONPATH, and mDNS kept to loopback."""
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    os.environ["ONO99_MDNS_INTERFACES"] = "127.0.0.1"


def children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(p) for p in (task / "children").read_text().split()]
    return found


def descendants(pid: int) -> list[int]:
    below = children(pid)
    return below + [d for child in below for d in descendants(child)]


def rss_kb(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# --- the browser ------------------------------------------------------------------------------


class Tab:
    """One page showing an app; counts the terminal data its websocket receives."""

    def __init__(self, page: Page, size: tuple[int, int]) -> None:
        self.page = page
        self.size = size
        self.page_size: tuple[int, int] | None = None  # the size the page itself asked for
        self.data_bytes = 0
        self.text = ""
        self.last_arrival = time.perf_counter()
        self._changed = asyncio.Event()
        page.on("websocket", self._on_websocket)

    @classmethod
    async def open(cls, context: Any, cell: tuple[float, float], size: tuple[int, int]) -> Tab:
        """A new page whose window fits `size` cells of `cell` pixels."""
        page = await context.new_page()
        await page.set_viewport_size(window_for(cell, size))
        tab = cls(page, size)
        await page.route("**/*", _loopback_only)
        # textual-serve's /ws, the door's /ws/SEAT.
        await page.route_web_socket(re.compile(r"/ws(/[^/?]+)?(\?|$)"), tab._exact_size)
        return tab

    async def visit(self, url: str, door: DoorPage | None = None) -> None:
        """Open `url`; on a door's page, come in as a player does (`sit_down`)."""
        await self.page.goto(url)
        if door is not None:
            await sit_down(self.page, door)

    def _exact_size(self, ws: WebSocketRoute) -> None:
        """Connect the page's websocket through, at exactly this tab's size: the page fits
        its terminal to the window, which the viewport only approximates; a resize from the
        page is sent on as this size (its own is kept in `page_size`)."""
        server = ws.connect_to_server()
        query = parse_qs(urlparse(ws.url).query)
        with contextlib.suppress(KeyError, ValueError, IndexError):
            self.page_size = (int(query["width"][0]), int(query["height"][0]))
        width, height = self.size

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and message.startswith('["resize"'):
                message = json.dumps(["resize", {"width": width, "height": height}])
            server.send(message)

        ws.on_message(from_page)
        if self.page_size != self.size:
            server.send(json.dumps(["resize", {"width": width, "height": height}]))

    def _on_websocket(self, websocket: WebSocket) -> None:
        websocket.on("framereceived", self._on_frame)

    def _on_frame(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):  # terminal data (text frames are JSON meta)
            self.data_bytes += len(payload)
            self.text += _ESCAPE.sub("", payload.decode("utf-8", "replace"))
            self.last_arrival = time.perf_counter()
            self._changed.set()

    async def wait_for_text(self, marker: str, since: int = 0, timeout: float = 60.0) -> None:
        async def until() -> None:
            while marker not in self.text[since:]:
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(until(), timeout)

    async def quiet(self, period: float = 0.3, timeout: float = 30.0) -> None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() - self.last_arrival < period:
            if time.perf_counter() > deadline:
                raise TimeoutError("the page never went quiet")
            await asyncio.sleep(period / 4)

    async def press(self, key: str) -> None:
        await self.page.focus(".xterm-helper-textarea")
        await self.page.keyboard.press(key)


def window_for(cell: tuple[float, float], size: tuple[int, int]) -> dict[str, int]:
    """A viewport in which the page's terminal fits `size` cells (half a cell to spare)."""
    return {"width": int((size[0] + 0.5) * cell[0]), "height": int((size[1] + 0.5) * cell[1])}


async def sit_down(page: Page, door: DoorPage) -> None:
    """On a door's page: the password, if the login page shows, then a name, as a player
    gives them (the table is full of bots, so the game it starts watches)."""
    await page.locator("#password, #name").first.wait_for(state="visible", timeout=60_000)
    if await page.locator("#password").count():
        if not door.password:
            raise SystemExit("bench/web.py: the door asks a password: give --door-password "
                             "or set ONO99_WEB_PASSWORD")
        await page.fill("#password", door.password)
        await page.click("button[type=submit]")
        await page.locator("#name").wait_for(state="visible", timeout=60_000)
    await page.fill("#name", PLAYER_NAME)
    await page.press("#name", "Enter")


async def measure_cell(context: Any, url: str, door: DoorPage | None = None
                       ) -> tuple[float, float]:
    """The size of one character cell in the page, in CSS pixels: from the terminal size
    the page asks for in a window of known size."""
    page = await context.new_page()
    await page.set_viewport_size({"width": 1200, "height": 800})
    await page.route("**/*", _loopback_only)
    async with page.expect_websocket(timeout=60_000) as opened:
        await page.goto(url)
        if door is not None:
            await sit_down(page, door)
    query = parse_qs(urlparse((await opened.value).url).query)
    columns, rows = int(query["width"][0]), int(query["height"][0])
    await page.close()
    return 1200 / (columns + 0.5), 800 / (rows + 0.5)


async def _loopback_only(route: Route) -> None:
    if urlparse(route.request.url).hostname in LOOPBACK:
        await route.continue_()
    else:
        await route.abort()


async def navigation_ms(context: Any, cell: tuple[float, float], url: str, marker: str,
                        door: DoorPage | None = None) -> float:
    """Milliseconds from `page.goto` until `marker` has arrived over the websocket (on a
    door's page, with the name given as soon as its form shows)."""
    tab = await Tab.open(context, cell, SIZES[0])
    started = time.perf_counter()
    await tab.visit(url, door)
    await tab.wait_for_text(marker)
    elapsed = (time.perf_counter() - started) * 1000
    await tab.page.close()
    return elapsed


async def keypress_ms(tab: Tab, marker: str, back: str, presses: int) -> list[float]:
    """Milliseconds from F1 until `marker` has arrived, for each of `presses` presses."""
    times = []
    await tab.quiet()
    for _ in range(presses):
        since = len(tab.text)
        pressed = time.perf_counter()
        await tab.press("F1")
        await tab.wait_for_text(marker, since)
        times.append((tab.last_arrival - pressed) * 1000)
        await tab.quiet(0.2)
        since = len(tab.text)
        await tab.press("F1")  # close it again
        await tab.wait_for_text(back, since)
        await tab.quiet(0.2)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


# --- the run ----------------------------------------------------------------------------------


async def bot_table(bot_delay: float, seed: int, started: bool) -> TableServer:
    """A table of four greedy bots on 127.0.0.1 (any port)."""
    server = await TableServer(TableConfig(capacity=4, bot_delay=bot_delay, seed=seed)).start(
        "127.0.0.1", 0)
    for _ in range(4):
        server.table.add_bot("greedy")
    if started:
        server.table.start()
    return server


class MoveCounter:
    """Views a spectator of the table receives: one per move while bots play."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.views = 0
        self._task = asyncio.create_task(self._count())

    async def _count(self) -> None:
        async for item in self.client:
            if isinstance(item, View):
                self.views += 1

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        await self.client.close()


class Where(NamedTuple):
    """Where a page is opened: its browser context (a door's login cookie is per host, not
    per port: each door gets a context of its own), the cell size of its page's font, its
    address, and the door when it is one."""

    context: Any
    cell: tuple[float, float]
    url: str
    door: DoorPage | None = None


async def bytes_per_move(options: argparse.Namespace, pages: dict[str, Where],
                         table: tuple[str, int], playing_table: TableServer | None,
                         state_dir: Path) -> dict[str, object]:
    """Every way of watching (the door's page, textual-serve with the stock driver, a
    pty), at both sizes, the same moves: bytes each got per move. Starts the local table's
    match if there is one."""
    play_host, play_port = table
    result: dict[str, object] = {}
    terminals: list[tuple[str, str, PtyChild, list[int]]] = []
    async with contextlib.AsyncExitStack() as stack:
        watchers: dict[str, Tab] = {}
        for width, height in SIZES:
            for kind, where in pages.items():
                tab = await Tab.open(where.context, where.cell, (width, height))
                await tab.visit(where.url, where.door)
                watchers[f"{kind}_{width}x{height}"] = tab
            # The terminal's figure as bench/tui.py measures it (256 colours), and with the
            # truecolor that textual-serve always asks for.
            for colours, extra in (("", {}), ("_truecolor", {"COLORTERM": "truecolor"})):
                received: list[int] = []
                child = await PtyChild.spawn(
                    [sys.executable, "-m", "ono99tui", "join", f"{play_host}:{play_port}",
                     "--spectate", "--name", PLAYER_NAME],
                    {**app_env(state_dir), **extra}, TerminalSize(width, height))
                child.start_reading(lambda data, received=received: received.append(len(data)))
                terminals.append((f"{width}x{height}", colours, child, received))
                stack.push_async_callback(child.terminate)
        for tab in watchers.values():
            await tab.wait_for_text(TABLE_MARKER)
        for tab in watchers.values():
            await tab.quiet()
        counter = MoveCounter(await TableClient.connect(play_host, play_port, name="counter",
                                                        spectate=True))
        stack.push_async_callback(counter.close)
        if playing_table is not None:
            playing_table.table.start()
        first_move_by = time.perf_counter() + 30
        while counter.views < 2:  # the deal, then the first move
            if time.perf_counter() > first_move_by:
                raise SystemExit(f"bench/web.py: no move at {play_host}:{play_port} within 30 s "
                                 "(a --door-table must be in a match)")
            await asyncio.sleep(0.005)
        start_moves = counter.views
        start = {name: tab.data_bytes for name, tab in watchers.items()}
        start_terminal = [sum(received) for *_, received in terminals]
        # Until enough moves, or the match is over (no move for 10 bot delays: a door's table
        # is not this script's to ask).
        last_move, last_views = time.perf_counter(), counter.views
        while counter.views < start_moves + options.moves:
            if counter.views != last_views:
                last_move, last_views = time.perf_counter(), counter.views
            if time.perf_counter() - last_move > 10 * options.bot_delay + 5:
                break
            if playing_table is not None and playing_table.table.phase != "playing":
                break
            await asyncio.sleep(0.005)
        # Let the last counted move reach every screen, then read bytes and moves together.
        await asyncio.sleep(options.bot_delay / 2)
        played = max(counter.views - start_moves, 1)
        result["opponent_moves"] = played
        if played < options.moves:
            result["opponent_moves_note"] = "the match ended first"
        for (size, colours, _, received), started in zip(terminals, start_terminal, strict=True):
            result[f"terminal{colours}_bytes_per_opponent_move_{size}"] = round(
                (sum(received) - started) / played)
        for width, height in SIZES:
            size = f"{width}x{height}"
            web = round((watchers[f"web_{size}"].data_bytes - start[f"web_{size}"]) / played)
            stock = round(
                (watchers[f"web_stock_{size}"].data_bytes - start[f"web_stock_{size}"]) / played)
            terminal = result[f"terminal_bytes_per_opponent_move_{size}"]
            assert isinstance(terminal, int)
            result.update({
                f"bytes_per_opponent_move_{size}": web,
                f"stock_web_driver_bytes_per_opponent_move_{size}": stock,
                f"ratio_to_terminal_{size}": round(web / max(terminal, 1), 2),
            })
        result["page_sizes_exact"] = all(tab.page_size == tab.size for tab in watchers.values())
        for tab in watchers.values():
            await tab.page.close()
    return result


async def run(options: argparse.Namespace) -> dict[str, object]:
    state_dir = Path(tempfile.mkdtemp(prefix="ono99-bench-web-"))
    port = options.port
    result: dict[str, object] = {"web_door": "an external door (--door)" if options.door else
                                  "the real door, in process (WebDoorOptions.open)",
                                  "door_driver": TEXTUAL_DRIVER}
    door_environment()
    async with contextlib.AsyncExitStack() as stack:
        # An idle table (dealt, bots waiting an hour): the table screen holds still for
        # navigation and key presses. A playing one for the bytes per move.
        idle = await bot_table(3600.0, options.seed, started=True)
        stack.push_async_callback(idle.stop)
        playing_table: TableServer | None = None
        if options.door:
            play_host, _, play_port_text = options.door_table.rpartition(":")
            play_port = int(play_port_text)
        else:
            playing_table = await bot_table(options.bot_delay, options.seed, started=False)
            stack.push_async_callback(playing_table.stop)
            play_host, play_port = "127.0.0.1", playing_table.port
        idle_door = await stack.enter_async_context(
            serve_the_app(options, idle.port, port, state_dir))
        play_door = await stack.enter_async_context(
            serve_the_app(options, play_port, port + 1, state_dir))
        stock = ServedCommand(join_command(play_port, STOCK_DRIVER), port + 2,
                              state_dir / "serve-stock.log")
        stack.callback(stock.stop)
        minimal = ServedCommand(f"exec {shlex.join([sys.executable, '-c', MINIMAL_APP])}",
                                port + 3, state_dir / "serve-minimal.log")
        stack.callback(minimal.stop)
        await stock.ready()
        await minimal.ready()

        playwright = await stack.enter_async_context(async_playwright())
        browser = await playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"], headless=True)
        stack.push_async_callback(browser.close)
        serve_context = await browser.new_context()
        idle_context = await browser.new_context()
        play_context = await browser.new_context()
        serve_cell = await measure_cell(serve_context, minimal.url)
        door_cell = await measure_cell(idle_context, idle_door.url, idle_door)  # logs in
        idle_page = Where(idle_context, door_cell, idle_door.url, idle_door)
        minimal_page = Where(serve_context, serve_cell, minimal.url)

        # First, while a door's table is surely still in its match.
        result.update(await bytes_per_move(
            options, {"web": Where(play_context, door_cell, play_door.url, play_door),
                      "web_stock": Where(serve_context, serve_cell, stock.url)},
            (play_host, play_port), playing_table, state_dir))
        result["ratio_to_terminal_target"] = TARGET_RATIO_TO_TERMINAL

        # Navigation → table screen; the baseline interleaved with the app.
        app_nav, minimal_nav = [], []
        for _ in range(options.navigations):
            minimal_nav.append(await navigation_ms(*minimal_page[:3], MINIMAL_MARKER))
            app_nav.append(await navigation_ms(*idle_page[:3], TABLE_SCREEN, idle_door))
        result.update({
            "navigation_to_table_ms_p50": round(statistics.median(app_nav), 1),
            "minimal_app_navigation_ms_p50": round(statistics.median(minimal_nav), 1),
        })

        # Key press → drawn, on the still table.
        app_tab = await Tab.open(idle_context, door_cell, SIZES[0])
        await app_tab.visit(idle_door.url, idle_door)
        await app_tab.wait_for_text(TABLE_SCREEN)
        app_keys = await keypress_ms(app_tab, HELP_TITLE, TABLE_MARKER, options.presses)
        minimal_tab = await Tab.open(serve_context, serve_cell, SIZES[0])
        await minimal_tab.visit(minimal.url)
        await minimal_tab.wait_for_text(MINIMAL_MARKER)
        minimal_keys = await keypress_ms(minimal_tab, MINIMAL_HELP, MINIMAL_MARKER,
                                         options.presses)
        result.update({
            "keypress_to_drawn_ms_p50": round(percentile(app_keys, 0.5), 1),
            "keypress_to_drawn_ms_p99": round(percentile(app_keys, 0.99), 1),
            "minimal_app_keypress_to_drawn_ms_p50": round(percentile(minimal_keys, 0.5), 1),
            "minimal_app_keypress_to_drawn_ms_p99": round(percentile(minimal_keys, 0.99), 1),
        })
        door_rss = idle_door.sessions_rss_kb()
        if door_rss:  # a running door's sessions are not this script's to see
            result["rss_per_session_kb"] = round(statistics.median(door_rss))
        result["minimal_app_rss_per_session_kb"] = round(
            statistics.median(minimal.sessions_rss_kb()))

    return result


def _exit_on_signal(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navigations", type=int, default=5, help="page loads of each app")
    parser.add_argument("--presses", type=int, default=20, help="F1 presses to time")
    parser.add_argument("--moves", type=int, default=40, help="opponent moves to count")
    parser.add_argument("--bot-delay", type=float, default=0.5, help="seconds before a bot moves")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--port", type=int, default=23500,
                        help="first of four loopback ports: two doors, then textual-serve "
                             "twice (default 23500)")
    parser.add_argument("--door", metavar="URL",
                        help="a running web door's page instead of this script's doors; its "
                             "table, --door-table, must be full of bots in a match")
    parser.add_argument("--door-table", metavar="HOST:PORT", help="the table --door serves")
    parser.add_argument("--door-password", default=os.environ.get("ONO99_WEB_PASSWORD"),
                        help="--door's web password (default: $ONO99_WEB_PASSWORD)")
    options = parser.parse_args()
    # Killed or hung up: unwind through the exit stack, which stops every server it started.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    if options.door and not options.door_table:
        parser.error("--door needs --door-table")
    result: dict[str, object] = {
        "benchmark": "web",
        "python": platform.python_version(),
        "command": "python bench/web.py " + " ".join(sys.argv[1:]),
    }
    result.update(asyncio.run(run(options)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
