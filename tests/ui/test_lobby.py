"""The lobby, driven with Pilot: a real table advertised on loopback, typed addresses, passwords."""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from lobby_helpers import running_table
from testkit.waiting import pilot_wait_until as wait_until
from textual.widgets import DataTable, Input, Static

from netproto.client import TableClient
from netproto.lan.discovery import TableAdvertiser
from netproto.wire.messages import PROTOCOL_VERSION
from ono99tui.host.hosting import table_info
from ono99tui.host.outputs import TableSummary
from ono99tui.host.server import TableServer
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.password_prompt import PasswordPrompt
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.user_settings import load_settings

LOOPBACK = ["127.0.0.1"]


@asynccontextmanager
async def advertised(server: TableServer) -> AsyncIterator[TableAdvertiser]:
    """Advertise the table on loopback and keep the advertisement current, as `ono99 host` does."""
    advertiser = TableAdvertiser(table_info(server.table.summary(), server.port), LOOPBACK)
    pending: set[asyncio.Task[None]] = set()

    def changed(summary: TableSummary) -> None:
        task = asyncio.get_running_loop().create_task(
            advertiser.update(table_info(summary, server.port)))
        pending.add(task)
        task.add_done_callback(pending.discard)

    server.table.on_change = changed
    await advertiser.start()
    try:
        yield advertiser
    finally:
        await asyncio.gather(*pending, return_exceptions=True)
        await advertiser.close()


def row_texts(lobby: LobbyScreen, table_name: str) -> list[list[str]]:
    """The lobby's rows for one table (other test runs may advertise on loopback too)."""
    table = lobby.query_one("#tables", DataTable)
    rows = [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]
    return [row for row in rows if row[0] == table_name]


def listed(lobby: LobbyScreen, table_name: str) -> bool:
    return any(table.info.name == table_name for table in lobby.tables.values())


def status(app: Ono99App, widget_id: str = "#lobby-status") -> str:
    return str(app.screen.query_one(widget_id, Static).render())


async def test_lobby_follows_a_real_advertised_table_and_joins_it(tmp_path: Path) -> None:
    name = f"kitchen {secrets.token_hex(3)}"
    async with running_table(name=name, capacity=4) as server:
        server.table.add_bot("greedy")  # the host's first seat, so the TXT names a host
        async with advertised(server) as advertiser:
            lobby = LobbyScreen(LOOPBACK, config_directory=tmp_path, name="bob")
            app = Ono99App(start_screen=lobby, ascii_glyphs=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: listed(lobby, name), timeout=15, what="the table")
                # Seats people hold: a bot's seat is free to a newcomer between matches.
                assert row_texts(lobby, name) == [[name, "Greedy bot", "2022", "0/4", "waiting",
                                                   "no"]]

                server.table.add_bot("random")
                amy = await TableClient.connect("127.0.0.1", server.port, name="amy")
                await wait_until(pilot, lambda: row_texts(lobby, name)[0][3] == "1/4",
                                 timeout=15, what="the seat update")  # live
                assert row_texts(lobby, name)[0][1] == "amy"  # the first person names it

                table = lobby.query_one("#tables", DataTable)
                for _ in range(table.row_count):
                    selected = lobby.selected_table()
                    if selected is not None and selected.info.name == name:
                        break
                    await pilot.press("down")
                assert f"127.0.0.1:{server.port}" in status(app, "#table-detail")
                await pilot.press("enter")
                await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                                 and app.session.lobby is not None, what="the waiting room")
                assert [seat.name for seat in app.session.lobby.seats] == [
                    "Greedy bot", "Random bot", "amy", "bob"]
                assert app.client is not None and app.client.seat == 3
                assert load_settings(tmp_path).player_name == "bob"

                # Seats taken by players show up in the list too.
                await wait_until(pilot, lambda: row_texts(lobby, name)[0][3] == "2/4",
                                 timeout=15, what="the joined seat")
                await amy.close()
                assert table.row_count >= 1 and advertiser.info.protocol_version == PROTOCOL_VERSION
                await advertiser.close()  # the host leaves: the table disappears from the list
                await wait_until(pilot, lambda: not listed(lobby, name), timeout=15,
                                 what="the removal")


