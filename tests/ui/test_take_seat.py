"""A spectator takes a seat for the next match: real apps, real tables on loopback.

Somebody who joins while a match is in play watches it (the table seats newcomers only
between matches). Their connection may never say `ready` (netproto/wire/connection.py), so the
match-over dialog offers them no rematch but "Take a seat (t)" where a seat may be free:
the app says bye as a spectator and joins the same table again asking for a seat (same
name, password and host key), through the lobby's join (or, for the host's own app, its
own connection factory). The waiting room offers the same to a spectator there.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lobby_helpers import running_table
from table_helpers import CuttableProxy, first_move_player, record_notices, screen_text
from test_match_over_loopback import joined_app
from testkit.waiting import pilot_wait_until as wait_until
from textual.pilot import Pilot
from textual.widgets import Button, Input

from netproto.addresses import Address
from netproto.client import TableClient
from ono99tui.game.state import MATCH_OVER
from ono99tui.host.server import TableServer
from ono99tui.ui.app import Ono99App
from ono99tui.ui.host_app import host_app
from ono99tui.ui.requests import TableItem
from ono99tui.ui.screens.lobby import LobbyScreen
from ono99tui.ui.screens.password_prompt import PasswordPrompt
from ono99tui.ui.screens.results import MatchEndScreen
from ono99tui.ui.screens.table import TableScreen
from ono99tui.ui.screens.waiting_room import WaitingRoomScreen

HOST_KEY = "host-key-of-the-take-seat-test"


def player(port: int, name: str, go: asyncio.Event,
           password: str | None = None) -> AbstractAsyncContextManager[TableClient]:
    """A player seated at the table on `port`, playing its first legal move once `go` is set
    (so a match lasts until the test lets it end)."""
    return first_move_player(port, name, go=go, password=password)


def shown_keys(app: Ono99App) -> set[str]:
    """The keys the Footer shows enabled on the screen on top."""
    return {key for key, active in app.screen.active_bindings.items()
            if active.binding.show and active.enabled}


def seat_button(app: Ono99App) -> Button | None:
    """The match-over dialog's "Take a seat" button, if it has one."""
    found = app.screen.query("#take-seat")
    return found.first(Button) if found else None


def watching(app: Ono99App) -> bool:
    """Is the app's connection a spectator's?"""
    return app.session.welcome is not None and app.session.welcome.role == "spectator"


def raw_errors(notices: list[str]) -> list[str]:
    """Notices that are a protocol refusal shown raw (the bug: "may not send 'ready'")."""
    return [notice for notice in notices if "may not send" in notice]


async def watch_a_match_to_its_end(app: Ono99App, pilot: Any, go: asyncio.Event) -> None:
    """The app joined mid-match and watches; the players then finish the match."""
    await wait_until(pilot, lambda: isinstance(app.screen, TableScreen) and app.session.view is not None,
                     what="the latecomer watching the match", timeout=20)
    assert watching(app) and app.session.view is not None and app.session.view.seat is None
    go.set()
    await wait_until(pilot, lambda: isinstance(app.screen, MatchEndScreen)
                     and app.session.view is not None and app.session.view.phase == MATCH_OVER
                     and app.session.lobby is not None and app.session.lobby.phase == "finished",
                     what="the match over, as the spectator sees it", timeout=30)
    await pilot.pause()


async def ready_and_dealt_in(app: Ono99App, pilot: Any, *, seat: int) -> None:
    """The seated latecomer says ready (r) and is dealt the next match in seat `seat`."""
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                     and app.session.view is not None and app.session.view.phase != MATCH_OVER,
                     what="the next match dealt to the latecomer", timeout=20)
    assert app.session.view is not None and app.session.view.seat == seat and len(app.session.view.hand) > 0


@dataclass
class Latecomer:
    """cy, who came to a match of ann and bob under way and has watched it end."""

    server: TableServer
    app: Ono99App
    pilot: Pilot[Any]
    notices: list[str]
    go: asyncio.Event  # set: ann and bob play their moves


