"""Hints at the table: the `h` key only where the table allows hints, the hint worked out
on a worker thread from the player's own view and the events it was sent, and the hint
panel (a Pilot test per path, an SVG snapshot of the panel at 80×24)."""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from typing import Any

import pytest
from table_helpers import (
    LocalMatch,
    RecordingApp,
    first_playable,
    lobby_for,
    open_local,
    record_notices,
    solo,
    start_solo_table,
    wait_until,
)

from netproto.wire.messages import Lobby
from ono99tui.client.story import SeenEvents
from ono99tui.game import preset
from ono99tui.ui import hinting
from ono99tui.ui.hinting import Hint, HintRow
from ono99tui.ui.screens.hint import HintScreen
from ono99tui.ui.screens.table import TableScreen


def my_turn(seed: int = 21, plays: int = 7) -> LocalMatch:
    """A 4-seat 2022 match a few plays in, seen by seat 0 on its turn."""
    match = LocalMatch(preset("2022"), 4, seed=seed)
    for _ in range(plays):
        match.step()
    match.run_until(lambda state: state.turn == 0)
    return match


def hints_lobby() -> Lobby:
    """The waiting room's word for `my_turn`'s table: 3 bots, hints allowed."""
    return replace(lobby_for(4, bots=(1, 2, 3)), options={"hints": True})


def footer_keys(app: RecordingApp) -> set[str]:
    return {key for key, active in app.screen.active_bindings.items()
            if active.binding.show and active.enabled}


async def test_no_hint_key_where_the_table_does_not_allow_hints() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = my_turn()
        await open_local(app, pilot, match, lobby_for(4, bots=(1, 2, 3)))  # no hints option
        assert not app.session.hints_allowed and "h" not in footer_keys(app)
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        # The table switches hints on (between matches, as the lobby then says): the key is
        # there.
        await open_local(app, pilot, match, hints_lobby())
        await wait_until(pilot, lambda: "h" in footer_keys(app))


async def test_hints_switched_off_take_the_key_away_and_h_says_why() -> None:
    # Issue 22: after a restart that lost the table's hints, a joiner's footer still showed
    # h, and h did nothing, silently.
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = my_turn()
        notices = record_notices(app)
        await open_local(app, pilot, match, hints_lobby())
        await wait_until(pilot, lambda: "h" in footer_keys(app))
        await open_local(app, pilot, match, lobby_for(4, bots=(1, 2, 3)))  # hints off now
        await wait_until(pilot, lambda: "h" not in footer_keys(app))
        await pilot.press("h")
        await wait_until(pilot, lambda: notices)
        assert notices == ["Hints are off at this table: the host decides."]
        assert isinstance(app.screen, TableScreen)


async def test_h_on_someone_else_s_turn_says_so() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = my_turn()
        match.step()  # now it is seat 1's turn
        notices = record_notices(app)
        await open_local(app, pilot, match, hints_lobby())
        await pilot.press("h")
        await wait_until(pilot, lambda: notices)
        assert notices == ["A hint is for your own turn to play a card."]
        assert isinstance(app.screen, TableScreen)


async def test_solo_shows_a_hint_worked_out_off_the_ui_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async with start_solo_table(bots=2, seed=11) as server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None and app.session.hints_allowed)
            await wait_until(pilot, lambda: app.session.view.turn == app.session.view.seat
                             and first_playable(app) is not None)
            threads: list[str] = []
            work = hinting.work_out_hint

            def recording(*args: Any, **options: Any) -> Hint:
                threads.append(threading.current_thread().name)
                return work(*args, **options)

            monkeypatch.setattr(hinting, "work_out_hint", recording)
            await pilot.press("h")
            await wait_until(pilot, lambda: isinstance(app.screen, HintScreen))
            assert threads and threads[0] != threading.main_thread().name
            hint = app.screen.hint
            view = app.session.view
            playable = {move for move in view.legal_moves if type(move).__name__ != "Draw"}
            assert len(hint.rows) == len(playable)
            assert sum(row.suggested for row in hint.rows) == 1
            assert all(0.0 <= row.win <= 1.0 and 0.0 <= row.next_bust <= 1.0
                       for row in hint.rows)
            assert hint.suggested in {row.card for row in hint.rows} and hint.reason
            # Each row names the key that plays its card.
            for row in hint.rows:
                assert row.key == "s" or view.hand[int(row.key) - 1].label(view.rules) == row.card
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))


async def test_a_key_in_the_panel_plays_that_card() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = my_turn()
        await open_local(app, pilot, match, hints_lobby())
        view = app.session.view
        hint = hinting.work_out_hint(view, (), budget_s=0.002)
        app.push_screen(HintScreen(hint, about=view))
        await wait_until(pilot, lambda: isinstance(app.screen, HintScreen))
        for row in hint.rows:  # the last row: not simply the table's first card
            key = row.key
        await pilot.press(key)
        await wait_until(pilot, lambda: app.sent)
        assert isinstance(app.screen, TableScreen)
        played = app.sent[0]
        assert hinting.move_key(played, view) == key and played in view.legal_moves