async def test_typed_address_with_password_prompt(tmp_path: Path) -> None:
    async with running_table(password="open sesame") as server:
        lobby = LobbyScreen(None, config_directory=tmp_path, name="ana")
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a")  # focus the address field
            await pilot.press(*f"127.0.0.1:{server.port}", "enter")
            await wait_until(pilot, lambda: isinstance(app.screen, PasswordPrompt), what="prompt")
            await pilot.press(*"wrong", "enter")
            await wait_until(pilot, lambda: isinstance(app.screen, PasswordPrompt)
                             and app.screen.wrong, what="the second prompt")
            assert "not right" in str(app.screen.query_one("#password-wrong", Static).render())
            await pilot.press(*"open sesame", "enter")
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None, what="the waiting room")
            assert app.session.lobby.seats[0].name == "ana"
        assert load_settings(tmp_path).last_address == f"127.0.0.1:{server.port}"


async def test_cancelled_password_prompt_stays_in_the_lobby(tmp_path: Path) -> None:
    async with running_table(password="pw") as server:
        lobby = LobbyScreen(None, config_directory=tmp_path, name="ana")
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test() as pilot:
            lobby.query_one("#address", Input).value = f"127.0.0.1:{server.port}"
            await pilot.click("#join-button")
            await wait_until(pilot, lambda: isinstance(app.screen, PasswordPrompt), what="prompt")
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is lobby, what="the lobby")
            assert "needs a password" in status(app)
            assert server.table.seats == []


async def test_bad_input_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    lobby = LobbyScreen(None, config_directory=tmp_path, name="ana")
    app = Ono99App(start_screen=lobby, ascii_glyphs=True)
    async with app.run_test() as pilot:
        await pilot.press("a", *"host:99999", "enter")
        assert "not a port" in status(app)
        name = lobby.query_one("#player-name", Input)
        name.value = "\x1b[31m  "
        lobby.query_one("#address", Input).value = "127.0.0.1:1"
        await pilot.press("enter")
        assert "Your name" in status(app) and name.has_focus
        assert app.screen is lobby and app.client is None
    assert not (tmp_path / "settings.json").exists() or load_settings(tmp_path).player_name == "ana"


async def test_unreachable_table_is_reported(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    lobby = LobbyScreen(None, config_directory=tmp_path, name="ana")
    app = Ono99App(start_screen=lobby, ascii_glyphs=True)
    async with app.run_test() as pilot:
        lobby.query_one("#address", Input).value = f"127.0.0.1:{port}"
        await pilot.click("#watch-button")
        await wait_until(pilot, lambda: "Could not join" in status(app), what="the error")
        # Issue 12: said as what it is, not "could not reach the table (Connect call failed...)".
        assert status(app) == f"Could not join: nothing is listening at 127.0.0.1:{port}"
        assert app.screen is lobby


async def test_join_address_from_the_command_line_goes_straight_in(tmp_path: Path) -> None:
    from netproto.addresses import Address

    async with running_table() as server:
        lobby = LobbyScreen(None, config_directory=tmp_path, name="cy",
                            join_address=Address("127.0.0.1", server.port), spectate=True)
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None, what="the waiting room")
            assert app.client is not None and app.client.role == "spectator"
            assert app.session.lobby.spectators == 1


async def test_a_failed_join_from_the_command_line_lists_the_tables(tmp_path: Path) -> None:
    # `ono99 join HOST:PORT` started before the host listened: "Could not join", and the
    # list under "Tables on your network" stayed empty for good (found by play-testing).
    from ono99tui.client.joining import Address

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]  # closed again when the test connects to it
    name = f"porch {secrets.token_hex(3)}"
    async with running_table(name=name, capacity=4) as server:
        server.table.add_bot("greedy")
        async with advertised(server):
            lobby = LobbyScreen(LOOPBACK, config_directory=tmp_path, name="bob",
                                join_address=Address("127.0.0.1", closed_port))
            app = Ono99App(start_screen=lobby, ascii_glyphs=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: "Could not join" in status(app),
                                 what="the error")
                await wait_until(pilot, lambda: listed(lobby, name), timeout=15,
                                 what="the table in the list")
                assert app.screen is lobby and app.client is None


