"""The waiting room's "Rate my play (u)" box, with Pilot against a real table that rates:
u (or the box) switches the player's rating off and on, the table's lobby says so and the
rating goes from beside the name and comes back; a table that rates nobody has no box. The
match-over dialog has the same box and key (as line mode's `rated` and the phone's switch
there), without taking the focus Rematch has."""

from __future__ import annotations

from lobby_helpers import HOST_KEY, running_table, seat_cells, wait_for_seats
from test_match_over_loopback import play_until_the_end
from testkit.waiting import pilot_wait_until
from textual.widgets import Checkbox

from ono99tui.host.ratings import RatingBook
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.results import MatchEndScreen


async def test_u_switches_the_players_rating_off_and_on() -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY, seed=5,
                             ratings=RatingBook(), bots=("easy",)) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_seats(pilot, app, 3, player=(1, "ana"))
            box = app.screen.query_one("#rate-me", Checkbox)
            assert box.display and box.value and "Rate my play (u)" in str(box.label)
            assert seat_cells(app)[1][3] == "1000"
            await pilot.press("u")
            await pilot_wait_until(pilot, lambda: server.table.core.seats[1].unrated
                                   and seat_cells(app)[1][3] == "\u2013", what="unrated")
            assert not box.value and app.session.rated is False
            assert seat_cells(app)[0][3] == "1000"  # the bot's level is rated as before
            await pilot.press("u")
            await pilot_wait_until(pilot, lambda: not server.table.core.seats[1].unrated
                                   and seat_cells(app)[1][3] == "1000", what="rated again")
            assert box.value
            # The box itself, clicked, says the same.
            await pilot.click("#rate-me")
            await pilot_wait_until(pilot, lambda: server.table.core.seats[1].unrated,
                                   what="unrated by the box")


async def test_a_table_that_rates_nobody_offers_no_box() -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_seats(pilot, app, 3)
            assert not app.screen.query_one("#rate-me", Checkbox).display
            await pilot.press("u")
            await pilot.pause()
            assert not server.table.core.seats[0].unrated


async def test_the_match_over_dialog_has_the_box_and_u_too() -> None:
    async with running_table(name="den", capacity=2, host_key=HOST_KEY, seed=55,
                             ratings=RatingBook(), bots=("easy",)) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_seats(pilot, app, 2)
            await pilot.press("s")
            await play_until_the_end([(app, pilot)])
            await pilot_wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen)
                                   and app.session.lobby is not None
                                   and app.session.lobby.phase == "finished",
                                   what="the match-over dialog")
            dialog = app.screen
            box = dialog.query_one("#rate-me", Checkbox)
            await pilot_wait_until(pilot, lambda: box.display, what="the box")
            assert box.value and "Rate my play (u)" in str(box.label)
            assert app.focused is not None and app.focused.id == "rematch"
            await pilot.press("u")
            await pilot_wait_until(pilot, lambda: server.table.core.seats[1].unrated
                                   and not box.value, what="unrated")
            assert app.session.rated is False and app.screen is dialog
            await pilot.click("#rate-me")
            await pilot_wait_until(pilot, lambda: not server.table.core.seats[1].unrated
                                   and box.value, what="rated again by the box")