@asynccontextmanager
async def a_latecomer(tmp_path: Path, capacity: int) -> AsyncIterator[Latecomer]:
    """A table of `capacity` seats where ann and bob play a match (dealt with two in) that
    cy joined (asking for a seat) while it was on, and has watched to its end."""
    async with running_table(name="den", capacity=capacity, start_when=2, seed=55) as server:
        go = asyncio.Event()
        async with player(server.port, "ann", go), player(server.port, "bob", go):
            cy = joined_app(server.port, "cy", tmp_path / "cy")
            notices = record_notices(cy)
            async with cy.run_test(size=(80, 24), notifications=True) as pilot:
                await watch_a_match_to_its_end(cy, pilot, go)
                yield Latecomer(server, cy, pilot, notices, go)


async def test_a_latecomer_takes_a_seat_after_the_match_and_plays_the_next(
    tmp_path: Path,
) -> None:
    async with running_table(name="den", capacity=3, start_when=2, seed=55) as server:
        go = asyncio.Event()
        async with player(server.port, "ann", go) as ann, \
                player(server.port, "bob", go) as bob:
            cy = joined_app(server.port, "cy", tmp_path / "cy")  # asks for a seat
            notices = record_notices(cy)
            async with cy.run_test(size=(80, 24), notifications=True) as pilot:
                await watch_a_match_to_its_end(cy, pilot, go)
                assert f"127.0.0.1:{server.port} is full or already playing: you are watching." \
                    in notices
                # No rematch for a spectator (its connection may not say ready): a seat.
                assert not cy.screen.query("#rematch")
                button = seat_button(cy)
                assert button is not None and button.display
                keys = shown_keys(cy)
                assert "t" in keys and "r" not in keys
                text = screen_text(cy)
                assert "Take a seat (t)" in text and "Rematch" not in text
                assert "Watching: 1 seat is free." in text
                await pilot.press("r")  # not offered: nothing is sent, nothing is said
                await pilot.pause()

                # Twice, quickly: one goodbye, one new connection.
                await pilot.press("t", "t")
                await wait_until(pilot, lambda: isinstance(cy.screen, WaitingRoomScreen)
                                 and cy.client is not None and cy.client.role == "player"
                                 and cy.session.lobby is not None and cy.session.lobby.you is not None,
                                 what="the spectator seated in the waiting room")
                assert cy.client is not None and cy.client.seat == 2
                assert [seat.name for seat in server.table.seats] == ["ann", "bob", "cy"]
                assert not server.table.spectators
                stack = [type(screen) for screen in cy.screen_stack[1:]]
                assert stack == [LobbyScreen, WaitingRoomScreen]
                await pilot.pause()
                assert "Waiting room: den  (player)" in screen_text(cy)
                assert raw_errors(notices) == []
                assert not any("Not sent" in notice for notice in notices)

                # The next match deals them in.
                await ann.ready(True)
                await bob.ready(True)
                await ready_and_dealt_in(cy, pilot, seat=2)


async def test_at_a_full_table_the_dialog_says_so_and_offers_no_seat(tmp_path: Path) -> None:
    async with a_latecomer(tmp_path, 2) as late:
        cy, pilot, notices = late.app, late.pilot, late.notices
        button = seat_button(cy)
        assert button is not None and not button.display
        keys = shown_keys(cy)
        assert "t" not in keys and "r" not in keys
        assert "Watching: all 2 seats are taken." in screen_text(cy)
        await pilot.press("r", "t", "enter")  # Enter: not on Quit either
        await pilot.pause()
        assert watching(cy) and isinstance(cy.screen, MatchEndScreen)
        assert cy.return_code is None
        assert raw_errors(notices) == []
        # Esc: the table offers no rematch or seat either.
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(cy.screen, TableScreen),
                         what="back at the table")
        keys = shown_keys(cy)
        assert "t" not in keys and "r" not in keys


