"""`j` in the host's waiting room, with a web door: the join QR modal at 80×24, driven by
Textual's Pilot on a real hosted table whose web door listens on loopback. The QR code as
drawn on the screen reads back (zxing-cpp) as the address shown under it; that address
logs a browser in; `n` replaces the code, after which the old address is refused."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from testkit.qr_reading import decode_half_blocks
from testkit.waiting import pilot_wait_until as wait_until
from textual.geometry import Region
from textual.widgets import Static

from ono99tui.cli import build_parser
from ono99tui.commands.door_options import WEB_PASSWORD_ENV
from ono99tui.commands.host import host_options_from_args
from ono99tui.commands.host_with_app import serve_with_app
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.join_qr import JoinQrScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen
from ono99tui.user_settings import CONFIG_DIR_ENV

HOST = ["host", "--bind", "127.0.0.1", "--port", "0", "--no-advertise", "--player", "ana",
        "--bots", "1", "--name", "QR table", "--web-port", "0"]


def drawn_qr(app: Ono99App) -> list[str]:
    """The QR code's lines as the screen shows them."""
    widget = app.screen.query_one("#join-qr", Static)
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return [strip.text for strip in strips]


async def status_of(url: str) -> int:
    async with aiohttp.ClientSession() as client, client.get(url, allow_redirects=False) as got:
        return got.status


async def test_the_join_qr_shows_reads_back_and_is_replaced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    monkeypatch.setenv(WEB_PASSWORD_ENV, "correct horse")
    options = host_options_from_args(build_parser().parse_args(HOST), headless=False)
    seen: dict[str, object] = {}

    async def play(app: Ono99App) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen),
                             what="the waiting room")
            await pilot.press("j")
            await wait_until(pilot, lambda: isinstance(app.screen, JoinQrScreen),
                             what="the QR modal")
            await pilot.pause()
            screen = app.screen
            url = str(screen.query_one("#join-url", Static).render())
            assert url.startswith("http://127.0.0.1:") and "/j/" in url
            box = screen.query_one("#join-box").region
            assert Region(0, 0, 80, 24).contains_region(box)  # all of it on an 80×24 screen
            assert decode_half_blocks(drawn_qr(app)) == url
            assert await status_of(url) == 303  # the code logs a browser in
            await pilot.press("n")
            await pilot.pause()
            new_url = str(screen.query_one("#join-url", Static).render())
            assert new_url != url and decode_half_blocks(drawn_qr(app)) == new_url
            assert await status_of(url) == 403  # the old one stops working
            assert await status_of(new_url) == 303
            seen["shown"] = True
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen),
                             what="back in the waiting room")
            await pilot.press("q")
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.return_code is not None, what="the app gone")

    await serve_with_app(options, "ana", run_app=play)
    assert seen.get("shown")


async def test_without_a_web_door_j_does_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    options = host_options_from_args(build_parser().parse_args(HOST[:-2]), headless=False)

    async def play(app: Ono99App) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen),
                             what="the waiting room")
            await pilot.press("j")
            await pilot.pause()
            assert isinstance(app.screen, WaitingRoomScreen)
            app.exit()

    await serve_with_app(options, "ana", run_app=play)
