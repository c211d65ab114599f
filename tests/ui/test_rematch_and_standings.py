"""After the match: Esc on the match-over dialog keeps the rematch and the results at the
table, the matches won across rematches, and notifications that cover nothing."""

from __future__ import annotations

import pytest
from table_helpers import (
    LocalMatch,
    RecordingApp,
    lobby_for,
    open_local,
    record_notices,
    screen_text,
    solo,
    start_solo_table,
    wait_until,
)
from test_solo_match import play_to_the_end
from textual.widgets._toast import Toast

from ono99tui.game import MATCH_OVER, legal_moves, preset
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen, StandingsScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.widgets.cards import HandView
from ono99tui.ui.widgets.total import TotalPanel


def dialog_text(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(str(static.content) for static in app.screen.query("Static"))


async def test_after_esc_on_the_match_over_dialog_the_table_offers_the_rematch() -> None:
    async with start_solo_table(bots=2, seed=11) as server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None)
            await play_to_the_end(app, pilot)
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)
            footer = screen_text(app).splitlines()[-1]
            assert "r Rematch" in footer and "w Wins" in footer
            assert "1-4 Play" not in footer  # no cards to play any more
            assert "r: rematch, w: results" in screen_text(app)
            # The results again, then back.
            await pilot.press("w")
            assert isinstance(app.screen, MatchEndScreen)
            await pilot.press("escape")
            await pilot.press("r")  # the solo player holds the host rights: it deals at once
            await wait_until(pilot, lambda: app.session.view.phase != MATCH_OVER)
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.session.view.round_no == 1
            assert len(server.table.journal) == 2
            assert "Rematch" not in screen_text(app).splitlines()[-1]


async def test_matches_won_on_the_dialog_and_on_a_key_at_the_table() -> None:
    async with start_solo_table(bots=2, seed=11) as server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None)
            await play_to_the_end(app, pilot)
            # The count comes with the table's lobby, just after the last view.
            # The count comes with the table's lobby, just after the last view: matches
            # won and played at this table (the evening's standings).
            await wait_until(pilot, lambda: "Won here" in dialog_text(app))
            winner = app.session.view.winners[0]
            names = [seat.name for seat in app.session.lobby.seats]
            rows = [line for line in dialog_text(app).splitlines()
                    if line[:2] in ("1.", "2.", "3.")]
            assert rows[0].startswith(f"1. {names[winner]} ")
            assert [row.split()[-2:] for row in rows] == [["1", "1"], ["0", "1"], ["0", "1"]]
            await pilot.press("r")
            await wait_until(pilot, lambda: app.session.view.phase != MATCH_OVER
                             and isinstance(app.screen, TableScreen))
            await pilot.press("w")  # mid-match: the matches won so far
            assert isinstance(app.screen, StandingsScreen)
            text = dialog_text(app)
            assert "Matches won at this table" in text
            rows = {line.rsplit(None, 2)[0]: line.rsplit(None, 2)[1:]
                    for line in text.splitlines()[2:] if line.strip()}
            assert rows[names[winner]] == ["1", "1"]
            assert sorted(rows.values()) == [["0", "1"], ["0", "1"], ["1", "1"]]
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)


async def test_the_standings_key_before_any_match_has_ended() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 3, seed=1), lobby_for(3))
        await pilot.press("w")
        assert "No match has ended at this table yet." in dialog_text(app)
        await pilot.press("escape")
        # Only once the match is over is there a rematch to ask for.
        assert app.screen.check_action("rematch", ()) is False
        assert "Rematch" not in screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("size", [(80, 24), (60, 18)])
async def test_notifications_leave_the_hand_the_total_and_the_prompt_uncovered(
        size: tuple[int, int]) -> None:
    app = RecordingApp()
    async with app.run_test(size=size, notifications=True) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 3, seed=1), lobby_for(3))
        for severity in ("information", "warning", "error"):
            app.notify("The table said no: this is a long reason that wraps onto lines",
                       title="A title", severity=severity)
        await wait_until(pilot, lambda: len(app.screen.query(Toast)) == 3)
        toasts = list(app.screen.query(Toast))
        covered = [app.screen.query_one(HandView).region, app.screen.query_one("#prompt").region,
                   app.screen.query_one(TotalPanel).region]
        for toast in toasts:
            for region in covered:
                assert not toast.region.overlaps(region), (toast.region, region)


async def test_no_toast_over_the_match_over_dialog() -> None:
    """Players put out in the last round used to raise a toast each, on top of the dialog."""
    match = LocalMatch(preset("1980").replace(tokens=2), 3, seed=5)
    app = RecordingApp()
    notices = record_notices(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        app.notify("an older notice")
        while match.state.phase != MATCH_OVER:
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
            if match.state.phase == MATCH_OVER or any(not alive for alive in match.state.alive):
                await match.show(app, pilot)
            while not isinstance(app.screen, (TableScreen, MatchEndScreen)):
                await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MatchEndScreen)
        assert not any("out of the match" in notice for notice in notices)
        assert not list(app.screen.query(Toast))


