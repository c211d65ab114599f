"""A duplicate set at 80×24 (docs/DUPLICATE.md): a player and a bot play both deals of a
two-player set through a real table, and the match-over dialog of the second shows the
set's comparison: the players best first with their edges, and who played each seat's
cards best."""

from __future__ import annotations

from dataclasses import replace

from table_helpers import solo, wait_until
from test_rematch_and_standings import dialog_text
from test_solo_match import play_to_the_end
from textual.widgets import Button, Static

from ono99tui.commands.solo import solo_config
from ono99tui.game import MATCH_OVER
from ono99tui.host.server import TableServer
from ono99tui.ui.screens.results import MatchEndScreen
from ono99tui.ui.screens.table import TableScreen


async def test_the_match_over_dialog_shows_the_sets_comparison_at_80x24() -> None:
    config = replace(solo_config(bots=1, rules="2022", seed=8, bot_delay=0.0), duplicate=True)
    async with TableServer(config) as server:
        app = solo(server, bots=1)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None)
            await play_to_the_end(app, pilot)
            await wait_until(pilot, lambda: "Duplicate set, 1 of 2 deals" in dialog_text(app))
            # After one deal nobody else has held the same cards: no comparison of one
            # (every edge 0.00, each holder "best"), but when it begins.
            first = dialog_text(app)
            assert "The comparison begins with the next deal" in first, first
            assert "best played by" not in first and "0.00" not in first, first
            first_seat = app.session.view.seat
            # The rematch deals the set's next rotation: the button says so.
            assert str(app.screen.query_one("#rematch", Button).label) == "Next deal (r)"
            await pilot.press("r")
            await wait_until(pilot, lambda: app.session.view.phase != MATCH_OVER
                             and isinstance(app.screen, TableScreen))
            assert app.session.view.seat != first_seat  # the second rotation: the other seat
            title = app.screen.query_one("#table-title", Static)
            await wait_until(pilot, lambda: "Deal 2 of 2" in str(title.content),
                             what="the set's deal in the table's title")
            await play_to_the_end(app, pilot)
            await wait_until(pilot, lambda: "Duplicate set over" in dialog_text(app))
            assert isinstance(app.screen, MatchEndScreen)
            text = dialog_text(app)
            rows = [line for line in text.splitlines() if line.startswith(("1. ", "2. "))
                    and ("+" in line or "-" in line or "0.00" in line)]
            names = {seat.name for seat in app.session.lobby.seats}
            cells = [row[3:].rsplit(None, 2) for row in rows]  # name, edge, mean place
            assert len(rows) == 2 and {cell[0] for cell in cells} == names
            edges = [float(cell[1]) for cell in cells]
            assert edges[0] == -edges[1] and edges[0] >= 0  # two players: one's gain
            assert "Seat 1's cards: best played by" in text
            assert "Seat 2's cards: best played by" in text
            assert str(app.screen.query_one("#rematch", Button).label) == "Rematch (r)"
            box = app.screen.query_one("#duplicate")
            assert box.display