async def test_a_seat_taken_meanwhile_leaves_them_watching_and_says_so(tmp_path: Path) -> None:
    async with a_latecomer(tmp_path, 3) as late:
        cy, pilot, notices = late.app, late.pilot, late.notices
        server = late.server
        go = late.go
        assert cy.session.lobby is not None
        one_free = cy.session.lobby
        async with player(server.port, "dan", go):
            await wait_until(pilot, lambda: cy.session.lobby is not None
                             and len(cy.session.lobby.seats) == 3, what="dan seated")
            await pilot.pause()
            button = seat_button(cy)
            assert button is not None and not button.display  # the dialog follows
            # The lobby that said a seat was free crosses dan's taking it on the
            # wire: the spectator asks for a seat the table no longer has.
            cy.post_message(TableItem(replace(one_free)))
            await pilot.pause()
            assert "t" in shown_keys(cy)
            notices.clear()
            await pilot.press("t")
            await wait_until(pilot, lambda: isinstance(cy.screen, WaitingRoomScreen)
                             and cy.session.lobby is not None and len(cy.session.lobby.seats) == 3,
                             what="back in the waiting room")
            assert cy.client is not None and cy.client.role == "spectator"
            assert f"127.0.0.1:{server.port} is full or already playing: you are watching." \
            in notices
            await pilot.pause()
            text = screen_text(cy)
            assert "Waiting room: den  (watching)" in text
            assert "Watching: all 3 seats are taken." in text
            assert "t" not in shown_keys(cy)
            assert raw_errors(notices) == []


async def test_a_spectator_in_the_waiting_room_of_a_password_table_takes_a_seat(
    tmp_path: Path,
) -> None:
    async with running_table(name="den", capacity=3, password="pw") as server:
        go = asyncio.Event()
        async with player(server.port, "ann", go, password="pw"):
            cy = joined_app(server.port, "cy", tmp_path / "cy", spectate=True)
            async with cy.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: isinstance(cy.screen, PasswordPrompt),
                                 what="the password prompt")
                cy.screen.query_one(Input).value = "pw"
                await pilot.press("enter")
                await wait_until(pilot, lambda: isinstance(cy.screen, WaitingRoomScreen)
                                 and cy.session.lobby is not None, what="watching the waiting room")
                await pilot.pause()
                assert watching(cy)
                text = screen_text(cy)
                assert "Waiting room: den  (watching)" in text
                assert "Watching: 2 seats are free (t takes one)." in text
                assert "t" in shown_keys(cy) and "r" not in shown_keys(cy)
                first_room = cy.screen

                await pilot.press("t")
                # The password goes with the new hello: no prompt this time.
                await wait_until(pilot, lambda: cy.screen is not first_room
                                 and isinstance(cy.screen, WaitingRoomScreen)
                                 and cy.session.lobby is not None and cy.session.lobby.you == 1,
                                 what="seated")
                await pilot.pause()
                assert cy.client is not None and cy.client.role == "player"
                assert "Waiting room: den  (player)" in screen_text(cy)
                assert "t" not in shown_keys(cy) and "r" in shown_keys(cy)
                assert [seat.name for seat in server.table.seats] == ["ann", "cy"]


async def test_a_table_gone_meanwhile_sends_them_back_to_the_lobby_saying_why(
    tmp_path: Path,
) -> None:
    async with running_table(name="den", capacity=3) as server:
        go = asyncio.Event()
        proxy = await CuttableProxy(server.port).start()
        try:
            async with player(server.port, "ann", go):
                lobby = LobbyScreen(None, config_directory=tmp_path, name="cy",
                                    join_address=Address("127.0.0.1", proxy.port),
                                    spectate=True)
                cy = Ono99App(start_screen=lobby, ascii_glyphs=False)
                async with cy.run_test(size=(80, 24)) as pilot:
                    await wait_until(pilot, lambda: isinstance(cy.screen, WaitingRoomScreen)
                                     and cy.session.lobby is not None, what="watching")
                    await pilot.pause()
                    # The table's address stops answering; the spectator's link still works.
                    assert proxy._server is not None
                    proxy._server.close()
                    await pilot.press("t")
                    await wait_until(pilot, lambda: cy.screen is lobby, what="the lobby")
                    await pilot.pause()
                    status = "Could not take a seat: nothing is listening at 127.0.0.1:"
                    assert status in screen_text(cy)
                    assert cy.client is None and cy.session.lobby is None and cy.session.welcome is None
                    assert not server.table.spectators  # the spectator said goodbye
        finally:
            await proxy.stop()