async def test_remembered_name_fills_the_name_field(tmp_path: Path) -> None:
    from ono99tui.user_settings import Settings, save_settings

    save_settings(Settings(player_name="zed", last_address="10.1.2.3:9100"), tmp_path)
    lobby = LobbyScreen(None, config_directory=tmp_path)
    app = Ono99App(start_screen=lobby, ascii_glyphs=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert lobby.query_one("#player-name", Input).value == "zed"
        assert lobby.query_one("#address", Input).value == "10.1.2.3:9100"


async def test_damaged_settings_warn_and_fall_back(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text("{oops")
    lobby = LobbyScreen(None, config_directory=tmp_path, name="amy")
    app = Ono99App(start_screen=lobby, ascii_glyphs=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert lobby.query_one("#player-name", Input).value == "amy"
        assert any("not valid JSON" in str(note.message) for note in app._notifications)


async def test_a_full_table_seats_a_newcomer_as_a_spectator(tmp_path: Path) -> None:
    from netproto.addresses import Address
    from netproto.client import TableClient

    # Full of people (a bot would give up its seat: tests/ui/test_take_seat.py).
    async with running_table(capacity=2) as server, \
            await TableClient.connect("127.0.0.1", server.port, name="ann"), \
            await TableClient.connect("127.0.0.1", server.port, name="bob"):
        lobby = LobbyScreen(None, config_directory=tmp_path, name="late",
                            join_address=Address("127.0.0.1", server.port))
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test() as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None, what="the waiting room")
            assert app.client is not None and app.client.role == "spectator"
            assert any("you are watching" in str(note.message) for note in app._notifications)
            assert "(watching)" in str(app.screen.query_one("#room-title", Static).render())


async def test_joining_a_port_that_is_not_a_table_says_so_within_two_seconds(tmp_path: Path) -> None:
    # `ono99 join HOST:PORT` at a web server's port: it waited 10 s and said
    # "could not reach the table (...: TimeoutError)" (issue 12).
    import time

    from foreign_servers import answers_like_http, serving, stays_silent

    from ono99tui.client.joining import Address

    for handler, why in ((stays_silent, "no answer within 2 s"),
                         (answers_like_http, "a web server answered")):
        async with serving(handler) as port:
            lobby = LobbyScreen(None, config_directory=tmp_path, name="ana",
                                join_address=Address("127.0.0.1", port))
            app = Ono99App(start_screen=lobby, ascii_glyphs=True)
            async with app.run_test() as pilot:
                started = time.monotonic()
                await wait_until(pilot, lambda app=app: "Could not join" in status(app), what="the error")
                assert time.monotonic() - started < 4.0
                assert status(app) == (
                    f"Could not join: 127.0.0.1:{port} does not speak the ono99 protocol ({why})")
                assert app.screen is lobby and app.client is None


@asynccontextmanager
async def web_page(answer: object | None) -> AsyncIterator[int]:
    """A web server on loopback (a thread) whose /table.json is `answer` (None: no such
    page, as any web site); yields its port."""
    import http.server
    import json
    import threading

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if answer is None or self.path != "/table.json":
                self.send_error(404)
                return
            body = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        await asyncio.to_thread(server.shutdown)
        server.server_close()


async def test_a_web_door_s_address_typed_joins_the_table_behind_it(tmp_path: Path) -> None:
    from ono99tui.web.table_behind import door_answer

    async with running_table() as server, web_page(door_answer(server.port)) as web_port:
        lobby = LobbyScreen(None, config_directory=tmp_path, name="ana")
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", *f"http://127.0.0.1:{web_port}/", "enter")
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                             and app.session.lobby is not None, what="the waiting room")
            assert app.session.lobby.seats[0].name == "ana"
        # Remembered as the table's own address: what to type next time.
        assert load_settings(tmp_path).last_address == f"127.0.0.1:{server.port}"


async def test_a_web_address_with_no_table_behind_it_says_what_to_type(tmp_path: Path) -> None:
    async with web_page(None) as web_port:
        lobby = LobbyScreen(None, config_directory=tmp_path, name="ana")
        app = Ono99App(start_screen=lobby, ascii_glyphs=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", *f"http://127.0.0.1:{web_port}/", "enter")
            await wait_until(pilot, lambda: "not an ono99 table's web door" in status(app),
                             what="the answer")
            assert status(app) == (
                f"http://127.0.0.1:{web_port}/ is a web address, for a browser; it is a web "
                "page (HTTP 404 for /table.json), not an ono99 table's web door. Type the "
                "table's own address: 127.0.0.1:9099 unless the host chose another port")
            assert app.screen is lobby and app.client is None
            assert lobby.query_one("#address", Input).has_focus
