"""Focus you can see in 16 and in 256 colours (issue 22), on every screen.

Played: in the host's rules panel the focused drop-down differed from the others only by
background 234 against 235 in 256 colours, and not at all with TERM=xterm. Here every
focusable widget of every screen is drawn focused and not focused, as a terminal of that
many colours shows it (`colour_terminals.shown_cells`), and the two must differ to the eye:
another of the 16 colours, or in 256 colours a colour well apart, or bold, underline or
reverse, or other characters (a card's thick frame); the text cursor of an input alone (one
cell, which blinks) does not count.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from colour_terminals import DEFAULT_BG, DEFAULT_FG, XTERM_THEME, Cell, shown_cells
from rich.color import Color
from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until
from test_lobby_snapshots import TABLES, room_lobby
from textual.pilot import Pilot
from textual.widget import Widget

from netproto.lan.discovery import DiscoveredTable, TableChange, TableEvent
from ono99tui.game import MATCH_OVER, Card, position, preset
from ono99tui.ui.app import Ono99App
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.chat_prompt import ChatPrompt
from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.mute import MuteScreen
from ono99tui.ui.screens.password_prompt import PasswordPrompt
from ono99tui.ui.screens.results import MatchEndScreen
from ono99tui.ui.screens.table_gone import TableGoneScreen
from ono99tui.ui.screens.turn_time_prompt import TurnTimePrompt
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

Scene = Callable[[bool, Path], tuple[Ono99App, Callable[[Pilot[Any]], Awaitable[None]]]]


def _rgb(name: str) -> tuple[int, int, int]:
    if name in (DEFAULT_FG, DEFAULT_BG):  # xterm's own
        own = XTERM_THEME.foreground_color if name == DEFAULT_FG else XTERM_THEME.background_color
        return (own.red, own.green, own.blue)
    triplet = Color.from_ansi(int(name)).get_truecolor()
    return (triplet.red, triplet.green, triplet.blue)


def _apart(one: str, other: str) -> bool:
    """Two of the 256 colours a person tells apart (234 and 235 are not)."""
    distance = sum((a - b) ** 2 for a, b in zip(_rgb(one), _rgb(other), strict=True)) ** 0.5
    return distance >= 60


def looks_different(focused: Cell, unfocused: Cell, colour_system: str) -> bool:
    """Does a cell look different to the eye, focused and not? (A card's focus is a thick
    border: other characters in its frame, in whatever colour its kind has.)"""
    if focused.char != unfocused.char:
        return True
    if colour_system == "standard":
        return focused.looks != unfocused.looks
    fg, bg, bold, underline = focused.looks
    other_fg, other_bg, other_bold, other_underline = unfocused.looks
    if (bold, underline) != (other_bold, other_underline):
        return True
    return _apart(bg, other_bg) or (bool(focused.char.strip()) and _apart(fg, other_fg))


async def shown_focus(app: Ono99App, pilot: Pilot[Any], widget: Widget,
                      colour_system: str) -> int:
    """How many of the widget's cells look different with the focus and without."""
    widget.focus()
    await pilot.pause()
    await pilot.pause()
    focused = shown_cells(app, colour_system, widget.region)
    app.screen.set_focus(None)
    await pilot.pause()
    await pilot.pause()
    unfocused = shown_cells(app, colour_system, widget.region)
    return sum(looks_different(a, b, colour_system)
               for a, b in zip(focused, unfocused, strict=True))


# --- the screens, each with whatever may take the focus on it --------------------------

def lobby(sixteen: bool, tmp_path: Path):
    screen = LobbyScreen(None, config_directory=tmp_path, name="dee")
    app = Ono99App(start_screen=screen, ascii_glyphs=False, sixteen_colours=sixteen)

    async def before(pilot: Pilot[Any]) -> None:
        for number, info in enumerate(TABLES):
            screen.apply_table_event(
                TableEvent(TableChange.ADDED, DiscoveredTable(f"t{number}", info)))
        await pilot.pause()

    return app, before