async def test_keys_still_work_after_the_hand_empties_behind_a_dialog() -> None:
    """Put out of a 1980 match with an empty hand while the round's dialog was up, the
    player pressed Esc on the match-over dialog and no key did anything any more: the
    focus was left on a card removed from the hand."""
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, LocalMatch(preset("2022"), 3, seed=1), lobby_for(3))
        table = app.screen
        hand = table.query_one(HandView)
        hand.cards[0].focus()
        await pilot.pause()
        app.push_screen(StandingsScreen())
        await pilot.pause()
        hand.show([])
        await pilot.pause()
        await pilot.press("escape")
        assert app.screen is table
        assert table.focused is None or table.focused.is_attached
        assert str(table.query_one("#hand-hint").content) == ""  # no word on a card gone
        await pilot.press("w")  # a table key still reaches the table
        assert isinstance(app.screen, StandingsScreen)


async def test_esc_on_the_match_over_dialog_leads_to_the_table_not_an_old_round() -> None:
    """Out of the match, the player did not dismiss the last round's dialog before the
    match ended: Esc on the match-over dialog showed that round again, not the table."""
    match = LocalMatch(preset("1980").replace(tokens=1), 3, seed=5)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        while match.state.phase != MATCH_OVER:  # nobody presses Enter on any dialog
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
            await match.show(app, pilot)
        assert len(app.session.story.round_results) >= 2
        assert isinstance(app.screen, MatchEndScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        assert "r Rematch" in screen_text(app).splitlines()[-1]


async def test_a_late_enter_on_a_round_dialog_does_not_close_the_match_dialog() -> None:
    """Enter pressed on a round's dialog just as the match ended (the table replaced the
    dialog by the match's) closed the match-over dialog instead: Textual's dismiss pops
    whatever is on top."""
    match = LocalMatch(preset("1980").replace(tokens=1), 3, seed=5)
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_local(app, pilot, match, lobby_for(3))
        round_dialog = None
        while match.state.phase != MATCH_OVER:
            match.step(lambda state, seat: match.rng.choice(legal_moves(state, seat)))
            await match.show(app, pilot)
            if isinstance(app.screen, RoundEndScreen):
                round_dialog = app.screen
        assert isinstance(app.screen, MatchEndScreen) and round_dialog is not None
        await round_dialog.run_action("dismiss")  # the Enter it had in its queue
        await pilot.pause()
        assert isinstance(app.screen, MatchEndScreen)


@pytest.mark.parametrize("host", [False, True], ids=["player", "host-with-room"])
@pytest.mark.parametrize("size", [(61, 19), (40, 12), (80, 24)])
async def test_the_match_over_dialog_keeps_its_buttons_and_keys_where_it_is_short(
        size: tuple[int, int], host: bool) -> None:
    # Played at 61x19 after a long match: the table of rounds pushed Rematch and Quit off
    # the foot of the dialog, cut off where the terminal ends. And the host's third
    # button, "Waiting room (o)", pushed Quit off its right edge at 80x24.
    from dataclasses import replace

    from test_standings_snapshots import long_match, play_out
    from textual.widgets import Button

    from netproto.wire.messages import Welcome
    from ono99tui.ui.requests import TableItem
    from ono99tui.ui.screens.confirm_quit import ConfirmQuitScreen

    match = long_match()
    app = RecordingApp()
    async with app.run_test(size=size) as pilot:
        if host:  # a table that knows `open_room`, this app its host
            app.post_message(TableItem(Welcome(proto=1, role="player", seat=0, token="t",
                                              host=True, table={"name": "den", "room": True})))
        await open_local(app, pilot, match, lobby_for(3, bots=(2,)))
        await play_out(pilot, match, chunk=40)
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        app.post_message(TableItem(replace(lobby_for(3, bots=(2,)), phase="finished")))
        await wait_until(pilot, lambda: app.session.lobby is not None and app.session.lobby.phase == "finished")
        await pilot.pause()
        dialog = app.screen
        shown = [button for button in dialog.query(Button) if button.display]
        assert ("open-room" in [button.id for button in shown]) is host
        for button in shown:
            geometry = dialog.find_widget(button)
            assert geometry.visible_region == geometry.region, (button.id, geometry)
            assert dialog.region.contains_region(geometry.region), (button.id, geometry)
        status = dialog.query_one("#rematch-status")
        await pilot.press("r")
        await wait_until(pilot, lambda: "rematch" in str(status.content))
        geometry = dialog.find_widget(status)
        assert geometry.visible_region == geometry.region  # the player sees the answer
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running
                         or isinstance(app.screen, ConfirmQuitScreen))


async def test_nothing_that_scrolls_shows_beside_the_match_over_buttons() -> None:
    # Played in tmux at 61x19 (solo, four seats): the rounds' columns wider than the
    # buttons showed through beside them, under the docked foot of the dialog.
    from dataclasses import replace

    from test_standings_snapshots import play_out

    match = LocalMatch(preset("1980"), 4, seed=4)
    lobby = lobby_for(4, bots=(1, 2, 3))
    lobby = replace(lobby, seats=tuple(replace(seat, name=f"Normal bot {seat.seat}")
                                       for seat in lobby.seats))
    app = RecordingApp()
    async with app.run_test(size=(61, 19)) as pilot:
        await open_local(app, pilot, match, lobby)
        await play_out(pilot, match, chunk=40)
        await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
        await pilot.pause()
        quit_button = app.screen.query_one("#quit").region
        inside = app.screen.query_one(".results").content_region
        rows = screen_text(app).splitlines()
        beside = [rows[y][quit_button.right:inside.right - 2]
                  for y in range(quit_button.y - 1, quit_button.bottom)]  # status row too
        assert all(not part.strip() for part in beside), beside
