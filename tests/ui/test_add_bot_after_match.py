"""The host adds a bot between matches, at the table, for a seat a player left.

Played: a friend went home after a match; the host's table had an empty seat and no way
to fill it (`b` lived in the waiting room only, which a finished table never shows again).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until
from textual.pilot import Pilot

from netproto.wire.messages import Lobby
from ono99tui.game import preset
from ono99tui.game.state import MATCH_OVER
from ono99tui.ui.requests import AddBotRequested


class BotAsker(RecordingApp):
    """A host's app with no connection that keeps the bots it would ask for."""

    def __init__(self) -> None:
        super().__init__()
        self.bots_asked: list[str] = []

    async def on_add_bot_requested(self, message: AddBotRequested) -> None:
        self.bots_asked.append(message.bot)


def shown_keys(app: Any) -> set[str]:
    return {key for key, active in app.screen.active_bindings.items()
            if active.binding.show and active.enabled}


def finished_lobby(seats: int, capacity: int, *, you: int = 0, level: str = "hard") -> Lobby:
    return dataclasses.replace(lobby_for(seats, you=you), phase="finished", capacity=capacity,
                               options={"bot_level": level})


async def at_the_finished_table(app: BotAsker, pilot: Pilot[Any], lobby: Lobby) -> None:
    match = LocalMatch(preset("2022"), 2, 3)
    match.run_until(lambda state: state.phase == MATCH_OVER)
    await open_local(app, pilot, match, lobby)
    app.session.connection_state = "connected"
    await wait_until(pilot, lambda: app.session.view is not None and app.session.view.phase == MATCH_OVER)
    while app.screen is not app._table_screen():  # the match-over dialog: Esc to the table
        await pilot.press("escape")
        await pilot.pause()
    app._table_screen()._show()
    await pilot.pause()


async def test_the_host_adds_a_bot_of_the_tables_level_for_an_empty_seat() -> None:
    app = BotAsker()
    async with app.run_test(size=(80, 24)) as pilot:
        await at_the_finished_table(app, pilot, finished_lobby(2, 3))
        assert "b" in shown_keys(app)
        await pilot.press("b")
        await pilot.pause()
        assert app.bots_asked == ["hard"]


async def test_no_bot_key_at_a_full_table_for_a_player_or_mid_match() -> None:
    for lobby in (finished_lobby(2, 2), finished_lobby(2, 3, you=1)):  # full; not the host
        app = BotAsker()
        async with app.run_test(size=(80, 24)) as pilot:
            await at_the_finished_table(app, pilot, lobby)
            assert "b" not in shown_keys(app)
            await pilot.press("b")
            await pilot.pause()
            assert app.bots_asked == []
    app = BotAsker()
    async with app.run_test(size=(80, 24)) as pilot:
        match = LocalMatch(preset("2022"), 2, 3)
        await open_local(app, pilot, match, dataclasses.replace(lobby_for(2), capacity=3))
        app.session.connection_state = "connected"
        await pilot.press("b")
        await pilot.pause()
        assert app.bots_asked == [] and "b" not in shown_keys(app)