async def test_the_hosts_own_app_made_a_spectator_takes_its_seat_and_host_rights_back() -> None:
    # A table whose host's person is not in the match under way (as after a restarted
    # host took up a match without them): the host's app, asking for a seat, watches.
    async with running_table(name="den", capacity=3, start_when=2, host_key=HOST_KEY,
                             seed=55) as server:
        go = asyncio.Event()
        async with player(server.port, "ann", go), player(server.port, "bob", go):
            app = host_app(server, player="hal", invite="Others join with: ono99 join")
            notices = record_notices(app)
            async with app.run_test(size=(80, 24), notifications=True) as pilot:
                await watch_a_match_to_its_end(app, pilot, go)
                assert not app.session.is_host
                assert "t" in shown_keys(app) and "r" not in shown_keys(app)
                await pilot.press("t")
                await wait_until(pilot, lambda: isinstance(app.screen, WaitingRoomScreen)
                                 and app.session.lobby is not None and app.session.lobby.you is not None,
                                 what="the host seated again")
                await pilot.pause()
                assert app.client is not None and app.client.role == "player"
                assert app.session.is_host and app.session.lobby is not None and app.session.lobby.you == 2
                # The waiting room it opened on, with the invitation.
                assert len(app.screen_stack) == 2
                assert "Others join with: ono99 join" in screen_text(app)
                assert "Waiting room: den  (host)" in screen_text(app)
                assert raw_errors(notices) == []


async def test_a_seat_whose_player_has_gone_counts_as_free_after_the_match(
    tmp_path: Path,
) -> None:
    # A full table, one of whose players left mid-match (a bot played their seat on): the
    # table frees that seat for a newcomer between matches, so the spectator is offered it.
    async with running_table(name="den", capacity=2, start_when=2, seed=55) as server:
        go = asyncio.Event()
        async with player(server.port, "ann", go):
            bob = await TableClient.connect("127.0.0.1", server.port, name="bob")
            cy = joined_app(server.port, "cy", tmp_path / "cy")
            async with cy.run_test(size=(80, 24)) as pilot:
                await wait_until(pilot, lambda: isinstance(cy.screen, TableScreen)
                                 and cy.session.view is not None, what="cy watching")
                await bob.close("gone home")  # mid-match: a bot plays the seat on
                await wait_until(pilot, lambda: cy.session.lobby is not None
                                 and not cy.session.lobby.seats[1].connected, what="bob gone")
                await watch_a_match_to_its_end(cy, pilot, go)
                assert cy.session.lobby is not None and len(cy.session.lobby.seats) == 2
                assert "Watching: 1 seat is free." in screen_text(cy)
                assert "t" in shown_keys(cy)
                await pilot.press("t")
                await wait_until(pilot, lambda: isinstance(cy.screen, WaitingRoomScreen)
                                 and cy.session.lobby is not None and cy.session.lobby.you is not None,
                                 what="seated in bob's stead")
                assert [seat.name for seat in server.table.seats] == ["ann", "cy"]


async def test_at_a_table_of_bots_a_latecomer_takes_a_bots_seat_for_the_next_match(
    tmp_path: Path,
) -> None:
    # The evening this is for: ann plays against two bots, a friend arrives mid-match. The
    # table is full, but only of bots, so the friend is offered a seat and a bot makes room
    # (before, "all 3 seats are taken" for as long as the bots sat there).
    async with running_table(name="den", capacity=3, start_when=3, seed=55) as server:
        for kind in ("greedy", "greedy"):
            server.table.add_bot(kind)
        go = asyncio.Event()
        async with player(server.port, "ann", go) as ann:
            cy = joined_app(server.port, "cy", tmp_path / "cy")  # asks for a seat
            notices = record_notices(cy)
            async with cy.run_test(size=(80, 24), notifications=True) as pilot:
                await watch_a_match_to_its_end(cy, pilot, go)
                text = screen_text(cy)
                assert "Take a seat (t)" in text and "Watching: 2 seats are free." in text
                assert "t" in shown_keys(cy)

                await pilot.press("t")
                await wait_until(pilot, lambda: isinstance(cy.screen, WaitingRoomScreen)
                                 and cy.client is not None and cy.client.role == "player"
                                 and cy.session.lobby is not None and cy.session.lobby.you is not None,
                                 what="the latecomer seated in the waiting room")
                assert [seat.name for seat in server.table.seats] == [
                    "Greedy bot", "ann", "cy"]
                await ann.ready(True)
                await ready_and_dealt_in(cy, pilot, seat=2)
                assert raw_errors(notices) == []


