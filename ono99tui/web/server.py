"""The web door's HTTP server: its routes, who gets in, and the sessions it runs.

textual-serve's `Server` is not used as it stands (its page loads a font from the internet,
lists directories, trusts every websocket and runs one shell command as one user); the
pieces kept from it are its terminal page script and files (textual.js, xterm.css, the
Roboto Mono fonts) and its `AppService`, subclassed in `game_process`. The routes are this
door's own:

- `GET /`: the login page (with a password and no login yet), else the phone page (a touch
  page drawn from one `TableSession` per phone: `ono99tui.web.phone`);
- `GET /terminal`: the same, with the terminal app in the page (xterm.js) instead;
- `GET /phone/ws/{seat}`: a phone page's websocket, checked as the game's is;
- `POST /login`: the password (one try at a time per address, and waits that grow after
  wrong ones, per address and in all: `netproto.limits.GuessThrottle`); a right one sets an
  HttpOnly, SameSite=Strict cookie;
- `GET /j/{code}`: the join code (`join_code`) logs the browser in as the password does
  (same cookie, same throttle); a wrong or replaced one gets a page saying so;
- `GET /qr`: the printable join page (address and QR code), for a browser on this machine;
- `POST /seat`: a tab's player name gives it a seat id (or a kept id is checked);
- `GET /ws/{seat}`: the game's websocket; refused with 403 at the handshake unless its
  Origin is this door (as the browser reached it) and it carries a login and a seat;
- `GET /static/{file}`: the page's files, by name from a fixed list (no listings);
- `GET /table.json`: the port of the table behind the door, for `ono99 join http://…/`
  (`table_behind`; no login: the port is no secret).

Every connection goes through a `ConnectionGuard` (`ono99tui.web.guard`) before aiohttp
sees it: caps per address and in all, header, idle and request timeouts, a reserve of file
descriptors for the table, and aiohttp's error lines made one per cause a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import textual_serve
from aiohttp import web
from markupsafe import Markup

from netproto.addresses import parse_address
from netproto.limits import GuessThrottle, address_key
from netproto.server import quiet_accept_errors
from ono99tui import i18n
from ono99tui.i18n import N_
from ono99tui.web import web_url
from ono99tui.web.access import (
    LOGIN_COOKIE,
    LOGINS_FILE,
    LoginBook,
    password_matches,
    same_origin,
)
from ono99tui.web.config import WebDoorConfig
from ono99tui.web.game_process import capped_size, game_environment
from ono99tui.web.guard import ConnectionGuard, QuietHttpLog
from ono99tui.web.join_code import (
    JOIN_PREFIX,
    JoinCode,
    is_local_peer,
    join_url,
    phone_address,
    qr_svg,
)
from ono99tui.web.phone.link import PhoneSeat
from ono99tui.web.phone.messages import PHONE_MESSAGES, page_language, phone_messages
from ono99tui.web.seats import Seat, SeatBook, SeatError
from ono99tui.web.session import CLOSE_DOOR_CLOSED, CLOSE_DOOR_FULL, CLOSE_REPLACED, WebSession
from ono99tui.web.table_behind import TABLE_PATH, door_answer

# The host's own phone: `/host/KEY` (`handle_host_link`), and the cookie that marks it.
HOST_PREFIX = "/host/"
HOST_COOKIE = "ono99_host"

log = logging.getLogger("ono99tui.web")

# The terminal page's own words (static/door.js: why a session ended, its buttons), sent in
# the page (play.html's #door-words) in the page's language, keyed by their English.
DOOR_WORDS = (
    N_("You have left the table."), N_("Sit down again"),
    N_("The session was closed: no keys were pressed for a long time."), N_("Come back"),
    N_("This seat was opened in another tab."), N_("The table has closed."),
    N_("The door is full: too many players are in through the browser."), N_("Try again"),
    N_("The game could not be started."), N_("The connection to the table was lost."),
    N_("Reconnect"), N_("The door did not answer."), N_("That did not work; try again."),
)

_HERE = Path(__file__).resolve().parent
_SERVE_STATIC = Path(textual_serve.__file__).resolve().parent / "static"
# Every file the page may fetch, by the name it is asked for; nothing else is served.
STATIC_FILES = {
    "js/textual.js": _SERVE_STATIC / "js" / "textual.js",
    "css/xterm.css": _SERVE_STATIC / "css" / "xterm.css",
    "fonts/RobotoMono-VariableFont_wght.ttf":
        _SERVE_STATIC / "fonts" / "RobotoMono-VariableFont_wght.ttf",
    "fonts/RobotoMono-Italic-VariableFont_wght.ttf":
        _SERVE_STATIC / "fonts" / "RobotoMono-Italic-VariableFont_wght.ttf",
    "door.js": _HERE / "static" / "door.js",
    "door.css": _HERE / "static" / "door.css",
    "phone/phone.js": _HERE / "static" / "phone" / "phone.js",
    "phone/phone.css": _HERE / "static" / "phone" / "phone.css",
    "phone/messages.json": _HERE / "static" / "phone" / "messages.json",
}
# The page may load only this door's own files and talk only to this door. textual.js
# inserts <style> elements, hence 'unsafe-inline' for styles (never for scripts).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "font-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
# Requests are small (a name, a password): anything larger is refused before it is read.
MAX_REQUEST_BYTES = 16 * 1024
# A browser's key presses and resizes; a paste larger than this is not a player's move.
MAX_WEBSOCKET_MESSAGE = 64 * 1024
WEBSOCKET_HEARTBEAT = 15.0
# The phones' handshakes with the table at once (`WebDoor._phone_handshakes`).
PHONE_HANDSHAKES = 4


class WebDoor:
    """The web door onto one table: start, then close (see the module doc)."""

    def __init__(self, config: WebDoorConfig,
                 clock: Callable[[], float] = time.monotonic) -> None:
        config.validate()
        self.config = config
        # The door's limits and timers read this clock (tests may pass a fake one).
        self.clock = clock
        self.seats = SeatBook(config.players_dir)
        # Kept in the players' folder: a restarted host lets the same browsers back in.
        self.logins = LoginBook(path=config.players_dir / LOGINS_FILE,
                                password=config.password or "")
        # The join code (None for an open door, which needs none) and the address phones
        # are told to open (None: `phone_address` of the bind address).
        self.join: JoinCode | None = None if config.open_access else JoinCode()
        self.phone_host: str | None = None
        # The table's host key (a headless host's operator key, given by `host_link`): a
        # browser that opens `/host/KEY` is logged in and its phone seat gets host rights.
        self.host_key: str | None = None
        self.host_logins = LoginBook()
        self.guesses = GuessThrottle(config.guesses, now=clock())
        self.guard = ConnectionGuard(config.http, clock)
        # aiohttp's request handlers log here: each failed request through the guard's
        # quiet log. A logger of this door's own (not in logging's registry), so that two
        # doors in one process never count each other's lines.
        self._http_log = logging.Logger("ono99tui.web.http")
        self._http_log.parent = log
        self._http_log.addFilter(QuietHttpLog(self.guard.quiet_log))
        self.sessions: dict[str, WebSession] = {}
        self.phones: dict[str, PhoneSeat] = {}
        # The phones' handshakes with the table at once: under the table's unfinished
        # handshakes per address (8), which count the door's as loopback's (docs/WEB.md
        # "Cap"), so that fifty pages opened together never close each other's.
        self._phone_handshakes = asyncio.Semaphore(PHONE_HANDSHAKES)
        self._handlers: set[asyncio.Task[Any]] = set()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._port = 0
        self._templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(_HERE / "templates"), autoescape=True)

    # -- start and stop -----------------------------------------------------------------

    def make_app(self) -> web.Application:
        """The aiohttp application with the door's routes."""
        app = web.Application(client_max_size=MAX_REQUEST_BYTES,
                              middlewares=[self.guard.middleware(), self._security_headers])
        app.add_routes([
            web.get("/", self.handle_index),
            web.get("/terminal", self.handle_terminal),
            web.get("/tv", self.handle_tv),
            web.get("/phone/ws/{seat}", self.handle_phone_websocket),
            web.post("/login", self.handle_login),
            web.get(JOIN_PREFIX + "{code}", self.handle_join),
            web.get(HOST_PREFIX + "{key}", self.handle_host_link),
            web.get("/qr", self.handle_qr),
            web.post("/seat", self.handle_seat),
            web.get("/ws/{seat}", self.handle_websocket),
            web.get("/static/{name:.+}", self.handle_static),
            web.get(TABLE_PATH, self.handle_table),
        ])
        return app

    async def start(self) -> None:
        """Start listening (raises OSError when the port cannot be had)."""
        self.config.players_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False,
                               logger=self._http_log)
        await runner.setup()
        server = runner.server
        assert server is not None  # made by setup()
        loop = asyncio.get_running_loop()
        quiet_accept_errors(loop)
        try:
            # aiohttp's low-level server, behind the guard (no TCPSite: it would hand each
            # connection to aiohttp unchecked).
            self._listener = await loop.create_server(
                self.guard.protocol_factory(server), self.config.bind_host or None,
                self.config.port, reuse_address=True, backlog=128)
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        sockets = self._listener.sockets
        self._port = int(sockets[0].getsockname()[1]) if sockets else self.config.port
        self.guard.start()
        log.info("web door listening on port %d", self._port)

    @property
    def port(self) -> int:
        """The TCP port the door listens on."""
        if self._runner is None:
            raise RuntimeError("the web door has not been started")
        return self._port

    async def close(self) -> None:
        """Stop accepting, end every session (their games are hung up on, so the seats are
        held as for a drop) and stop listening."""
        self._closing = True
        if self._listener is not None:
            self._listener.close()
        for session in list(self.sessions.values()):
            session.end(CLOSE_DOOR_CLOSED, "the table has closed")
        for phone in list(self.phones.values()):
            if phone.websocket is not None:
                await phone.websocket.close(code=CLOSE_DOOR_CLOSED,
                                            message=b"the table has closed")
        await asyncio.gather(*(phone.close("hangup") for phone in list(self.phones.values())),
                             return_exceptions=True)
        if self._handlers:
            await asyncio.gather(*list(self._handlers), return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
        self.guard.stop()

    async def __aenter__(self) -> WebDoor:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- who gets in ---------------------------------------------------------------------

    def _logged_in(self, request: web.Request) -> bool:
        if self.config.open_access:
            return True
        return self.logins.valid(request.cookies.get(LOGIN_COOKIE))

    @staticmethod
    def _from_this_door(request: web.Request) -> bool:
        return same_origin(request.headers.get("Origin"), request.host, request.scheme)

    @web.middleware
    async def _security_headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        if not response.prepared:
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
            response.headers.setdefault("X-Content-Type-Options", "nosniff")
            # Not "no-referrer": with it Chrome sends "Origin: null" on the login form's post,
            # which the Origin check must refuse.
            response.headers.setdefault("Referrer-Policy", "same-origin")
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    # -- pages ---------------------------------------------------------------------------

    def _page(self, template: str, request: web.Request, status: int = 200,
              **context: object) -> web.Response:
        """`template` in the page's language (`?lang=`, else the browser's, else the
        door's): `_` translates in it; `error` is a msgid, with `error_args` its fields."""
        language = page_language(request.query.get("lang"),
                                 request.headers.get("Accept-Language", ""))
        words = i18n.translator(language).gettext
        # `languages`: the phone page's language menu (each named in itself).
        html = self._templates.get_template(template).render(
            title=self.config.title, languages=i18n.LANGUAGES, lang=language,
            dir="rtl" if language in i18n.RIGHT_TO_LEFT else "ltr", _=words,
            door_words={text: words(text) for text in DOOR_WORDS}, **context)
        return web.Response(text=html, status=status, content_type="text/html")

    async def handle_index(self, request: web.Request) -> web.Response:
        """The login page, or the phone page once logged in."""
        if not self._logged_in(request):
            return self._page("login.html", request, next="/")
        return self._page("phone.html", request)

    async def handle_tv(self, request: web.Request) -> web.Response:
        """The table view for a shared screen: the phone page as a spectator's."""
        if not self._logged_in(request):
            return self._page("login.html", request, next="/tv")
        return self._page("phone.html", request, view="tv")

    async def handle_terminal(self, request: web.Request) -> web.Response:
        """The login page, or the terminal app's page once logged in."""
        if not self._logged_in(request):
            return self._page("login.html", request, next="/terminal")
        return self._page("play.html", request)

    @staticmethod
    def _peer(request: web.Request) -> str:
        transport = request.transport
        return address_key(transport.get_extra_info("peername") if transport else None)

    async def _guess_turn(self, address: str) -> float:
        """Wait for `address`'s turn to have a secret checked (a password or a join code):
        0 when it may be checked now (then `guesses.finish` must follow), else how long the
        address must still wait (the secret is then not looked at)."""
        wait = self.guesses.begin(address, self.clock())
        for _ in range(3):  # a turn in line is waited out, not refused
            if not self.guesses.short_wait(address, wait):
                break
            await asyncio.sleep(wait)
            wait = self.guesses.begin(address, self.clock())
        if wait > 0:
            # Not read: trying it is the guess the wait is for.
            self.guard.quiet_log(logging.WARNING, "guess-throttled",
                                 "web door: refused a password or join code from %s unread: "
                                 "too many wrong ones", address)
        return wait

    def _login_response(self, location: str) -> web.HTTPSeeOther:
        response = web.HTTPSeeOther(location)
        response.set_cookie(LOGIN_COOKIE, self.logins.issue(), httponly=True,
                            samesite="Strict", path="/")
        return response

    async def _secret_refusal(self, request: web.Request, matches: Callable[[], bool],
                              kind: str, wrong: str) -> web.Response | None:
        """Check the secret in a one-step address (a join code, the host link) as a password
        is checked: None when `matches()`; else the page that refuses it — slowed, and
        counted as a wrong guess, as wrong passwords are (`kind` names it in the log,
        `wrong` is the page's words)."""
        address = self._peer(request)
        wait = await self._guess_turn(address)
        if wait > 0:
            return self._page("join_refused.html", request, status=429,
                              error=N_("Too many wrong codes from here: wait {seconds} s, then "
                                       "scan the code again."),
                              error_args={"seconds": math.ceil(wait)})
        right = False
        try:
            right = matches()
        finally:
            self.guesses.finish(address, right, self.clock())
        if right:
            return None
        self.guard.quiet_log(logging.WARNING, kind, "web door: %s from %s", kind, address)
        return self._page("join_refused.html", request, status=403, error=wrong)

    async def handle_join(self, request: web.Request) -> web.Response:
        """`/j/CODE`: the join code logs this browser in as the password would (same cookie,
        same throttle for wrong ones); a wrong or replaced code gets a page saying so."""
        join = self.join
        if join is None:  # an open door: no code needed
            raise web.HTTPSeeOther("/")
        refused = await self._secret_refusal(
            request, lambda: join.matches(request.match_info["code"]), "wrong-join-code",
            N_("This join code is wrong or has been replaced."))
        if refused is not None:
            return refused
        raise self._login_response("/")

    async def handle_host_link(self, request: web.Request) -> web.Response:
        """`/host/KEY`: the host's own phone. The table's host key logs this browser in (as
        the join code does) and marks it as the host's: its phone seat says hello with the
        key, so the table gives it host rights (deal, bots, every option). A wrong key is a
        wrong guess, slowed as wrong passwords are."""
        key = self.host_key
        refused = await self._secret_refusal(
            request, lambda: key is not None and secrets.compare_digest(
                request.match_info["key"].encode(), key.encode()),
            "wrong-host-key",
            N_("This host link is wrong, or is from an earlier start of the table."))
        if refused is not None:
            return refused
        response = self._login_response("/")
        response.set_cookie(HOST_COOKIE, self.host_logins.issue(), httponly=True,
                            samesite="Strict", path="/")
        raise response

    def host_url(self) -> str | None:
        """The host's phone link (`/host/KEY`) at this machine's IP literal, or None when
        the door was given no host key."""
        if self.host_key is None:
            return None
        host = self.phone_host or phone_address(self.config.bind_host)
        return web_url(host, self.port) + HOST_PREFIX.lstrip("/") + self.host_key

    async def handle_qr(self, request: web.Request) -> web.Response:
        """`/qr`: the printable page with the join address and its QR code, only for a browser
        on this machine (the host's): the code lets anyone in, as the password does."""
        transport = request.transport
        if transport is None or not is_local_peer(transport.get_extra_info("peername"),
                                                  transport.get_extra_info("sockname")):
            raise web.HTTPForbidden(text="the join page is shown only on the host's machine")
        url = self.join_url()
        return self._page("join_print.html", request, url=url, svg=Markup(qr_svg(url)),
                          open_access=self.join is None)

    def join_url(self) -> str:
        """The address a phone opens to join (with the join code unless the door is open),
        naming this machine by an IP literal (`join_code.phone_address`)."""
        host = self.phone_host or phone_address(self.config.bind_host)
        return join_url(host, self.port, None if self.join is None else self.join.code)

    def replace_join_code(self) -> str:
        """Replace the join code (the old one stops working); returns the new join address.
        Logins already given are kept."""
        if self.join is not None:
            self.join.replace()
            log.info("web door: join code replaced")
        return self.join_url()

    async def handle_login(self, request: web.Request) -> web.Response:
        """Check the password; a right one gives a login cookie and the game's page."""
        if self.config.open_access:
            raise web.HTTPSeeOther("/")
        if not self._from_this_door(request):
            raise web.HTTPForbidden(text="this form must be sent from the door's own page")
        address = self._peer(request)
        wait = await self._guess_turn(address)
        if wait > 0:
            return self._page("login.html", request, status=429,
                              error=N_("Too many tries: wait {seconds} s, then try again."),
                              error_args={"seconds": math.ceil(wait)})
        right = False
        try:
            form = await request.post()
            right = password_matches(form.get("password"), self.config.password or "")
        finally:
            self.guesses.finish(address, right, self.clock())
        if not right:
            self.guard.quiet_log(logging.WARNING, "wrong-password",
                                 "wrong web door password from %s", address)
            return self._page("login.html", request, status=403, error=N_("Wrong password."))
        wanted = form.get("next")
        raise self._login_response(wanted if wanted in ("/terminal", "/tv") else "/")

    async def handle_seat(self, request: web.Request) -> web.Response:
        """`{"name": …}` makes a seat for a new player; `{"seat": id}` checks a kept one."""
        if not self._from_this_door(request):
            return web.json_response({"error": "not from this door's page"}, status=403)
        if not self._logged_in(request):
            return web.json_response({"error": "log in first"}, status=401)
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return web.json_response({"error": "expected a JSON object"}, status=400)
        if "seat" in body:
            seat = self.seats.get(body["seat"])
            if seat is None:
                return web.json_response({"error": "no such seat"}, status=404)
            return web.json_response({"seat": seat.seat_id, "name": seat.name})
        try:
            seat = self.seats.create(body.get("name"))
        except SeatError as error:
            message = str(error)
            return web.json_response({"error": message[:1].upper() + message[1:] + "."},
                                     status=400)
        except OSError as error:
            log.error("cannot make a seat folder: %s", error)
            return web.json_response({"error": "The host cannot keep a seat."}, status=500)
        return web.json_response({"seat": seat.seat_id, "name": seat.name})

    async def handle_table(self, request: web.Request) -> web.Response:
        """The port of the table behind this door (`ono99tui.web.table_behind`)."""
        return web.json_response(door_answer(parse_address(self.config.table_address).port))

    async def handle_static(self, request: web.Request) -> web.StreamResponse:
        """One of the page's files (STATIC_FILES); anything else, folders included, is 404."""
        name = request.match_info["name"]
        path = STATIC_FILES.get(name)
        if path is None:
            raise web.HTTPNotFound()
        if name == PHONE_MESSAGES:
            language = page_language(request.query.get("lang"),
                                     request.headers.get("Accept-Language", ""))
            return web.json_response(phone_messages(path, language))
        return web.FileResponse(path)

    # -- the game's websocket ------------------------------------------------------------

    def _checked_seat(self, request: web.Request) -> Seat:
        """The seat a websocket asks for; 403 before the handshake unless its Origin is this
        door, it carries a login and the seat is one this door issued."""
        if not self._from_this_door(request):
            log.info("refused a websocket from origin %r", request.headers.get("Origin"))
            raise web.HTTPForbidden(text="websocket from another origin")
        if not self._logged_in(request):
            raise web.HTTPForbidden(text="log in first")
        seat = self.seats.get(request.match_info["seat"])
        if seat is None or self._closing:
            raise web.HTTPForbidden(text="no such seat")
        return seat

    async def handle_phone_websocket(self, request: web.Request) -> web.StreamResponse:
        """Serve one phone page: its seat's `PhoneSeat` (made at its first page, kept while
        the page is away for a while: `ono99tui.web.phone.link`)."""
        seat = self._checked_seat(request)
        phone = self.phones.get(seat.seat_id)
        if phone is None and len(self.phones) >= self.config.max_phones:
            raise web.HTTPServiceUnavailable(text="the door is full")
        websocket = web.WebSocketResponse(heartbeat=WEBSOCKET_HEARTBEAT,
                                          max_msg_size=MAX_WEBSOCKET_MESSAGE)
        await websocket.prepare(request)
        self.guard.playing(request.transport)
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        try:
            if phone is None or phone.ended:
                # The seat's sentences in its phone's language (the page says which): set
                # for this task, inherited by the seat's runner started from it.
                i18n.speak_in_this_task(page_language(request.query.get("lang"),
                                                      request.headers.get("Accept-Language", "")))
                hosts = self.host_logins.valid(request.cookies.get(HOST_COOKIE))
                phone = PhoneSeat(seat, self.seats, self.config.table_address,
                                  linger=self.config.phone_linger, on_ended=self._phone_ended,
                                  spectate=request.query.get("watch") == "1",
                                  door_key=self.config.table_door_key,
                                  host_key=self.host_key if hosts else None,
                                  handshakes=self._phone_handshakes)
                self.phones[seat.seat_id] = phone
                phone.start()
            elif request.query.get("lang") in i18n.LANGUAGES:
                # A page come back (a reload) in another language than the seat's.
                phone.speak(request.query["lang"])
            await phone.attach(websocket)
        finally:
            if task is not None:
                self._handlers.discard(task)
        return websocket

    def _phone_ended(self, phone: PhoneSeat) -> None:
        if self.phones.get(phone.seat.seat_id) is phone:
            del self.phones[phone.seat.seat_id]

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        """Run one tab's game; refused (403) before the handshake unless it may."""
        seat = self._checked_seat(request)
        websocket = web.WebSocketResponse(heartbeat=WEBSOCKET_HEARTBEAT,
                                          max_msg_size=MAX_WEBSOCKET_MESSAGE)
        await websocket.prepare(request)
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        try:
            previous = self.sessions.get(seat.seat_id)
            if previous is not None:
                # The same tab reloaded before its old socket was noticed gone, or a
                # duplicated tab: one game per seat, so the old one ends first.
                previous.end(CLOSE_REPLACED, "this seat was opened in another tab")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(previous.finished.wait(), 10.0)
            if len(self.sessions) >= self.config.max_sessions:
                await websocket.close(
                    code=CLOSE_DOOR_FULL,
                    message=f"at most {self.config.max_sessions} players at once".encode())
                return websocket
            size = capped_size(request.query.get("width"), request.query.get("height"))
            env = game_environment(str(seat.config_dir), *size, self.config.extra_env)
            # The tab's game speaks the browser's language (its saved choice still wins).
            env.setdefault("LANGUAGE", page_language(
                request.query.get("lang"), request.headers.get("Accept-Language", "")))
            session = WebSession(websocket, self.config.game_argv(seat.name), env, size,
                                 self.config.idle_timeout, seat.name)
            self.sessions[seat.seat_id] = session
            # A game: the session cap and the heartbeat bound this connection now.
            self.guard.playing(request.transport)
            try:
                await session.run()
            finally:
                if self.sessions.get(seat.seat_id) is session:
                    del self.sessions[seat.seat_id]
        finally:
            if task is not None:
                self._handlers.discard(task)
        return websocket


async def start_web_door(config: WebDoorConfig) -> WebDoor:
    """Start the web door described by *config* and return it (call close() to stop it)."""
    door = WebDoor(config)
    await door.start()
    return door
