"""What a phone costs at the door, beside the terminal page in the same run.

Prints ONE JSON object. A real headless host (`ono99 host --headless --web-port`, a child
process, eight seats, six bots, a turn clock off) serves everything on loopback. Measured:

- host memory per phone: the host's RSS (its own process: a phone is a `TableSession` in
  it) before and after `--phones` phone websockets (two seated, the rest watching once the
  table is full and dealt), divided by their number; beside, the terminal page's cost for
  one tab: the RSS of the `ono99 join` process the door starts for it (and its children);
- 50 phones at one door: every phone's websocket brought a state with the table (`served`):
  two seated (with six bots: eight seats) and the rest watching (`?watch=1`, so that no bot
  gives up its seat to them between matches); the two seated phones play by tapping (the
  first card the door does not refuse, when their turn comes), and the last phone's view
  of each of their moves is timed: from the tap's frame sent to the move's sentence in the
  last phone's log (`last_phone_view_ms`, p50 and p99);
- bytes per opponent move: the text frames one watching phone is sent while the bots play
  `--moves` moves, divided by the moves it saw.

And in a browser held like a phone, beside the terminal page (`/terminal`) in the same run
(bench/phone_browser.py says how each is timed): page weight to the first hand,
navigation → your hand shown (a first visit, and coming back to the seat), tap → the card
shown on the table, and bytes per opponent move for one watching page of each.

    python bench/phone.py [--phones 50] [--moves 40] [--port 23600]
                          [--sessions 7] [--taps 40] [--no-browser | --browser-only]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

PASSWORD = "bench"


def rss_kib(pid: int) -> int:
    """Resident memory of process `pid`, in KiB (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return 0
    return 0


def descendants(pid: int) -> list[int]:
    """Every process below `pid`."""
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(") ", 1)[1].split()[1]) == parent:
                found.append(int(entry.name))
                todo.append(int(entry.name))
    return found


async def log_in(base: str) -> aiohttp.ClientSession:
    client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with client.post(f"{base}/login", data={"password": PASSWORD},
                           headers={"Origin": base}, allow_redirects=False) as response:
        assert response.status == 303, response.status
    return client


async def seat_id(client: aiohttp.ClientSession, base: str, name: str) -> str:
    async with client.post(f"{base}/seat", json={"name": name},
                           headers={"Origin": base}) as response:
        return str((await response.json())["seat"])


async def phone(client: aiohttp.ClientSession, base: str, name: str,
                served: asyncio.Event, watch: bool = False) -> aiohttp.ClientWebSocketResponse:
    """A phone's websocket, `served` set once its state holds the table."""
    query = "?watch=1" if watch else ""
    socket = await client.ws_connect(
        f"{base}/phone/ws/{await seat_id(client, base, name)}{query}", headers={"Origin": base})
    while True:
        message = await socket.receive(timeout=60)
        data = json.loads(message.data)
        whole = data.get("p", {}) if data["t"] == "state" else {}
        if whole.get("game") or whole.get("room"):  # a part that was None comes whole
            served.set()
            return socket


# The seated phones' names: each one's moves are found by name in the last phone's log.
SEATED = ("Ann phone", "Bo phone")


