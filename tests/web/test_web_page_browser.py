"""The door's page in a real browser (Debian's chromium), with a probe for the game: the
login, the name, the keyboard, the first click, the failure page, and no outside requests."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from web_helpers import TERMINAL_TRAP, Tab, ThreadedDoor, browser_context, wait_until

from ono99tui.web.config import WebDoorConfig

pytestmark = pytest.mark.browser


@pytest.fixture
def door(door_config: WebDoorConfig) -> Iterator[ThreadedDoor]:
    started = ThreadedDoor(door_config)
    try:
        yield started
    finally:
        started.close()


def test_login_name_and_keys_reach_the_game_without_a_click_and_nothing_leaves_loopback(
    browser: Any, door: ThreadedDoor,
) -> None:
    with browser_context(browser) as (context, outside):
        tab = Tab(context.new_page())
        tab.page.goto(door.url)
        tab.log_in()
        tab.sit_down("ana")
        tab.wait_for(r'START \{"argv": \["ana"\]')
        tab.press("j")  # no click first: the terminal has the keyboard once connected
        tab.wait_for('KEYS "j"')

        # A click while the terminal does not have the keyboard only gives it back...
        tab.page.evaluate("document.activeElement.blur()")
        tab.page.mouse.click(200, 200)
        tab.press("k")
        tab.wait_for('KEYS "k"')
        assert r"\u001b[<" not in tab.screen()
        # ...and the next click reaches the game as a click.
        tab.page.mouse.click(200, 200)
        tab.wait_for(r'KEYS "\\u001b\[<0;')

        # A second tab of the same browser is a second player, with a folder of its own.
        other = Tab(context.new_page())
        other.page.goto(door.url)
        other.sit_down("bea")
        other.wait_for(r'START \{"argv": \["bea"\]')
        assert door.call(_session_names(door)) == ["ana", "bea"]

        # A reload keeps the tab's seat: the same player, asked no name.
        tab.page.reload()
        tab.wait_for_first_byte()
        tab.wait_for(r'START \{"argv": \["ana"\]')
        assert tab.page.is_hidden("#name-layer")
    assert outside.urls == []


# Each of the terminal's canvases: its drawing buffer's width over its width on the page.
CANVAS_DENSITIES = """() => [...document.querySelectorAll('#terminal canvas')]
  .map((canvas) => canvas.width / canvas.getBoundingClientRect().width)"""


def test_a_high_dpi_screen_gets_the_terminal_drawn_at_its_pixel_density(browser: Any, door: ThreadedDoor) -> None:
    # A phone's screen: three device pixels per CSS pixel. Drawn in canvases sized in CSS
    # pixels, the table would show two or three times too large (its left part only).
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3,
                                  is_mobile=True, has_touch=True)
    try:
        context.add_init_script(TERMINAL_TRAP)
        tab = Tab(context.new_page())
        tab.page.goto(door.url)
        tab.log_in()
        tab.sit_down("ana")
        tab.wait_for(r'START \{"argv": \["ana"\]')
        densities = wait_until(lambda: tab.page.evaluate(CANVAS_DENSITIES), 10, "the terminal's canvases")
        wait_until(lambda: all(abs(d - 3) < 0.05 for d in tab.page.evaluate(CANVAS_DENSITIES)), 10,
                   f"canvases at 3 device pixels per CSS pixel (first seen: {densities})")
    finally:
        context.close()


async def _session_names(door: ThreadedDoor) -> list[str]:
    return sorted(session.player for session in door.door.sessions.values())


def test_a_wrong_password_shows_the_login_page_again(browser: Any, door: ThreadedDoor) -> None:
    with browser_context(browser) as (context, outside):
        tab = Tab(context.new_page())
        tab.page.goto(door.url)
        tab.log_in("not it")
        assert tab.page.text_content(".error") == "Wrong password."
        assert tab.page.query_selector("#terminal") is None
        assert context.cookies() == []
    assert outside.urls == []


def test_a_game_that_cannot_start_gets_a_clear_page(browser: Any, door_config: WebDoorConfig) -> None:
    def failing(player: str) -> list[str]:
        return ["/bin/sh", "-c", "echo 'ModuleNotFoundError: No module named textual' >&2; exit 1"]

    door = ThreadedDoor(replace(door_config, command=failing, password=None, open_access=True))
    try:
        with browser_context(browser) as (context, outside):
            tab = Tab(context.new_page())
            tab.page.goto(door.url)
            tab.page.wait_for_selector("#name", state="visible")
            tab.page.fill("#name", "ana")
            tab.page.press("#name", "Enter")
            assert tab.ended_title() == "The game could not be started."
            assert tab.page.text_content("#ended-detail") == "ModuleNotFoundError: No module named textual"
            assert tab.page.is_visible("#ended-again")
        assert outside.urls == []
    finally:
        door.close()


def test_the_websocket_goes_to_the_address_the_browser_used(browser: Any, door_config: WebDoorConfig) -> None:
    door = ThreadedDoor(replace(door_config, password=None, open_access=True))
    try:
        with browser_context(browser) as (context, outside):
            tab = Tab(context.new_page())
            sockets: list[str] = []
            tab.page.on("websocket", lambda socket: sockets.append(socket.url))
            tab.page.goto(f"http://localhost:{door.door.port}/terminal")
            tab.sit_down("ana")
            tab.wait_for(r'START \{"argv": \["ana"\]')
        assert [url.split("?")[0].rsplit("/", 1)[0] for url in sockets] == [f"ws://localhost:{door.door.port}/ws"]
        assert outside.urls == []
    finally:
        door.close()