async def test_t_mid_match_takes_a_seat_the_moment_the_match_ends(tmp_path: Path) -> None:
    # The race this is for: a latecomer waits for the match to end to press t, and a host
    # quick on r deals the rematch first, so they watch another whole match. Pressed while
    # the match is on, t asks for the seat; the app takes it as soon as the table says the
    # match is over, with no key pressed then.
    async with running_table(name="den", capacity=3, start_when=2, seed=55) as server:
        go = asyncio.Event()
        async with player(server.port, "ann", go) as ann, \
                player(server.port, "bob", go) as bob:
            cy = joined_app(server.port, "cy", tmp_path / "cy")
            notices = record_notices(cy)
            async with cy.run_test(size=(80, 24), notifications=True) as pilot:
                await wait_until(pilot, lambda: isinstance(cy.screen, TableScreen)
                                 and cy.session.view is not None and watching(cy),
                                 what="the latecomer watching the match", timeout=20)
                assert "t" in shown_keys(cy)
                await pilot.press("t", "t")  # asked, then changed their mind
                assert not cy.session.seat_wanted
                assert "You keep watching after this match." in notices
                await pilot.press("t")
                assert cy.session.seat_wanted
                assert any(note.startswith("You take a seat as soon as this match ends")
                           for note in notices)

                go.set()
                await wait_until(pilot, lambda: isinstance(cy.screen, WaitingRoomScreen)
                                 and cy.client is not None and cy.client.role == "player"
                                 and cy.session.lobby is not None and cy.session.lobby.you is not None,
                                 what="the latecomer seated as the match ended", timeout=30)
                assert [seat.name for seat in server.table.seats] == ["ann", "bob", "cy"]
                assert not cy.session.seat_wanted
                for client in (ann, bob):
                    await client.ready(True)
                await ready_and_dealt_in(cy, pilot, seat=2)
                assert raw_errors(notices) == []


async def test_t_mid_match_with_no_seat_free_at_the_end_says_so_and_keeps_watching(
    tmp_path: Path,
) -> None:
    async with running_table(name="den", capacity=2, start_when=2, seed=55) as server:
        go = asyncio.Event()
        async with player(server.port, "ann", go), player(server.port, "bob", go):
            cy = joined_app(server.port, "cy", tmp_path / "cy")
            notices = record_notices(cy)
            async with cy.run_test(size=(80, 24), notifications=True) as pilot:
                await wait_until(pilot, lambda: isinstance(cy.screen, TableScreen)
                                 and cy.session.view is not None and watching(cy),
                                 what="the latecomer watching the match", timeout=20)
                await pilot.press("t")
                assert cy.session.seat_wanted
                go.set()
                await wait_until(pilot, lambda: "No seat is free for the next match: you are "
                                 "still watching." in notices,
                                 what="told no seat is free", timeout=30)
                assert watching(cy) and not cy.session.seat_wanted
                assert [seat.name for seat in server.table.seats] == ["ann", "bob"]


async def test_who_sits_down_between_matches_is_told_to_the_table(tmp_path: Path) -> None:
    # Between matches everyone is looking at the results, not at the seats: a newcomer
    # taking a bot's seat is said in a notice (and a spectator's own seat is not).
    async with running_table(name="den", capacity=3, start_when=3, seed=55) as server:
        for kind in ("greedy", "greedy"):
            server.table.add_bot(kind)
        go = asyncio.Event()
        async with player(server.port, "ann", go):
            cy = joined_app(server.port, "cy", tmp_path / "cy")
            notices = record_notices(cy)
            async with cy.run_test(size=(80, 24), notifications=True) as pilot:
                await watch_a_match_to_its_end(cy, pilot, go)
                async with player(server.port, "dan", go):
                    told = "dan takes Greedy bot 2's seat for the next match."
                    await wait_until(pilot, lambda: told in notices, what="told of dan")
                    await pilot.press("t")  # cy takes the other bot's seat: not told
                    await wait_until(pilot, lambda: cy.client is not None
                                     and cy.client.role == "player" and cy.session.lobby is not None
                                     and cy.session.lobby.you is not None, what="cy seated")
                    await pilot.pause()
                    assert [seat.name for seat in server.table.seats] == ["ann", "dan", "cy"]
                    assert not any(note.startswith("cy takes") for note in notices)
