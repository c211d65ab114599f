"""A whole match over loopback, at the keyboard: the host's app, two joined apps and a
spectator, each a real Ono99App talking to one real table server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lobby_helpers import running_table, wait_for_condition
from testkit.waiting import pilot_wait_until as wait_until
from textual.pilot import Pilot

from netproto.addresses import Address
from ono99tui.game import Discard, Draw, Play, SwapFour
from ono99tui.game.state import MATCH_OVER
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.results import MatchEndScreen, RoundEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

HOST_KEY = "host-key-of-the-match-test"


def joined_app(port: int, name: str, config: Path, *, spectate: bool = False) -> Ono99App:
    """What `ono99 join 127.0.0.1:PORT --name NAME` opens."""
    lobby = LobbyScreen(None, config_directory=config, name=name,
                        join_address=Address("127.0.0.1", port), spectate=spectate)
    return Ono99App(start_screen=lobby, ascii_glyphs=False)


def key_for(app: Ono99App) -> str | None:
    """The key a player presses for their first legal move now, if they have one."""
    view = app.session.view
    if view is None or view.seat is None or not view.legal_moves:
        return None
    move = view.legal_moves[0]
    if isinstance(move, (Play, Discard)):
        return str(view.hand.index(move.card) + 1)
    if isinstance(move, SwapFour):
        return "s"
    if isinstance(move, Draw):
        return "d"
    raise AssertionError(f"unexpected move {move!r}")


async def play_until_the_end(players: list[tuple[Ono99App, Pilot[Any]]]) -> None:
    """Each player presses their move's key when it is their turn, until the match is over.

    Keys go in with `simulate_key` (the app's own key path: bindings, then actions) rather
    than `Pilot.press`, which waits for every screen of every app to settle after each key.
    """
    acted: dict[int, int] = {}
    for _ in range(40000):
        if all(app.session.view is not None and app.session.view.phase == MATCH_OVER for app, _ in players):
            return
        for index, (app, _pilot) in enumerate(players):
            if isinstance(app.screen, RoundEndScreen):
                app.simulate_key("enter")
            key = key_for(app)
            if key is not None and isinstance(app.screen, TableScreen) \
                    and acted.get(index) != app.session.view_seq:
                acted[index] = app.session.view_seq
                app.simulate_key(key)
        await asyncio.sleep(0.005)
    raise AssertionError("the match did not end in time")


async def test_host_and_two_joined_players_play_a_match_while_someone_watches(
    tmp_path: Path,
) -> None:
    # Seed 55 deals a short match when everyone plays their first legal move (21 moves,
    # against 56 for the helpers' default seed): four apps render every move in this one
    # process, so the length of the match is the length of the test.
    async with running_table(name="den", capacity=3, host_key=HOST_KEY, seed=55) as server:
        host = host_app(server, player="ana")
        bob = joined_app(server.port, "bob", tmp_path / "bob")
        cy = joined_app(server.port, "cy", tmp_path / "cy")
        async with host.run_test(size=(80, 24)) as host_pilot, \
                bob.run_test(size=(80, 24)) as bob_pilot, \
                cy.run_test(size=(80, 24)) as cy_pilot:
            players = [(host, host_pilot), (bob, bob_pilot), (cy, cy_pilot)]
            await wait_for_condition(
                lambda: host.session.lobby is not None and len(host.session.lobby.seats) == 3, what="three seats")
            # Several apps share this loop: keys go in with simulate_key (see play_until_the_end).
            for app, _pilot in players[1:]:
                assert isinstance(app.screen, WaitingRoomScreen)
                app.simulate_key("r")
            await wait_for_condition(lambda: all(s.ready for s in host.session.lobby.seats[1:]),
                                     what="both guests ready")
            host.simulate_key("s")
            await wait_for_condition(
                lambda: all(isinstance(app.screen, TableScreen) for app, _ in players),
                what="every player at the table")

            # Someone comes to watch the match being played.
            eve = joined_app(server.port, "eve", tmp_path / "eve", spectate=True)
            async with eve.run_test(size=(80, 24)) as eve_pilot:
                await wait_until(eve_pilot, lambda: isinstance(eve.screen, TableScreen),
                                 what="the spectator at the table")
                assert eve.session.view is not None and eve.session.view.seat is None
                assert eve.session.view.hand == ()

                await play_until_the_end(players)
                winners = {app.session.view.winners for app, _ in players}
                assert len(winners) == 1 and len(winners.pop()) == 1
                await wait_until(eve_pilot, lambda: eve.session.view.phase == MATCH_OVER,
                                 what="the spectator sees the end")
                assert eve.session.view.winners == host.session.view.winners
                for app, pilot in [*players, (eve, eve_pilot)]:
                    await wait_until(pilot, lambda app=app: isinstance(app.screen, MatchEndScreen),
                                     what="the match-end screen")
                # A coach's review for each player, of their own plays; none for the
                # spectator, who played none.
                assert all(app.session.may_review for app, _ in players)
                assert [app.session.story.plays.seat for app, _ in players] == [0, 1, 2]
                assert not eve.session.may_review
                assert eve.screen.check_action("review", ()) is False
            assert [seat.name for seat in host.session.lobby.seats] == ["ana", "bob", "cy"]