async def test_a_key_with_no_playable_card_in_the_panel_only_rings() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = my_turn()
        await open_local(app, pilot, match, hints_lobby())
        one_card = replace(HINT, rows=HINT.rows[:1])  # only key "2" plays
        rings: list[bool] = []
        app.bell = lambda: rings.append(True)  # type: ignore[method-assign]
        app.push_screen(HintScreen(one_card, about=app.session.view))
        await wait_until(pilot, lambda: isinstance(app.screen, HintScreen))
        plays = app.session.view.plays
        await pilot.press("3")
        await pilot.pause()
        assert rings == [True] and isinstance(app.screen, HintScreen)
        assert app.session.view.plays == plays


async def test_the_panel_closes_when_the_position_it_is_about_is_gone() -> None:
    app = RecordingApp()
    async with app.run_test(size=(80, 24)) as pilot:
        match = my_turn()
        await open_local(app, pilot, match, hints_lobby())
        app.push_screen(HintScreen(HINT, about=app.session.view))
        await wait_until(pilot, lambda: isinstance(app.screen, HintScreen))
        match.step()  # played for the player (a stand-in): the turn has passed
        await match.show(app, pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))


async def test_a_hint_for_a_view_that_is_gone_is_not_shown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = RecordingApp()
    release = threading.Event()

    def slow_hint(*args: Any, **options: Any) -> Hint:
        release.wait(30)  # on the worker thread: the UI goes on meanwhile
        return HINT

    monkeypatch.setattr(hinting, "work_out_hint", slow_hint)
    async with app.run_test(size=(80, 24)) as pilot:
        match = my_turn()
        notices = record_notices(app)
        await open_local(app, pilot, match, hints_lobby())
        await pilot.press("h")
        await match.show(app, pilot)  # a new view arrives while the hint is worked out
        release.set()
        await wait_until(pilot, lambda: notices)
        assert notices == ["The table moved on: press h again for a hint."]
        assert isinstance(app.screen, TableScreen)


def test_seen_events_keep_only_the_current_deal() -> None:
    from ono99tui.game import Card, Played, RoundDealt

    seen = SeenEvents()
    seen.add([RoundDealt(1, 0, 1, (4, 4), 40), Played(1, Card.SEVEN, 7)])
    assert len(seen.events) == 2
    seen.add([Played(0, Card.TWO, 9), RoundDealt(2, 1, 0, (4, 4), 40)])
    assert seen.events == [RoundDealt(2, 1, 0, (4, 4), 40)]


HINT = Hint(
    rows=(HintRow("2", "10", 0.62, 0.18, True), HintRow("1", "Reverse", 0.55, 0.0, False),
          HintRow("4", "3", 0.48, 0.05, False), HintRow("3", "Play 2", 0.41, 0.33, False)),
    suggested="10",
    reason="10 is the biggest number that fits (62%); keep small cards and specials for "
           "when the total is high.",
    measures="match", deals=240)


def test_the_hint_panel_80x24(snap_compare) -> None:
    async def run_before(pilot) -> None:
        app = pilot.app
        await open_local(app, pilot, my_turn(), hints_lobby())
        app.push_screen(HintScreen(HINT))
        await pilot.pause()

    assert snap_compare(RecordingApp(), terminal_size=(80, 24), run_before=run_before)


def test_the_hint_panel_80x24_ascii(snap_compare) -> None:
    async def run_before(pilot) -> None:
        app = pilot.app
        await open_local(app, pilot, my_turn(), hints_lobby())
        app.push_screen(HintScreen(HINT))
        await pilot.pause()

    assert snap_compare(RecordingApp(ascii_glyphs=True), terminal_size=(80, 24),
                        run_before=run_before)


@pytest.mark.parametrize("seed", [3, 9])
async def test_a_hint_at_three_players_in_a_four_seat_table(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played: hints at a table with an empty seat showed "10 21% / 9 21% / 6 21%" for
    three players, and "Suggested: 10 (21%)" while 6 was listed at 22%."""
    from lobby_helpers import running_table

    from ono99tui.game import view as engine_view
    from ono99tui.ui.host_app import host_app

    work = hinting.work_out_hint

    def fixed(*args: Any, **options: Any) -> Hint:
        return work(*args, **{**options, "rng": random.Random(1)})

    monkeypatch.setattr(hinting, "work_out_hint", fixed)
    async with running_table(name="den", capacity=4, hints=True, host_key="k" * 24,
                             seed=seed) as server:
        app = host_app(server, player="hal")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None and app.session.is_host)
            for _ in range(2):
                await pilot.press("b")
                await pilot.pause()
            await wait_until(pilot, lambda: len(app.session.lobby.seats) == 3)
            await pilot.press("s")  # three of four seats taken: deal now
            await wait_until(pilot, lambda: app.session.view is not None
                             and app.session.view.turn == app.session.view.seat and first_playable(app) is not None)
            await pilot.press("h")
            await wait_until(pilot, lambda: isinstance(app.screen, HintScreen))
            hint = app.screen.hint
            # The hint counts the three in the match: it is the one the engine's own view
            # of the table gives, with the events the app was sent.
            state = server.table.state
            assert app.session.view.seats == 3 and state is not None and state.seats == 3
            assert hint == fixed(engine_view(state, app.session.view.seat), app.session.story.seen.events)
            # The card suggested is one with the highest chance shown.
            shown = {row.card: int(f"{row.win:.0%}"[:-1]) for row in hint.rows}
            suggested = next(row for row in hint.rows if row.suggested)
            assert shown[suggested.card] == max(shown.values()), hint
            assert hint.suggested == suggested.card
