"""SVG snapshots of the lobby and the waiting room: 80x24, ASCII mode, a small terminal.

The screens are fed fixed tables and a fixed lobby (no network), so every run draws the
same picture. Update on purpose with `pytest --snapshot-update` and look at the result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from netproto.lan.discovery import DiscoveredTable, TableChange, TableEvent, TableInfo, TableState
from netproto.wire.messages import Lobby, SeatInfo
from ono99tui.game import preset
from ono99tui.game.codec import rules_to_wire
from ono99tui.ui.app import Ono99App
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

TABLES = (
    TableInfo(1, "Kitchen table", "ana", "2022", 2, 4, TableState.WAITING, False, 9099,
              ("192.168.1.20",), ssh_port=2299),
    TableInfo(1, "[b]Attic[/b]", "bob", "1980", 5, 5, TableState.PLAYING, True, 9100,
              ("192.168.1.21",)),
    TableInfo(1, "Garden", "cy", "1980-set99", 1, 3, TableState.FINISHED, False, 9099,
              ("192.168.1.22", "10.0.0.5")),
)


def lobby_app(tmp_path: Path, *, ascii_glyphs: bool) -> Ono99App:
    lobby = LobbyScreen(None, config_directory=tmp_path, name="dee")
    return Ono99App(start_screen=lobby, ascii_glyphs=ascii_glyphs)


async def show_tables(pilot: Pilot[Any]) -> None:
    lobby = pilot.app.screen
    assert isinstance(lobby, LobbyScreen)
    for number, info in enumerate(TABLES):
        lobby.apply_table_event(TableEvent(TableChange.ADDED, DiscoveredTable(f"t{number}", info)))
    lobby.query_one("#tables").focus()
    # The table sizes its columns to new rows when the app is next idle.
    await pilot.pause()
    await pilot.pause()


def room_lobby(*, you: int | None) -> Lobby:
    rules = preset("1980").replace(scoring="points-lowest", target=150)
    return Lobby(
        phase="waiting",
        seats=(
            SeatInfo(0, "ana", "human", False, True),
            SeatInfo(1, "Greedy bot", "bot", True, True),
            SeatInfo(2, "[red]bob[/red]", "human", True, False),
        ),
        host_seat=0,
        you=you,
        capacity=4,
        spectators=2,
        options={"preset": "1980", "rules": rules_to_wire(rules), "password": False},
    )


def room_app(*, you: int | None, ascii_glyphs: bool) -> Ono99App:
    invite = "Others join with: ono99 join   (or ono99 join 192.168.1.20:9099)"
    screen = WaitingRoomScreen(invite=invite if you == 0 else "")
    return Ono99App(start_screen=screen, ascii_glyphs=ascii_glyphs)


def set_lobby(you: int | None) -> Any:
    async def run_before(pilot: Pilot[Any]) -> None:
        pilot.app.post_message(TableItem(room_lobby(you=you)))
        await pilot.pause()

    return run_before


def test_lobby_80x24(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(lobby_app(tmp_path, ascii_glyphs=False), terminal_size=(80, 24),
                        run_before=show_tables)


def test_lobby_ascii(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(lobby_app(tmp_path, ascii_glyphs=True), terminal_size=(80, 24),
                        run_before=show_tables, press=["down"])


def test_lobby_with_a_table_not_answering(snap_compare: Any, tmp_path: Path) -> None:
    async def one_silent(pilot: Pilot[Any]) -> None:
        await show_tables(pilot)
        lobby = pilot.app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.show_answering("t0", False)  # as the lobby's probes report a dead host
        await pilot.pause()

    assert snap_compare(lobby_app(tmp_path, ascii_glyphs=False), terminal_size=(80, 24),
                        run_before=one_silent)


def test_lobby_small_terminal(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(lobby_app(tmp_path, ascii_glyphs=False), terminal_size=(60, 16),
                        run_before=show_tables)


@pytest.mark.parametrize("ascii_glyphs", [False, True], ids=["unicode", "ascii"])
def test_waiting_room_host_80x24(snap_compare: Any, ascii_glyphs: bool) -> None:
    assert snap_compare(room_app(you=0, ascii_glyphs=ascii_glyphs), terminal_size=(80, 24),
                        run_before=set_lobby(0))


def test_waiting_room_player_80x24(snap_compare: Any) -> None:
    assert snap_compare(room_app(you=2, ascii_glyphs=False), terminal_size=(80, 24),
                        run_before=set_lobby(2))


def test_waiting_room_spectator_small_terminal(snap_compare: Any) -> None:
    assert snap_compare(room_app(you=None, ascii_glyphs=True), terminal_size=(60, 18),
                        run_before=set_lobby(None))


async def test_tiny_and_changing_terminals_never_crash(tmp_path: Path) -> None:
    """Any size, any resize: the screens squeeze (or scroll) but keep working."""
    for app, before in (
        (lobby_app(tmp_path, ascii_glyphs=False), show_tables),
        (room_app(you=0, ascii_glyphs=True), set_lobby(0)),
    ):
        async with app.run_test(size=(24, 8)) as pilot:
            await before(pilot)
            for size in ((12, 4), (80, 24), (50, 12), (200, 60), (1, 1), (80, 24)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
            assert app.screen.is_mounted and app.return_code is None
