"""Ratings on screen, with Pilot against a real table that rates its players: the waiting
room's Rating column beside each name, and the new rating with its change on the
match-over dialog; a table that rates nobody shows neither."""

from __future__ import annotations

from lobby_helpers import HOST_KEY, column_labels, running_table, seat_cells, wait_for_seats
from table_helpers import solo, wait_until
from test_solo_match import play_to_the_end
from textual.widgets import Static

from ono99tui.commands.solo import solo_config
from ono99tui.host.journal.ratings_file import Ratings
from ono99tui.host.ratings import BOT, PLAYER, Rated, Rating, RatingBook
from ono99tui.host.server import TableServer
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.results import MatchEndScreen


async def test_the_waiting_room_shows_each_players_rating() -> None:
    book = RatingBook({Rated(PLAYER, "ana"): Rating(30.0, 4.0, 20),
                       Rated(BOT, "hard"): Rating(27.6, 1.5, 3000)})
    async with running_table(name="den", capacity=4, host_key=HOST_KEY, ratings=book,
                             bots=("hard", "easy")) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_seats(pilot, app, 4, player=(2, "ana"))
            assert column_labels(app) == ["#", "Player", "Status", "Rating"]
            rows = seat_cells(app)
            # 1000 + 40 (mu - 3 sigma): ana 1720, the hard bot's level 1924, a new level 1000.
            assert [row[3] for row in rows[:3]] == ["1924", "1000", "1720"]
            assert rows[3][3] == ""  # the empty seat


async def test_a_table_that_rates_nobody_has_no_rating_column() -> None:
    async with running_table(name="den", capacity=3, host_key=HOST_KEY) as server:
        app = host_app(server, player="ana")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for_seats(pilot, app, 3)
            assert column_labels(app) == ["#", "Player", "Status"]


async def test_the_match_over_dialog_shows_each_new_rating_and_its_change() -> None:
    server = TableServer(solo_config(bots=2, rules="2022", seed=11, bot_delay=0.0),
                         ratings=Ratings(RatingBook()))
    async with server:
        app = solo(server, bots=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.view is not None)
            await play_to_the_end(app, pilot)
            assert isinstance(app.screen, MatchEndScreen)
            await wait_until(pilot, lambda: "Rating" in str(
                app.screen.query_one("#standings", Static).content))
            text = str(app.screen.query_one("#standings", Static).content)
            lines = text.splitlines()
            assert "Rating" in lines[0]
            lobby = app.session.match_lobby
            assert lobby is not None
            entries = lobby.results["ratings"]
            view = app.session.view
            assert view is not None and len(lines) == 1 + view.seats
            # Every row ends with that seat's new rating and its signed change; the winner,
            # first, gained.
            for entry in entries:
                assert f"{entry['rating']} ({entry['change']:+d})" in text
            assert lines[1].endswith(f"({entries[view.winners[0]]['change']:+d})")
            assert entries[view.winners[0]]["change"] > 0
