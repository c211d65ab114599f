"""The turn alert: the bell rings when the player's turn comes (or two cards are made owed
to them), never on another player's turn; the terminal title says so; the switch is
remembered in the settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import LocalMatch, RecordingApp, lobby_for, open_local, wait_until

from ono99tui import user_settings as config
from ono99tui.client.turn_alert import TITLE_IDLE, TITLE_YOUR_TURN
from ono99tui.game import MATCH_OVER, Card, legal_moves, position, preset

C = Card


class BellApp(RecordingApp):
    """Counts the bells instead of writing them (Pilot runs headless)."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.bells = 0

    def bell(self) -> None:
        self.bells += 1


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test remembers its settings in a directory of its own."""
    directory = tmp_path / "config"
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(directory))
    return directory


def my_turn(match: LocalMatch) -> bool:
    """The engine's word: is it seat 0's turn to play?"""
    state = match.state
    return state.phase != MATCH_OVER and state.turn == match.me and bool(legal_moves(state, match.me))


@pytest.mark.parametrize("seed", [3, 4])
async def test_the_bell_rings_exactly_when_the_turn_comes_to_you(seed: int) -> None:
    app = BellApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = LocalMatch(preset("2022"), 4, seed=seed)
        await open_local(app, pilot, match, lobby_for(4, bots=(1, 2, 3)))
        expected = int(my_turn(match))
        assert app.bells == expected
        was_mine = my_turn(match)
        turns = 0
        while match.state.phase != MATCH_OVER:
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
            await match.show(app, pilot)
            mine = my_turn(match)
            if mine and not was_mine:
                expected += 1
                turns += 1
            assert app.bells == expected, f"after {match.state.plays} plays"
            assert app.terminal_title == (TITLE_YOUR_TURN if mine else TITLE_IDLE)
            was_mine = mine
        assert turns >= 2  # the match gave seat 0 several turns


async def test_owing_two_cards_rings_and_a_turn_that_goes_on_does_not() -> None:
    # bob (seat 1) plays a Play 2 onto ana (seat 0): her turn, and she owes two cards.
    state = position(preset("2022"), [[C.ONE, C.TWO, C.THREE, C.FOUR], [C.PLAY2, C.FIVE, C.FIVE, C.FIVE]],
                     total=30, turn=1)
    match = LocalMatch.at(state)
    app = BellApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(2, bots=(1,)))
        assert app.bells == 0  # bob's turn
        match.step(lambda state, seat: next(m for m in legal_moves(state, seat) if m.card is C.PLAY2))
        await match.show(app, pilot)
        assert match.view().obligation_seat == 0
        assert app.bells == 1
        match.step()  # ana's first card: still her turn, one more card owed
        await match.show(app, pilot)
        assert match.state.turn == 0 and app.bells == 1


async def test_the_switch_is_in_the_palette_and_remembered(own_config: Path) -> None:
    app = BellApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = LocalMatch(preset("2022"), 2, seed=5)
        await open_local(app, pilot, match, lobby_for(2, bots=(1,)))
        assert match.state.turn == 0 and app.bells == 1
        await pilot.press("ctrl+p", *"Turn alert")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.turn_alert is not None and not app.turn_alert.enabled)
        assert app.terminal_title == TITLE_IDLE  # "your turn" is not left behind
    assert config.load_settings(own_config).turn_alert is False

    quiet = BellApp()  # the next run remembers
    async with quiet.run_test(size=(80, 24)) as pilot:
        await open_local(quiet, pilot, LocalMatch(preset("2022"), 2, seed=5), lobby_for(2, bots=(1,)))
        assert quiet.bells == 0 and quiet.terminal_title == ""
        quiet.action_toggle_turn_alert()
    assert config.load_settings(own_config).turn_alert is True


def test_a_damaged_settings_file_leaves_the_alert_on(own_config: Path) -> None:
    from ono99tui.client.turn_alert import TurnAlert

    own_config.mkdir()
    (own_config / config.SETTINGS_FILE).write_text("{damaged")
    assert TurnAlert().enabled is True


async def test_a_spectator_hears_no_bell() -> None:
    from table_items import lobby_updated, view_updated

    from ono99tui.game import spectator_view

    match = LocalMatch(preset("2022"), 3, seed=1)
    app = BellApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(lobby_updated(lobby_for(3, spectators=1)))
        seq = 0
        while match.state.phase != MATCH_OVER:
            seq += 1
            app.post_message(view_updated(seq, spectator_view(match.state), match.pending))
            match.pending = ()
            await pilot.pause()
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
        assert seq > 10 and app.bells == 0
        assert app.terminal_title == TITLE_IDLE


async def test_the_lobby_remembering_a_name_keeps_the_switch(own_config: Path) -> None:
    """The switch is saved at the table while the lobby (which loaded the settings earlier)
    is still open; the lobby's next save must not put the old value back."""
    from ono99tui.ui.app import Ono99App
    from ono99tui.ui.screens.lobby import LobbyScreen

    lobby = LobbyScreen(None, config_directory=own_config)
    app = Ono99App(start_screen=lobby, ascii_glyphs=True)
    async with app.run_test() as pilot:
        await pilot.pause()
        app.action_toggle_turn_alert()  # as from the palette at the table
        lobby._remember(player_name="zoe", last_address="")
    assert config.load_settings(own_config) == config.Settings(player_name="zoe", turn_alert=False)
