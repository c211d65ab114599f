"""The match-over results name the players who played the match, even after a seat is
freed at the finished table (which renumbers the seats of the table's later lobbies: the
dialog said "seat 3 wins" and the won/played columns vanished, found by play-testing)."""

from __future__ import annotations

import random

from foreign_servers import rogue_table, serving
from table_helpers import screen_text
from testkit.waiting import pilot_wait_until as wait_until

from netproto.client import TableClient
from netproto.wire.messages import PROTOCOL_VERSION
from ono99tui.bots import GreedyBot
from ono99tui.game import MATCH_OVER, acting_seats, apply, preset, start_match, view
from ono99tui.game.codec import view_to_wire
from ono99tui.ui.app import Ono99App
from ono99tui.ui.screens.results import MatchEndScreen
from ono99tui.ui.screens.table import TableScreen

NAMES = ("ana", "bo", "cy")


def a_match_cy_won() -> dict[str, object]:
    """The last view (seat 0's) of a greedy three-player match that seat 2 won."""
    for seed in range(200):
        rng = random.Random(seed)
        state, _ = start_match(preset("2022"), 3, rng)
        bot = GreedyBot()
        while state.phase != MATCH_OVER:
            seat = acting_seats(state)[0]
            state, _ = apply(state, bot.choose(view(state, seat), rng), rng)
        if state.winners == (2,):
            return view_to_wire(view(state, 0))
    raise AssertionError("no seed of 200 gave seat 2 the match")


def lobby(phase: str, names: tuple[str, ...], won: list[int]) -> dict[str, object]:
    return {"kind": "lobby", "phase": phase, "host_seat": 0, "you": 0, "capacity": 3,
            "seats": [{"seat": number, "name": name, "kind": "human", "ready": False,
                       "connected": True} for number, name in enumerate(names)],
            "results": {"matches_won": won, "matches_played": [1] * len(names)}}


async def test_the_results_keep_the_matchs_names_when_a_seat_is_freed() -> None:
    welcome = {"kind": "welcome", "proto": PROTOCOL_VERSION, "role": "player", "seat": 0,
               "token": "t", "table": {"name": "Den", "capacity": 3, "chat": True}}
    frames = (welcome, lobby("playing", NAMES, []),
              {"kind": "view", "seq": 1, "view": a_match_cy_won(), "events": []},
              lobby("finished", NAMES, [0, 0, 1]),
              # bo leaves the finished table: the table renumbers, cy is seat 1 now
              lobby("finished", ("ana", "cy"), [0, 1]))
    async with serving(rogue_table(*frames)) as port:
        async def connect() -> TableClient:
            return await TableClient.connect("127.0.0.1", port, name="ana")

        app = Ono99App(connect, start_screen=TableScreen, ascii_glyphs=False,
                       sixteen_colours=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.session.lobby is not None
                             and len(app.session.lobby.seats) == 2, what="the last lobby")
            await pilot.pause()
            assert "Match over: cy wins." in screen_text(app)
            await pilot.press("w")  # the match's results again
            await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen),
                             what="the results")
            await pilot.pause()
            shown = screen_text(app)
            assert "Match over: cy wins!" in shown, shown
            assert "seat 3" not in shown
            standings = str(app.screen.query_one("#standings").render())
            assert "bo" in standings and "Won here" in standings, standings
