"""The phone page's browser-timed figures, beside the terminal page in the same run (used by
bench/phone.py; `python bench/phone.py --browser-only` runs only these).

Headless Chromium (Debian's /usr/bin/chromium through Playwright) held like a phone:
390×844 CSS px, touch, three device pixels per CSS pixel; every request off loopback is
aborted. Each page is a real headless host's door (`ono99 host --headless --web-port`, a
child process); the phone page is `/`, the terminal page (textual-serve's xterm.js page
with one `ono99 join` process per tab) is `/terminal`. Phone and terminal sessions take
turns, so both see the same load.

- navigation → your hand shown: a fresh browser context (nothing cached; the login cookie
  set first, by the door's login form through the context's request API, as a join code
  gives it) opens the page, gives a name as soon as the form shows; the host's two seats
  (one bot) are then taken and it deals. Timed in the page from the navigation's start
  (`performance.now()`): the phone page, at the animation frame after its hand's buttons
  are in the DOM; the terminal page, at xterm.js's `onRender` once its screen holds the
  hand's bottom edge. One host per navigation (`--sessions` of each page).
- page weight to the first hand: the bytes the browser received until then (the devtools
  protocol: each request's `encodedDataLength`, headers included, and each websocket
  frame's payload, up to the moment the hand was shown).
- tap → the card shown on the table: on the same tables, each turn the player taps (the
  phone: `page.tap` on the card's button) or presses (the terminal: the card's key) a
  playable card that changes the total, timed in the page from the `touchstart` /
  `keydown` to the frame that shows the new total (the phone: the total's text changed, at
  the next animation frame; the terminal: the total's panel in xterm.js's buffer changed,
  at `onRender`). Its way: the page, the door, the table and back.
- bytes per opponent move, one watcher: a third host (eight bots) plays while a phone page,
  a terminal page at the phone's size and a terminal page at 80×24 watch; every websocket
  frame's payload they receive, divided by the moves (Views) a spectator of the table got.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from playwright.async_api import BrowserContext, Page, Route, WebSocketRoute, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from netproto.client import TableClient  # noqa: E402
from netproto.wire.messages import View  # noqa: E402
from ono99tui.host.table_config import HEADLESS_DEAL_SETTLE  # noqa: E402

PASSWORD = "bench"
CHROMIUM = "/usr/bin/chromium"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "has_touch": True, "is_mobile": True}
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}

# In every page, before its own scripts: what the bench reads back (window.__bench).
# The terminal page's xterm.js Terminal is private to textual.js: the first object given
# a `terminal` that also has a `websocket_url` (textual.js's session) hands it over.
PROBE = r"""
(() => {
  const B = window.__bench = {hand: null, down: null, shown: null, before: null, armed: false};
  const later = (f) => requestAnimationFrame(() => f(performance.now()));
  for (const type of ["touchstart", "keydown"]) {
    addEventListener(type, () => {
      if (B.armed && B.down === null) B.down = performance.now();
    }, true);
  }
  // The phone page.
  B.phoneTotal = () => {
    const value = document.getElementById("total-value");
    const last = document.getElementById("total-last");
    return value ? `${value.textContent}|${last ? last.textContent : ""}` : null;
  };
  const watchPhone = () => {
    new MutationObserver(() => {
      if (B.hand === null && document.querySelector("#hand button.card")
          && !document.getElementById("game").hidden) {
        B.hand = -1;
        later((now) => { B.hand = now; });
      }
      if (B.down !== null && B.shown === null && B.phoneTotal() !== B.before) {
        B.shown = -1;
        later((now) => { B.shown = now; });
      }
    }).observe(document.documentElement, {subtree: true, childList: true, characterData: true,
                                          attributes: true, attributeFilter: ["hidden"]});
  };
  if (document.readyState === "loading") addEventListener("DOMContentLoaded", watchPhone);
  else watchPhone();
  // The terminal page.
  B.rows = () => {
    const terminal = B.terminal;
    if (!terminal) return [];
    const buffer = terminal.buffer.active;
    const rows = [];
    for (let y = 0; y < terminal.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      rows.push(line ? line.translateToString(true) : "");
    }
    return rows;
  };
  // The total's panel: from its title to the line under the digits (the limit, or the
  // last card), between the panel's sides.
  B.terminalTotal = () => {
    const rows = B.rows();
    const top = rows.findIndex((row) => /│\s+Total\s+│/.test(row));
    if (top < 0) return null;
    const column = rows[top].indexOf("Total");
    const left = rows[top].lastIndexOf("│", column);
    const right = rows[top].indexOf("│", column);
    let end = top + 1;
    while (end < rows.length && !/last card|go up to|no card played/.test(rows[end])) end++;
    return rows.slice(top, end + 1).map((row) => row.slice(left, right)).join("\n");
  };
  const HAND_EDGE = /╰────────────╯|▄▄▄▄▄▄▄▄▄▄▄▄|┗[╍━]{12}┛/;
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    set(value) {
      Object.defineProperty(this, "terminal",
                            {value, writable: true, configurable: true, enumerable: true});
      if (!(value && "websocket_url" in this)) return;
      B.terminal = value;
      value.onRender(() => {
        const now = performance.now();
        if (B.hand === null && B.rows().some((row) => HAND_EDGE.test(row))) B.hand = now;
        if (B.down !== null && B.shown === null && B.terminalTotal() !== B.before) B.shown = now;
      });
    },
  });
})();
"""

# The phone page: what to tap now. ["time", selector] a card that changes the total;
# ["tap", selector] something else that moves the game on; ["over"]; or null (wait).
PHONE_OFFER = """() => {
  const shown = (id) => {
    const node = document.getElementById(id);
    return node && !node.closest("[hidden]");
  };
  if (shown("rematch") || shown("rematch-asked")) return ["over"];
  if (shown("results-continue")) return ["tap", "#results-continue"];
  const cards = [...document.querySelectorAll('#hand button.card[aria-disabled="false"]')];
  const moving = cards.find((card) => /^-?[1-9][0-9]*$/.test(card.dataset.tok));
  if (moving) return ["time", `#hand button.card[data-i="${moving.dataset.i}"]`];
  if (cards.length) return ["tap", `#hand button.card[data-i="${cards[0].dataset.i}"]`];
  for (const id of ["swap", "draw"]) if (shown(id)) return ["tap", `#${id}`];
  return null;
}"""
MATCH_OVER = re.compile(r"Match\s+over|The\s+match\s+is\s+over")
ROUND_OVER = re.compile(r"Round\s+\d+\s+is\s+over")
MUST_PLAY = re.compile(r"Your turn|\(1-4, arrows|You owe")
HAND_BOTTOM = re.compile(r"╰────────────╯|█▄▄▄▄▄▄▄▄▄▄▄▄█|┗[╍━]{12}┛")
CARD_TOP = re.compile(r"[│┃█╏]([1-4])(.{11})[│┃█╏]")
MOVES_TOTAL = re.compile(r"[+−-]\s?([1-9][0-9]*)\b")


def terminal_offer(rows: list[str]) -> list[str] | None:
    """The terminal page: what to press now, as PHONE_OFFER says for the phone."""
    screen = "\n".join(rows)
    if MATCH_OVER.search(screen):
        return ["over"]
    if ROUND_OVER.search(screen):
        return ["tap", "Enter"]
    if not MUST_PLAY.search(screen):
        return None
    bottoms = [index for index, row in enumerate(rows) if HAND_BOTTOM.search(row)]
    if not bottoms:
        return None
    bottom = bottoms[-1]
    top, labels = rows[bottom - 5], rows[bottom - 1]
    playable = []
    for match in CARD_TOP.finditer(top):
        key = match.group(1)
        if "⊘" in match.group(2):
            continue
        label = labels[match.start():match.end()]
        playable.append((key, bool(MOVES_TOTAL.search(label))))
    for key, moves in playable:
        if moves:
            return ["time", key]
    if playable:
        return ["tap", playable[0][0]]
    return ["tap", "s"] if "s Swap" in screen else ["tap", "d"]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Host:
    """`ono99 host --headless` with a password web door, on loopback ports of its own."""

    ports = iter(range(23602, 23700, 2))  # the table's, then the door's: `measure` sets

    def __init__(self, config: Path, *options: str) -> None:
        config.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "ONO99_WEB_PASSWORD": PASSWORD,
               "ONO99_MDNS_INTERFACES": "127.0.0.1", "ONO99_CONFIG_DIR": str(config),
               "ONO99_DATA_DIR": str(config / "data")}  # never the user's data folder
        while True:  # the next two ports, past any another program holds now
            port = next(Host.ports)
            self._stderr = (config / "host.err").open("w")  # said when it fails to start
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ono99tui", "host", "--headless", "--bind", "127.0.0.1",
                 "--port", str(port), "--web-port", str(port + 1), "--no-advertise",
                 "--fresh", "--turn-time", "off", *options],
                stdout=subprocess.PIPE, stderr=self._stderr, env=env, text=True)
            self.events: dict[str, dict[str, Any]] = {}
            assert self.process.stdout is not None
            while "web-door" not in self.events:
                line = self.process.stdout.readline()
                if not line:
                    break
                event = json.loads(line)
                self.events[event["event"]] = event
            if "web-door" in self.events:
                break
            self.process.wait()
            self._stderr.close()
            said = (config / "host.err").read_text()
            if "already in use" not in said:
                raise RuntimeError(f"the host ended before its web door opened: {said[-800:]}")
        self.base = f"http://127.0.0.1:{self.events['web-door']['port']}"
        self.table_port = int(self.events["listening"]["port"])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._stderr.close()


async def _loopback_only(route: Route) -> None:
    if urlparse(route.request.url).hostname in LOOPBACK:
        await route.continue_()
    else:
        await route.abort()


class Received:
    """Bytes a page receives, by the devtools protocol: each finished request's
    `encodedDataLength` (headers included) and each websocket frame's payload, with the
    monotonic time (the protocol's clock) each came."""

    def __init__(self) -> None:
        self.items: list[tuple[float, str, int]] = []  # (time, what, bytes)
        self.urls: dict[str, str] = {}
        self.started: float | None = None  # the navigation's request, the protocol's clock

    async def watch(self, context: BrowserContext, page: Page) -> None:
        cdp = await context.new_cdp_session(page)
        cdp.on("Network.requestWillBeSent", self._request)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.webSocketFrameReceived", self._frame)
        cdp.on("Network.webSocketCreated", lambda e: self.urls.__setitem__(e["requestId"],
                                                                           e["url"]))
        await cdp.send("Network.enable")

    def _request(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]
        if self.started is None and event.get("type") == "Document":
            self.started = float(event["timestamp"])

    def _finished(self, event: dict[str, Any]) -> None:
        url = self.urls.get(event["requestId"], "?")
        self.items.append((float(event["timestamp"]), urlparse(url).path,
                           int(event["encodedDataLength"])))

    def _frame(self, event: dict[str, Any]) -> None:
        response = event["response"]
        data = response["payloadData"]
        size = len(base64.b64decode(data)) if response["opcode"] == 2 else len(data.encode())
        self.items.append((float(event["timestamp"]), "websocket", size))

    def until(self, seconds: float) -> tuple[int, dict[str, int]]:
        """Bytes received up to `seconds` after the navigation started, and by what."""
        assert self.started is not None
        by: dict[str, int] = {}
        for when, what, size in self.items:
            if when - self.started <= seconds:
                by[what] = by.get(what, 0) + size
        return sum(by.values()), by


async def new_phone(browser: Any, host: Host) -> BrowserContext:
    """A phone's fresh context, logged in at `host`'s door (its cookie), the probe in it."""
    context = await browser.new_context(**PHONE)
    await context.route("**/*", _loopback_only)
    response = await context.request.post(f"{host.base}/login", form={"password": PASSWORD},
                                          headers={"Origin": host.base}, max_redirects=0)
    assert response.status == 303, response.status
    await context.add_init_script(PROBE)
    return context


async def wait_for(page: Page, expression: str, timeout: float = 60.0) -> Any:
    """The value of `expression` in the page once it is not null."""
    handle = await page.wait_for_function(f"() => {{ const v = {expression}; "
                                          f"return v === null || v === -1 ? null : v; }}",
                                          timeout=timeout * 1000, polling=20)
    return await handle.json_value()


class Session:
    """One page (kind "phone" or "terminal") at a fresh two-seat table: navigate, then
    play the match out, timing taps."""

    def __init__(self, kind: str, host: Host, browser: Any, context: BrowserContext,
                 page: Page) -> None:
        self.kind = kind
        self.host = host
        self.browser = browser
        self.context = context
        self.page = page
        self.url = host.base + ("/" if kind == "phone" else "/terminal")
        self.received = Received()
        self.missed = 0  # timed taps whose card never showed (the tap missed)

    async def navigate(self, name: str) -> dict[str, Any]:
        await self.received.watch(self.context, self.page)
        await self.page.goto(self.url)
        await self.page.wait_for_selector("#name", state="visible")
        await self.page.fill("#name", name)
        await self.page.press("#name", "Enter")
        hand_ms = float(await wait_for(self.page, "window.__bench.hand"))
        await asyncio.sleep(0.5)  # frames on their way when the hand was shown come in
        total, by = self.received.until(hand_ms / 1000 + 0.005)
        return {"navigation_ms": hand_ms, "bytes": total, "by": by}

    async def come_back(self) -> dict[str, Any]:
        """The tab goes (its context closed) and the player opens the page again in a fresh
        context (nothing cached) that still has the tab's seat id, as a reload or a
        restored tab has: timed to the hand as `navigate` is, with no name to give."""
        key = "ono99.phone.seat" if self.kind == "phone" else "ono99.seat"
        seat = await self.page.evaluate(f"sessionStorage.getItem({json.dumps(key)})")
        assert seat, "the page kept no seat id"
        await self.context.close()
        self.context = await new_phone(self.browser, self.host)
        await self.context.add_init_script(
            f"sessionStorage.setItem({json.dumps(key)}, {json.dumps(seat)});")
        self.page = await self.context.new_page()
        self.received = Received()
        await self.received.watch(self.context, self.page)
        await self.page.goto(self.url)
        hand_ms = float(await wait_for(self.page, "window.__bench.hand"))
        await asyncio.sleep(0.5)
        total, by = self.received.until(hand_ms / 1000 + 0.005)
        return {"navigation_ms": hand_ms, "bytes": total, "by": by}

    async def offer(self) -> list[str] | None:
        if self.kind == "phone":
            offer: list[str] | None = await self.page.evaluate(PHONE_OFFER)
            return offer
        return terminal_offer(await self.page.evaluate("window.__bench.rows()"))

    async def play(self, taps: int, timeout: float = 150.0) -> list[float]:
        """Play until the match is over (or `taps` timed taps, or `timeout`): the timed
        taps' milliseconds."""
        timed: list[float] = []
        deadline = time.monotonic() + timeout
        while len(timed) < taps and time.monotonic() < deadline:
            offer = await self.offer()
            if offer is None:
                await asyncio.sleep(0.02)
                continue
            if offer[0] == "over":
                break
            if offer[0] == "time":
                before = "window.__bench." + ("phoneTotal()" if self.kind == "phone"
                                              else "terminalTotal()")
                await self.page.evaluate(f"() => {{ const B = window.__bench; B.before = "
                                         f"{before}; B.down = null; B.shown = null; "
                                         "B.armed = true; }")
            await self._press(offer[1])
            if offer[0] == "time":
                try:
                    shown = float(await wait_for(self.page, "window.__bench.shown", 10))
                    down = float(await self.page.evaluate("window.__bench.down"))
                    timed.append(shown - down)
                except (PlaywrightTimeout, TypeError):
                    self.missed += 1  # the tap did not land (redrawn): not timed
                finally:
                    await self.page.evaluate("() => { window.__bench.armed = false; }")
            else:
                await asyncio.sleep(0.3)  # its answer drawn before looking again
        return timed

    async def _press(self, what: str) -> None:
        if self.kind == "phone":
            with contextlib.suppress(Exception):  # redrawn meanwhile: look again
                await self.page.tap(what, timeout=2000)
        else:
            await self.page.keyboard.press(what)


async def sessions(browser: Any, state: Path, count: int, taps: int,
                   bot_delay: float) -> dict[str, Any]:
    """`count` sessions of each page, taking turns: the first visit, coming back to the
    seat, taps."""
    results: dict[str, dict[str, list[Any]]] = {
        kind: {"first": [], "back": [], "taps_ms": [], "missed": []}
        for kind in ("phone", "terminal")}
    for index in range(count):
        for kind in ("phone", "terminal"):
            host = Host(state / f"{kind}-{index}", "--seats", "2", "--bots", "1",
                        "--bot-delay", str(bot_delay), "--seed", str(index + 1))
            context = await new_phone(browser, host)
            session = Session(kind, host, browser, context, await context.new_page())
            try:
                results[kind]["first"].append(await session.navigate(f"{kind[:4]}{index}"))
                results[kind]["back"].append(await session.come_back())
                results[kind]["taps_ms"] += await session.play(taps)
                results[kind]["missed"].append(session.missed)
            finally:
                await session.context.close()
                host.stop()
    # The table's settle before it deals (HEADLESS_DEAL_SETTLE) is waited for the terminal
    # page's seat (its `ono99 join` process is a TCP client like any other); the phone's seat
    # is held through the door the table trusts, which the table deals to at once.
    settle_ms = {"phone": 0.0, "terminal": HEADLESS_DEAL_SETTLE * 1000}
    figures: dict[str, Any] = {"deal_settle_ms": settle_ms}
    for kind, got in results.items():
        taps_ms = got["taps_ms"]
        figure: dict[str, Any] = {}
        for visit in ("first", "back"):
            ms = [item["navigation_ms"] for item in got[visit]]
            weights = sorted(got[visit], key=lambda item: item["bytes"])
            figure[f"{visit}_visit_to_hand_ms_p50"] = round(statistics.median(ms), 1)
            figure[f"{visit}_visit_to_hand_ms_all"] = [round(value) for value in ms]
            figure[f"{visit}_visit_bytes_to_hand_p50"] = weights[len(weights) // 2]["bytes"]
            figure[f"{visit}_visit_bytes_by_what"] = weights[len(weights) // 2]["by"]
        figure["first_visit_to_hand_less_deal_settle_ms_p50"] = round(
            figure["first_visit_to_hand_ms_p50"] - settle_ms[kind], 1)
        figure.update({
            "tap_to_card_shown_ms_p50": round(percentile(taps_ms, 0.5), 1) if taps_ms else None,
            "tap_to_card_shown_ms_p99": round(percentile(taps_ms, 0.99), 1) if taps_ms else None,
            "taps_timed": len(taps_ms),
            "taps_missed": sum(got["missed"]),
        })
        figures[kind] = figure
    phone, terminal = figures["phone"], figures["terminal"]
    for key in ("first_visit_to_hand_ms_p50", "first_visit_to_hand_less_deal_settle_ms_p50",
                "back_visit_to_hand_ms_p50", "first_visit_bytes_to_hand_p50"):
        figures[f"ratio_{key}"] = round(phone[key] / terminal[key], 2)
    return figures


class Watcher:
    """A page watching the table: the websocket payload bytes it receives."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.bytes = 0
        self.size: str | None = None
        page.on("websocket", self._socket)

    def _socket(self, websocket: Any) -> None:
        query = dict(part.split("=", 1) for part in urlparse(websocket.url).query.split("&")
                     if "=" in part)
        if "width" in query:
            self.size = f"{query['width']}x{query['height']}"

        def received(payload: str | bytes) -> None:
            self.bytes += len(payload.encode() if isinstance(payload, str) else payload)

        websocket.on("framereceived", received)


def exactly(width: int, height: int) -> Any:
    """A websocket route that passes the terminal page's socket through at `width`×`height`
    cells (bench/web.py's way: the page's own size and resizes replaced)."""
    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and message.startswith('["resize"'):
                message = json.dumps(["resize", {"width": width, "height": height}])
            server.send(message)

        ws.on_message(from_page)
        server.send(json.dumps(["resize", {"width": width, "height": height}]))
    return route


async def bytes_per_move(browser: Any, state: Path, moves: int,
                         bot_delay: float) -> dict[str, Any]:
    """One phone page and two terminal pages watch eight bots play `moves` moves."""
    # 1980's rules: three tokens each, a match of many rounds, still on while the pages
    # come in (a 2022 match of eight bots may be over by then).
    host = Host(state / "watch", "--seats", "8", "--bots", "8", "--bot-delay", str(bot_delay),
                "--seed", "3", "--rules", "1980")
    contexts = []
    try:
        watchers: dict[str, Watcher] = {}

        async def watch(kind: str, path: str) -> None:
            context = await new_phone(browser, host)
            contexts.append(context)
            page = await context.new_page()
            if kind == "terminal_80x24":
                await page.route_web_socket(re.compile(r"/ws/[^/?]+(\?|$)"), exactly(80, 24))
            watchers[kind] = Watcher(page)
            await page.goto(host.base + path)
            await page.wait_for_selector("#name", state="visible")
            await page.fill("#name", kind[:12])
            await page.press("#name", "Enter")

        # At once: the match is on meanwhile.
        await asyncio.gather(watch("phone", "/"), watch("terminal", "/terminal"),
                             watch("terminal_80x24", "/terminal"))
        await wait_for(watchers["phone"].page,
                       "document.querySelector('#seats .seat') ? 1 : null")
        for kind in ("terminal", "terminal_80x24"):
            await wait_for(watchers[kind].page,
                           "window.__bench.terminalTotal() === null ? null : 1")
        await asyncio.sleep(2.0)  # each page's first whole screen is in
        client = await TableClient.connect("127.0.0.1", host.table_port, name="counter",
                                           spectate=True)
        views = 0

        async def count() -> None:
            nonlocal views
            async for item in client:
                if isinstance(item, View):
                    views += 1

        counting = asyncio.create_task(count())
        while views < 1:  # the table's view as it is now
            await asyncio.sleep(0.01)
        start = {kind: watcher.bytes for kind, watcher in watchers.items()}
        first = views
        deadline = time.monotonic() + moves * bot_delay * 4 + 30
        while views - first < moves and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(bot_delay / 2)  # the last move reaches every page
        played = views - first
        counting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await counting
        await client.close()
        result: dict[str, Any] = {"rules": "1980", "seats": 8, "opponent_moves": played}
        if played < moves:
            result["opponent_moves_note"] = "the match ended first"
        for kind, watcher in watchers.items():
            result[f"{kind}_bytes_per_opponent_move"] = round(
                (watcher.bytes - start[kind]) / played) if played else None
            if kind.startswith("terminal"):
                result[f"{kind}_cells"] = watcher.size if kind == "terminal" else "80x24"
        return result
    finally:
        for context in contexts:
            await context.close()
        host.stop()


async def measure(count: int = 7, taps: int = 40, moves: int = 40,
                  bot_delay: float = 0.8, watch_delay: float = 0.4,
                  first_port: int = 23602) -> dict[str, Any]:
    """Every browser figure, in one browser; its hosts on loopback ports from
    `first_port` on (two each: 4 × `count` + 2, and any another program holds, skipped)."""
    Host.ports = iter(range(first_port, first_port + 98, 2))
    state = Path(tempfile.mkdtemp(prefix="ono99-bench-phone-browser-"))
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                   args=["--no-sandbox"], headless=True)
        try:
            figures = await sessions(browser, state, count, max(1, taps // count), bot_delay)
            figures["watching"] = await bytes_per_move(browser, state, moves, watch_delay)
        finally:
            await browser.close()
    return figures