def waiting_room(sixteen: bool, tmp_path: Path):
    app = Ono99App(start_screen=WaitingRoomScreen(invite="Others join with: ono99 join"),
                   ascii_glyphs=False, sixteen_colours=sixteen)

    async def before(pilot: Pilot[Any]) -> None:
        app.post_message(TableItem(room_lobby(you=0)))
        await pilot.pause()

    return app, before


def table(sixteen: bool, tmp_path: Path, *, then: Callable[[Ono99App], object] | None = None):
    # Every kind of card face: a number, a special, one that may not be played now.
    state = position(preset("2022"), [[Card.FIVE, Card.PLAY2, Card.ONO99, Card.REVERSE],
                                      [Card.TWO] * 4, [Card.THREE] * 4], total=95)
    app = RecordingApp(sixteen_colours=sixteen)

    async def before(pilot: Pilot[Any]) -> None:
        await open_local(app, pilot, LocalMatch.at(state), lobby_for(3, bots=(1, 2)))
        if then is not None:
            screen = then(app)
            if screen is not None:
                await app.push_screen(screen)  # type: ignore[arg-type]
                await pilot.pause()

    return app, before


def over_the_table(make: Callable[[Ono99App], object]) -> Scene:
    def scene(sixteen: bool, tmp_path: Path):
        return table(sixteen, tmp_path, then=make)

    return scene


def match_over(sixteen: bool, tmp_path: Path):
    match = LocalMatch(preset("2022"), 3, seed=8)
    match.run_until(lambda state: state.phase == MATCH_OVER)
    app = RecordingApp(sixteen_colours=sixteen)

    async def before(pilot: Pilot[Any]) -> None:
        await open_local(app, pilot, match, dataclasses.replace(lobby_for(3, bots=(1, 2)),
                                                                phase="finished"))
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))

    return app, before


SCENES: dict[str, Scene] = {
    "lobby": lobby,
    "waiting room": waiting_room,
    "table": table,
    "match over": match_over,
    "chat prompt": over_the_table(lambda app: ChatPrompt()),
    "mute list": over_the_table(lambda app: MuteScreen(["bob", "cy"], {"cy"})),
    "turn clock": over_the_table(lambda app: TurnTimePrompt(None)),
    "quit": over_the_table(lambda app: ConfirmQuitScreen("Leave?", "The seat is held.")),
    "password": over_the_table(lambda app: PasswordPrompt("den")),
    "table gone": over_the_table(
        lambda app: TableGoneScreen("The table closed", "The host left.", lobby=True)),
}


@pytest.mark.parametrize("colour_system", ["standard", "256"])
@pytest.mark.parametrize("scene", sorted(SCENES))
async def test_every_focusable_widget_shows_its_focus(
        scene: str, colour_system: str, tmp_path: Path) -> None:
    app, before = SCENES[scene](colour_system == "standard", tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await before(pilot)
        widgets = [widget for widget in app.screen.focus_chain if widget.region.area]
        assert widgets, "nothing to focus"
        hidden = [f"{type(widget).__name__}#{widget.id or index}"
                  for index, widget in enumerate(widgets)
                  if await shown_focus(app, pilot, widget, colour_system) < 2]
        assert hidden == [], f"focus not seen in {colour_system} colours"


async def test_an_empty_turn_time_is_off_not_an_error(tmp_path: Path) -> None:
    # "Turn secs  off" (empty: no clock) was tinted red once the field had been visited,
    # which reads as an error.
    from textual.widgets import Input

    app, before = waiting_room(False, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await before(pilot)
        field = app.screen.query_one("#opt-turn_seconds", Input)
        field.focus()
        await pilot.pause()
        await pilot.press("tab")  # visited and left empty
        await pilot.pause()
        assert field.value == "" and not field.has_focus
        assert not field.has_class("-invalid")
        reds = {cell.bg for cell in shown_cells(app, "256", field.region)}
        assert all(_rgb(bg)[0] - max(_rgb(bg)[1:]) < 30 for bg in reds), reds