async def tap_when_my_turn(socket: aiohttp.ClientWebSocketResponse, name: str,
                           taps: dict[str, float]) -> None:
    """A seated phone that plays: when its turn comes, the first card (then the swap, the
    late draw) the door does not refuse, again while the door takes them (a Play 2 owed:
    two cards, one ring); `taps[name]` is when the move's frame was sent."""
    tries = [{"t": "play", "i": index} for index in range(4)] + [{"t": "swap"}, {"t": "draw"}]

    async def move() -> bool:
        for intent in tries:
            sent = time.perf_counter()
            await socket.send_str(json.dumps(intent))
            # Its refusal, or its move in its own log ("You played 7. …"); frames sent
            # before the tap are read on the way.
            while True:
                try:
                    reply = json.loads((await socket.receive(timeout=10)).data)
                except TimeoutError:  # no word of it: the next ring says when to try again
                    return False
                if reply["t"] == "error" and reply.get("ref") == intent["t"]:
                    break
                if reply["t"] == "log" and any(line[2].startswith("You ")
                                               for line in reply.get("add", [])):
                    taps[name] = sent
                    return True
        return False

    async for message in socket:
        data = json.loads(message.data)
        if data["t"] == "turn" and data.get("ring"):
            while await move():
                pass


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "ONO99_WEB_PASSWORD": PASSWORD, "ONO99_MDNS_INTERFACES": "127.0.0.1",
           "ONO99_CONFIG_DIR": f"/tmp/ono99-bench-phone-{os.getpid()}"}
    host = subprocess.Popen(
        [sys.executable, "-m", "ono99tui", "host", "--headless", "--bind", "127.0.0.1",
         "--port", str(args.port), "--web-port", str(args.port + 1), "--no-advertise",
         "--fresh", "--seats", "8", "--bots", "6", "--bot-delay", str(args.bot_delay),
         "--turn-time", "off", "--start-when", "8"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    base = f"http://127.0.0.1:{args.port + 1}"
    try:
        assert host.stdout is not None
        while '"web-door"' not in host.stdout.readline():
            pass
        client = await log_in(base)
        before = rss_kib(host.pid)
        events = [asyncio.Event() for _ in range(args.phones)]
        started = time.monotonic()
        sockets = []
        for index in range(args.phones):
            name = SEATED[index] if index < len(SEATED) else f"w{index}"
            with contextlib.suppress(TimeoutError):  # not served: counted below
                sockets.append(await asyncio.wait_for(
                    phone(client, base, name, events[index], watch=index >= len(SEATED)), 20))
        served = sum(event.is_set() for event in events)
        await asyncio.sleep(1.0)  # the last lobby and views reach every phone
        after = rss_kib(host.pid)
        # Every other phone reads what it is sent, as a page does.
        async def drain(socket: aiohttp.ClientWebSocketResponse) -> None:
            async for _ in socket:
                pass

        taps: dict[str, float] = {}
        views_ms: list[float] = []
        drains = [asyncio.create_task(tap_when_my_turn(socket, name, taps))
                  for socket, name in zip(sockets, SEATED, strict=False)]
        drains += [asyncio.create_task(drain(socket)) for socket in sockets[len(SEATED):-1]]
        # One watcher's frames while the bots play.
        watcher = sockets[-1]
        text_bytes = moves = 0
        deadline = time.monotonic() + 120
        while moves < args.moves and time.monotonic() < deadline:
            message = await watcher.receive(timeout=30)
            data = json.loads(message.data)
            text_bytes += len(message.data.encode())
            if data["t"] == "log":
                moves += sum(" played " in line[2] for line in data.get("add", []))
                seen = time.perf_counter()
                for line in data.get("add", []):
                    for name in SEATED:
                        said = line[2].lstrip("\u2068")
                        if said.startswith(name) and " played " in said and name in taps:
                            views_ms.append((seen - taps.pop(name)) * 1000)
        # The terminal page's one tab: its game process.
        terminal_seat = await seat_id(client, base, "term")
        terminal = await client.ws_connect(f"{base}/ws/{terminal_seat}?width=80&height=24",
                                           headers={"Origin": base})
        await terminal.receive(timeout=60)  # the game drew
        await asyncio.sleep(2.0)
        terminal_kib = sum(rss_kib(pid) for pid in descendants(host.pid))
        await terminal.close()
        for socket in sockets:
            await socket.close()
        for task in drains:
            task.cancel()
        await client.close()
        return {
            "phones": args.phones,
            "served": served,
            "seconds_to_serve_all": round(time.monotonic() - started, 2),
            "host_rss_kib_before": before,
            "host_rss_kib_after": after,
            "host_kib_per_phone": round((after - before) / args.phones, 1),
            "terminal_tab_rss_kib": terminal_kib,
            "watcher_bytes_per_opponent_move": round(text_bytes / moves) if moves else None,
            "moves_seen": moves,
            "seated_phones": len(SEATED),
            "last_phone_view_moves": len(views_ms),
            "last_phone_view_ms_p50": round(percentile(views_ms, 0.5) or 0, 2) or None,
            "last_phone_view_ms_p99": round(percentile(views_ms, 0.99) or 0, 2) or None,
        }
    finally:
        host.terminate()
        host.wait(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--port", type=int, default=23600,
                        help="first loopback port: two for the websocket figures' host, "
                             "then two for each browser table (4 × --sessions + 2, within "
                             "the next 100)")
    parser.add_argument("--sessions", type=int, default=7,
                        help="browser: navigations of each page (a fresh table each)")
    parser.add_argument("--taps", type=int, default=40, help="browser: taps to time, each page")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--no-browser", action="store_true", help="only the websocket figures")
    which.add_argument("--browser-only", action="store_true", help="only the browser figures")
    args = parser.parse_args()
    result: dict[str, Any] = {
        "benchmark": "phone",
        "command": "python bench/phone.py " + " ".join(sys.argv[1:]),
        "utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "cpus": os.cpu_count(),
        "load_average_before": [round(load, 2) for load in os.getloadavg()],
    }
    if not args.browser_only:
        result.update(asyncio.run(measure(args)))
    if not args.no_browser:
        import phone_browser  # bench/: Playwright only when a browser is wanted

        result["browser"] = asyncio.run(phone_browser.measure(
            count=args.sessions, taps=args.taps, moves=args.moves, first_port=args.port + 2))
    result["load_average_after"] = [round(load, 2) for load in os.getloadavg()]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
