"""What a browser player costs through the web door, beside an 80×24 baseline and beside
textual-serve's stock behaviour (no size cap).

Prints ONE JSON object. For each case a table of four greedy bots runs in this process and
the real app (`ono99 join … --spectate`) watches it, driven over a websocket by an aiohttp
client as a browser's page would drive it:

- `door_80x24`: through the web door at 80×24 (the baseline);
- `door_asks_3000x1500`: through the web door, asking for 3000×1500 (capped by the door);
- `stock_3000x1500`: textual-serve's own `AppService` at 3000×1500, as its stock server runs
  any size a page asks for.

For each: seconds until the table is on screen, bytes sent to the page while the bots make
`--moves` moves (and per move), and the app's peak memory (VmHWM) and CPU seconds. With
`--browser` (needs /usr/bin/chromium and playwright) the door's page is also loaded in
headless chromium: requests, bytes, requests to anything but loopback, and seconds until
the table is drawn.

    python bench/web_caps.py [--moves 30] [--bot-delay 0.3] [--seed 7] [--browser]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from ono99tui.host.server import TableServer
from ono99tui.host.table_config import TableConfig
from ono99tui.web.config import WebDoorConfig
from ono99tui.web.server import WebDoor

_ESCAPE = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
TABLE_DRAWN = "Greedy bot"
REPO = Path(__file__).resolve().parent.parent


def plain(data: bytes) -> str:
    return _ESCAPE.sub(b"", data).decode("utf-8", "replace")


def process_figures(pid: int) -> dict[str, float]:
    """Peak resident memory (MB) and CPU seconds (user + system) of process *pid*."""
    status = Path(f"/proc/{pid}/status").read_text()
    peak_kb = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return {"peak_rss_mb": round(peak_kb / 1024, 1),
            "cpu_s": round((int(fields[11]) + int(fields[12])) / ticks, 2)}


class Screen:
    """Bytes the page received, and waiting for text in them."""

    def __init__(self) -> None:
        self.data = bytearray()

    async def feed(self, data: bytes) -> None:
        self.data += data

    async def wait_for(self, text: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in plain(bytes(self.data)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"{text!r} not on screen")
            await asyncio.sleep(0.01)


def join_argv(port: int) -> list[str]:
    return [sys.executable, "-m", "ono99tui", "join", f"127.0.0.1:{port}", "--spectate",
            "--name", "watcher"]


async def bot_table(options: argparse.Namespace) -> TableServer:
    server = await TableServer(TableConfig(capacity=4, bot_delay=options.bot_delay,
                                           seed=options.seed)).start("127.0.0.1", 0)
    for _ in range(4):
        server.table.add_bot("greedy")
    return server


async def watch(server: TableServer, screen: Screen, pid: Callable[[], int],
                options: argparse.Namespace, started: float) -> dict[str, float]:
    await screen.wait_for(TABLE_DRAWN)
    drawn = time.monotonic() - started
    server.table.start()

    def moves() -> int:
        return len(server.table.journal[-1].moves) if server.table.journal else 0

    deadline = time.monotonic() + 120
    while moves() < 1 and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    first_bytes, first_moves = len(screen.data), moves()
    while moves() < first_moves + options.moves and server.table.phase == "playing":
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.005)
    await asyncio.sleep(options.bot_delay / 2)  # the last counted move reaches the screen
    played = moves() - first_moves
    sent = len(screen.data) - first_bytes
    return {"seconds_to_table": round(drawn, 2), "opponent_moves": played,
            "bytes_sent": sent, "bytes_per_move": round(sent / max(played, 1)),
            **process_figures(pid())}


async def through_door(options: argparse.Namespace, width: int, height: int,
                       state: Path) -> dict[str, float]:
    server = await bot_table(options)
    config = WebDoorConfig(table_address="unused", players_dir=state / f"players-{width}",
                           bind_host="127.0.0.1", open_access=True,
                           command=lambda player: join_argv(server.port))
    screen = Screen()
    try:
        async with WebDoor(config) as door, aiohttp.ClientSession() as client:
            base = f"http://127.0.0.1:{door.port}"
            origin = {"Origin": base}
            started = time.monotonic()
            async with client.post(f"{base}/seat", json={"name": "watcher"},
                                   headers=origin) as response:
                seat = (await response.json())["seat"]
            socket = await client.ws_connect(f"{base}/ws/{seat}?width={width}&height={height}",
                                             headers=origin)

            async def pump() -> None:
                async for message in socket:
                    if message.type == aiohttp.WSMsgType.BINARY:
                        await screen.feed(message.data)

            pumping = asyncio.create_task(pump())
            session = next(iter(door.sessions.values()))
            figures = await watch(server, screen, lambda: session.game.pid or 0, options, started)
            await socket.close()
            pumping.cancel()
            return figures
    finally:
        await server.stop()


async def stock_service(options: argparse.Namespace, width: int, height: int,
                        state: Path) -> dict[str, float]:
    server = await bot_table(options)
    screen = Screen()
    # textual-serve runs its command through a shell, in the server's own environment.
    os.environ.update({"LANG": "C.UTF-8", "ONO99_CONFIG_DIR": str(state / "stock"),
                       "PYTHONPATH": str(REPO)})

    async def nothing(*_: Any) -> None:
        return None

    # "exec": the shell becomes the app, so the figures are the app's and killing it ends it.
    service = AppService("exec " + " ".join(join_argv(server.port)), write_bytes=screen.feed,
                         write_str=nothing, close=nothing, download_manager=DownloadManager())
    started = time.monotonic()
    try:
        await service.start(width, height)
        process = service._process
        assert process is not None
        return await watch(server, screen, lambda: process.pid, options, started)
    finally:
        if service._process is not None and service._process.returncode is None:
            service._process.kill()
            await service._process.wait()
        await server.stop()


def browser_figures(options: argparse.Namespace, state: Path) -> dict[str, Any]:
    """Load the door's page in headless chromium (run in a thread: Playwright's sync API)."""
    from playwright.sync_api import sync_playwright

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(bot_table(options))
    config = WebDoorConfig(table_address="unused", players_dir=state / "browser",
                           bind_host="127.0.0.1", open_access=True,
                           command=lambda player: join_argv(server.port))
    door = WebDoor(config)
    import threading

    loop.run_until_complete(door.start())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    requests: list[str] = []
    outside: list[str] = []
    sizes: list[int] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 args=["--no-sandbox"], headless=True)
            page = browser.new_page(viewport={"width": 1280, "height": 800})

            def route(route: Any) -> None:
                requests.append(route.request.url)
                if route.request.url.startswith(f"http://127.0.0.1:{door.port}/"):
                    route.continue_()
                else:
                    outside.append(route.request.url)
                    route.abort()

            page.route("**/*", route)
            page.on("response", lambda response: sizes.append(len(response.body())))
            started = time.monotonic()
            page.goto(f"http://127.0.0.1:{door.port}/")
            page.fill("#name", "watcher")
            page.press("#name", "Enter")
            page.wait_for_function("() => document.body.classList.contains('-first-byte')",
                                   timeout=60000)
            first_byte = time.monotonic() - started
            browser.close()
    finally:
        asyncio.run_coroutine_threadsafe(door.close(), loop).result(30)
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
    return {"requests": len(requests), "bytes": sum(sizes), "outside_requests": len(outside),
            "seconds_to_first_screen": round(first_byte, 2)}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="opponent moves to measure")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--browser", action="store_true", help="also load the page in chromium")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ono99-bench-web-") as directory:
        state = Path(directory)
        result: dict[str, Any] = {
            "app": "ono99 join --spectate, 4 greedy bots",
            "moves": options.moves, "bot_delay": options.bot_delay,
            "door_80x24": await through_door(options, 80, 24, state),
            "door_asks_3000x1500": await through_door(options, 3000, 1500, state),
            "stock_3000x1500": await stock_service(options, 3000, 1500, state),
        }
        if options.browser:
            result["page"] = await asyncio.to_thread(browser_figures, options, state)
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
