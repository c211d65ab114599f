"""The plots (`ui/screens/plots.py`): the total over a round, opened with g from the
replay of a golden journal (one plotted point per play, the limit, the busts, its sentence)
and from a solo match's round and match dialogs played by key presses; an SVG snapshot at
80x24 (update with `pytest --snapshot-update` on this file)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from table_helpers import screen_text, solo, start_solo_table, wait_until
from test_solo_match import first_playable
from textual.pilot import Pilot
from textual_plotext import PlotextPlot

from ono99tui.game import MATCH_OVER, Played, RoundDealt
from ono99tui.host.journal.history import read_matches, replay_match
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.plots import PlotsScreen
from ono99tui.ui.screens.replay import ReplayScreen
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen
from ono99tui.ui.screens.table import TableScreen

JOURNALS = Path(__file__).parent.parent / "host" / "journals" / "v1"


def replay_app(preset_name: str) -> tuple[Ono99App, ReplayScreen]:
    [match] = read_matches(JOURNALS / f"{preset_name}.journal")
    screen = ReplayScreen(match, replay_match(match))
    return Ono99App(start_screen=screen, ascii_glyphs=False, sixteen_colours=False), screen


async def _at_the_end_with_the_plot(pilot: Pilot[Any], screen: ReplayScreen) -> None:
    await wait_until(pilot, lambda: "Move 0/" in screen_text(pilot.app))
    await pilot.press("end")
    await wait_until(pilot, lambda: screen.position == len(screen.steps) - 1)
    await pilot.press("g")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, PlotsScreen))
    await pilot.pause()


async def test_the_replays_plot_has_a_point_per_play_of_the_round_and_its_sentence() -> None:
    app, replay = replay_app("1980")
    async with app.run_test(size=(80, 24)) as pilot:
        await _at_the_end_with_the_plot(pilot, replay)
        plots = app.screen
        assert isinstance(plots, PlotsScreen) and plots.totals is not None
        events = [e for step in replay.steps for e in step.events]
        last_deal = max(i for i, e in enumerate(events) if isinstance(e, RoundDealt))
        plays = [e for e in events[last_deal:] if isinstance(e, Played)]
        assert plots.totals.totals == tuple(p.total for p in plays)
        # The figure holds one x per play, from 0 at the deal, and the bust's mark.
        plot = app.screen.query_one("#round-plot", PlotextPlot)
        xs, ys = plot.plt._active.monitor.x[0], plot.plt._active.monitor.y[0]
        assert list(ys) == [0, *(p.total for p in plays)] and len(xs) == len(plays) + 1
        await wait_until(pilot, lambda: "play" in screen_text(app))
        text = screen_text(app)
        assert f"Round {plots.totals.round_no}: the total" in text
        lines = text.splitlines()
        # The x axis' label; the y axis marked at the total that busts (99 in 1980).
        assert any(line.strip(" █") == "play" for line in lines)
        assert any(line.lstrip("█ ").startswith("99┤") or "99├" in line for line in lines)
        # The x axis numbered in whole plays, from 0 at the deal to the last play.
        assert any(line.strip(" █").startswith("0 ") and line.strip(" █").endswith(
            f" {len(plays)}") for line in lines)
        assert f"in {len(plays)} plays" in text and "busted at" in text
        assert all(len(line) <= 80 for line in text.splitlines())
        figures = os.environ.get("ONO99_FIGURES")  # docs/UI.md's picture of it
        if figures:
            app.save_screenshot("plot-round.svg", path=figures)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is replay)


def test_plot_snapshot(snap_compare) -> None:
    app, replay = replay_app("1980")

    async def run_before(pilot: Pilot[Any]) -> None:
        await _at_the_end_with_the_plot(pilot, replay)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


async def test_a_solo_matchs_round_and_match_dialogs_open_the_plot() -> None:
    async with start_solo_table(bots=1, rules="1980", seed=11) as server:
        app = solo(server, bots=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None
                             and isinstance(app.screen, TableScreen))
            seen_round = False
            while not isinstance(app.screen, MatchEndScreen):
                await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen | RoundEndScreen)
                                 or (app.session.view is not None and bool(app.session.view.legal_moves)
                                     and app.session.connection_state == "connected"))
                if isinstance(app.screen, RoundEndScreen):
                    if not seen_round:
                        dialog = app.screen
                        await pilot.press("g")
                        await wait_until(pilot, lambda: isinstance(app.screen, PlotsScreen))
                        plots = app.screen
                        assert isinstance(plots, PlotsScreen) and plots.totals is not None
                        assert plots.totals.round_no == dialog.result.round_no
                        assert plots.totals.busts  # the round ended on a bust
                        await pilot.pause()
                        assert "busted at" in screen_text(app)
                        await pilot.press("escape")
                        await wait_until(pilot, lambda dialog=dialog: app.screen is dialog)
                        seen_round = True
                    await pilot.press("enter")
                    continue
                if isinstance(app.screen, MatchEndScreen):
                    break
                index = first_playable(app)
                before = app.session.view_seq
                await pilot.press("s" if index is None else str(index + 1))
                await wait_until(pilot, lambda before=before: app.session.view_seq != before
                                 or isinstance(app.screen, MatchEndScreen | RoundEndScreen))
            assert seen_round and app.session.view.phase == MATCH_OVER
            await wait_until(pilot, lambda: "Plots" in screen_text(app))  # the footer's key
            await pilot.press("g")
            await wait_until(pilot, lambda: isinstance(app.screen, PlotsScreen))
            await pilot.pause()
            assert "the total" in screen_text(app)
            await pilot.press("g")
            await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen))
